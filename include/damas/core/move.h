// A move of Brazilian draughts.
//
// Encoding: a move is identified by (from, to, captured set), nothing else.
//   from, to  : Square (padded bit index, see bitboard.h). from == to is legal for a circular
//               king capture.
//   captured  : Bitboard of the squares of every piece taken (empty for a quiet move).
// Two capture routes with the same three fields give the same position and are ONE move.
// Promotion is not stored: a man whose move ends on its far row is crowned (position.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "damas/core/bitboard.h"

namespace damas {

struct Move {
  Bitboard captured = 0;
  Square from{};
  Square to{};

  constexpr bool is_capture() const { return captured != 0; }
  constexpr int capture_count() const { return popcount(captured); }
  constexpr bool operator==(const Move&) const = default;
  // A null move (from == to, nothing captured) is never legal; used as "no move".
  constexpr bool is_null() const { return from == to && captured == 0; }
};

inline constexpr Move kNullMove{};

// Fixed-capacity move list (no allocation on the search's hot path).
// 128 is far above any reachable count on 8x8 (kings give at most 13 quiet moves each).
class MoveList {
 public:
  static constexpr std::size_t kCapacity = 128;

  MoveList() {}  // leaves the storage uninitialised: it is written before it is read

  void push(const Move& m) { storage_.moves[size_++] = m; }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](std::size_t i) const { return storage_.moves[i]; }
  Move& operator[](std::size_t i) { return storage_.moves[i]; }
  const Move* begin() const { return storage_.moves; }
  const Move* end() const { return storage_.moves + size_; }
  Move* begin() { return storage_.moves; }
  Move* end() { return storage_.moves + size_; }
  bool contains(const Move& m) const {
    for (const Move& x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  // A union so that constructing a list does not zero 2 KiB on every node.
  union Storage {
    Storage() {}
    Move moves[kCapacity];
  } storage_;
  std::size_t size_ = 0;
};

}  // namespace damas
