// The move played from the book: among the book moves of a position within a margin of the best,
// one picked by a seed, in positions no deeper in the book than a ply limit.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "damas/book/book.h"

namespace damas::book {

struct BookPlay {
  int max_ply = 255;       // positions at this ply of the book or deeper are not played from it
  Score margin = 0;        // 1/100 man below the best; 0: the best only
  std::uint64_t seed = 0;  // the same seed and position give the same move
};

// The plies from the initial position where the margin is doubled: the book's scores there are its
// least settled (they moved by up to 0.15 man while the book grew, bench/book.md) and the choice
// there decides which opening a game is; within the plain margin every game would meet the same
// reply (bench/book.md, "Variety").
inline constexpr int kVarietyPlies = 2;

// The moves within the margin of the best (twice the margin in the first kVarietyPlies plies of
// the book), best first; empty when the position is not in the book or too deep for `max_ply`.
std::vector<BookMove> playable_moves(const Book& book, const Position& position, int max_ply, Score margin);

// One of the playable moves, picked uniformly by the seed and the position.
std::optional<BookMove> choose_move(const Book& book, const Position& position, const BookPlay& play);

// The best book move of the position `move` leads to (the expected reply), or a null move.
Move expected_reply(const Book& book, const Position& position, const Move& move);

}  // namespace damas::book
