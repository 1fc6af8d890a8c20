#include "damas/core/perft.h"

#include "damas/core/movegen.h"

namespace damas {

std::uint64_t perft(const Position& p, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return static_cast<std::uint64_t>(count_legal_moves(p));
  MoveList moves;
  generate_legal_moves(p, moves);
  std::uint64_t total = 0;
  for (const Move& m : moves) total += perft(p.after(m), depth - 1);
  return total;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& p, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> result;
  MoveList moves;
  generate_legal_moves(p, moves);
  for (const Move& m : moves) result.emplace_back(m, perft(p.after(m), depth - 1));
  return result;
}

}  // namespace damas
