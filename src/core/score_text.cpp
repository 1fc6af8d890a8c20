#include "damas/core/score_text.h"

#include <cstdio>
#include <string>

namespace damas {

std::string score_text(Score s) {
  char buf[48];
  if (is_win_score(s)) std::snprintf(buf, sizeof buf, "win in %d", kScoreWin - s);
  else if (is_loss_score(s)) std::snprintf(buf, sizeof buf, "loss in %d", kScoreWin + s);
  else std::snprintf(buf, sizeof buf, "%+.2f", s / 100.0);
  return buf;
}

std::string white_score_text(Score white) {
  if (is_win_score(white)) return "White wins in " + std::to_string(kScoreWin - white) + " plies";
  if (is_loss_score(white)) return "Black wins in " + std::to_string(kScoreWin + white) + " plies";
  return score_text(white);
}

}  // namespace damas
