// Scores for people. The Hub protocol has its own form (hub.h format_score).
#pragma once

#include <string>

#include "damas/core/types.h"

namespace damas {

// The side to move's view: "+0.35" (men), "win in 7", "loss in 7" (plies).
std::string score_text(Score s);
// White's view: "+0.35", "White wins in 7 plies", "Black wins in 7 plies".
std::string white_score_text(Score white);

}  // namespace damas
