#include "damas/core/score_text.h"

#include <cstdio>

namespace damas {

std::string score_text(Score s) {
  char buf[48];
  if (is_win_score(s)) std::snprintf(buf, sizeof buf, "win in %d", kScoreWin - s);
  else if (is_loss_score(s)) std::snprintf(buf, sizeof buf, "loss in %d", kScoreWin + s);
  else std::snprintf(buf, sizeof buf, "%+.2f", s / 100.0);
  return buf;
}

}  // namespace damas
