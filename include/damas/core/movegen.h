// Legal move generation, by the rules of the position's variant (Position::variant, types.h).
//
// Three entry points that must agree (debug builds check it on every generate call):
//   has_legal_move(p)      - is there any legal move?
//   count_legal_moves(p)   - how many distinct legal moves (perft's bulk count)?
//   generate_legal_moves() - the moves themselves.
// Capture is compulsory; a sequence is finished; under the majority rule (Brazilian) only those
// taking the most pieces are legal, without it (Russian) any. Moves are distinct by (from, to,
// captured set): other routes to the same triple are not listed twice. has_capture and
// has_legal_move need no variant: whether a first jump exists is the same in every one.
#pragma once

#include <vector>

#include "damas/core/move.h"
#include "damas/core/position.h"

namespace damas {

bool has_capture(const Position& p);
// Could `side` capture if it were its turn? (The search's threat test.)
bool has_capture(const Position& p, Color side);
bool has_legal_move(const Position& p);
int count_legal_moves(const Position& p);
void generate_legal_moves(const Position& p, MoveList& out);

// Is m one of the legal moves of p?
bool is_legal(const Position& p, const Move& m);
// The moves of `line` from p while each is legal where it is played (a PV may end in a move of
// another position).
std::vector<Move> legal_prefix(Position p, const std::vector<Move>& line);

// Moves that change the material balance or crown a man: the quiescence search's moves.
// Every capture is one; so is a man's step onto the far row.
bool is_tactical(const Position& p, const Move& m);

}  // namespace damas
