// Positions for evaluation tests: the colour-flipped twin of a position and quiet positions from
// random games (shared by test_eval.cpp and test_learned_eval.cpp).
#pragma once

#include <random>
#include <vector>

#include "damas/core/movegen.h"
#include "damas/core/position.h"

namespace damas::test {

inline Bitboard rotate(Bitboard b) {
  Bitboard r = 0;
  for (int n = 1; n <= 32; ++n)
    if (b & bb(square_from_number(n))) r |= bb(square_from_number(33 - n));
  return r;
}

// The same position seen from the other side: board turned round, colours and mover swapped.
inline Position colour_flip(const Position& p) {
  return Position::from_pieces(rotate(p.pieces(Color::Black)), rotate(p.pieces(Color::White)),
                               rotate(p.kings()), ~p.side_to_move(), p.reversible_plies());
}

// Quiet positions (no capture pending) from random games, many reaching king endings.
inline std::vector<Position> random_quiet_positions(unsigned seed, int games) {
  std::mt19937 rng(seed);
  std::vector<Position> out;
  for (int g = 0; g < games; ++g) {
    Position p = Position::start();
    for (int ply = 0; ply < 160; ++ply) {
      MoveList moves;
      generate_legal_moves(p, moves);
      if (moves.empty()) break;
      if (!has_capture(p)) out.push_back(p);
      std::uniform_int_distribution<std::size_t> pick(0, moves.size() - 1);
      p = p.after(moves[pick(rng)]);
    }
  }
  return out;
}

}  // namespace damas::test
