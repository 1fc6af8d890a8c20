// A position: pieces, side to move, the no-progress counter, the variant whose rules it is played
// by, and an incremental Zobrist key.
#pragma once

#include <array>
#include <cstdint>

#include "damas/core/bitboard.h"
#include "damas/core/move.h"
#include "damas/core/types.h"

namespace damas {

using Key = std::uint64_t;

namespace zobrist {
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
// [piece kind][bit]: 0 white man, 1 black man, 2 white king, 3 black king.
struct Table {
  std::array<std::array<Key, kBitboardBits>, 4> piece{};
  Key black_to_move = 0;
  // Brazilian's is zero (its keys predate variants); another game's positions differ from it.
  std::array<Key, kVariantCount> variant{};
};
constexpr Table make_table() {
  Table t;
  std::uint64_t state = 0x0DA3A5DA3A5ULL;
  for (auto& kind : t.piece)
    for (auto& k : kind) k = splitmix64(state);
  t.black_to_move = splitmix64(state);
  for (std::size_t v = 1; v < t.variant.size(); ++v) t.variant[v] = splitmix64(state);
  return t;
}
inline constexpr Table kTable = make_table();
static_assert(kTable.piece[0][0] != kTable.piece[1][0]);
}  // namespace zobrist

class Position {
 public:
  // The empty board, White to move.
  Position() = default;
  static Position start(Variant variant = Variant::Brazilian);
  // Builds a position from piece sets (no legality check: notation.cpp validates input).
  static Position from_pieces(Bitboard white, Bitboard black, Bitboard kings, Color side_to_move,
                              int reversible_plies = 0);

  Bitboard pieces(Color c) const { return pieces_[index(c)]; }
  Bitboard occupied() const { return pieces_[0] | pieces_[1]; }
  Bitboard empty() const { return kBoard & ~occupied(); }
  Bitboard kings() const { return kings_; }
  Bitboard kings(Color c) const { return kings_ & pieces_[index(c)]; }
  Bitboard men(Color c) const { return pieces_[index(c)] & ~kings_; }
  Color side_to_move() const { return side_; }
  // The game whose rules move generation and after() apply (Brazilian unless set).
  Variant variant() const { return variant_; }
  // The same pieces played by another variant's rules.
  Position with_variant(Variant variant) const;
  // Plies since the last capture or man move (draw at rules::kNoProgressDrawPlies).
  int reversible_plies() const { return reversible_plies_; }
  Key key() const { return key_; }

  // The position after a legal move (copy-make: the position is 32 bytes).
  Position after(const Move& m) const;

  bool operator==(const Position& o) const {
    return pieces_ == o.pieces_ && kings_ == o.kings_ && side_ == o.side_ && variant_ == o.variant_;
  }
  // Recomputes the key from scratch (debug checks, tests).
  Key compute_key() const;

 private:
  std::array<Bitboard, 2> pieces_{};
  Bitboard kings_ = 0;
  Key key_ = 0;
  Color side_ = Color::White;
  std::uint8_t reversible_plies_ = 0;
  Variant variant_ = Variant::Brazilian;
};

}  // namespace damas
