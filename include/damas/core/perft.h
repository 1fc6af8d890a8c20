// Perft: the number of leaf positions of the legal-move tree, counting moves by
// (from, to, captured set). Bulk counting at the last ply.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "damas/core/move.h"
#include "damas/core/position.h"

namespace damas {

std::uint64_t perft(const Position& p, int depth);
// One entry per legal root move, in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& p, int depth);

}  // namespace damas
