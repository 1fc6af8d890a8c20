// The evaluation graph of a review as a standalone SVG file (`damas analyze --pdn F --plot DIR`):
// White's advantage in men up (review::graph_value: clamped at +-3, won and lost scores on the edge),
// one point per position, the marked moves as coloured dots (inaccuracy, mistake, blunder), the
// per-side counts and average loss underneath. The board page draws the same values itself.
#pragma once

#include <string>

#include "damas/review/review.h"

namespace damas::review {

// A complete SVG document; `title` (escaped) heads it.
std::string graph_svg(const GameReview& review, const std::string& title);

}  // namespace damas::review
