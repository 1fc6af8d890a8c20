// A score for people: "+0.35" (men, side to move's view), "win in 7", "loss in 7" (plies).
// The Hub protocol has its own form (hub.h format_score).
#pragma once

#include <string>

#include "damas/core/types.h"

namespace damas {

std::string score_text(Score s);

}  // namespace damas
