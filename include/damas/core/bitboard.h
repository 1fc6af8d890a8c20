// Bitboards on a padded 35-bit layout.
//
// Standard square n (1 = b8 ... 32 = g1, White's men on 21-32) has index i = n - 1 and lives on
// bit  i + i / 8 : every two rows of four squares are followed by one unused "ghost" bit
// (bits 8, 17, 26). With that gap a step to a diagonal neighbour is the same shift everywhere:
//
//      up-left -5   up-right -4        (towards square 1: White's forward direction)
//    down-left +4 down-right +5        (towards square 32: Black's forward direction)
//
// A step off the board lands on a ghost bit, below bit 0 or above bit 34; masking with the
// board (or with a set of squares, which never contains ghosts) removes it.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "damas/core/types.h"

namespace damas {

using Bitboard = std::uint64_t;

// A board square as its bit position in the padded layout (0..34, never a ghost bit).
struct Square {
  std::uint8_t bit = 0;
  constexpr auto operator<=>(const Square&) const = default;
};

inline constexpr int kBitboardBits = 35;

constexpr int bit_of_index(int index) { return index + index / 8; }
constexpr Square square_from_number(int number) {  // number in 1..32
  return Square{static_cast<std::uint8_t>(bit_of_index(number - 1))};
}
constexpr int square_number(Square s) { return s.bit - s.bit / 9 + 1; }
constexpr Bitboard bb(Square s) { return Bitboard{1} << s.bit; }

constexpr Bitboard make_board_mask() {
  Bitboard m = 0;
  for (int i = 0; i < rules::kBoardSquares; ++i) m |= Bitboard{1} << bit_of_index(i);
  return m;
}
inline constexpr Bitboard kBoard = make_board_mask();

constexpr Bitboard squares_mask(int first_number, int last_number) {
  Bitboard m = 0;
  for (int n = first_number; n <= last_number; ++n) m |= bb(square_from_number(n));
  return m;
}
// The rows where each side is crowned.
inline constexpr Bitboard kWhitePromotionRow = squares_mask(1, 4);
inline constexpr Bitboard kBlackPromotionRow = squares_mask(29, 32);
constexpr Bitboard promotion_row(Color c) {
  return c == Color::White ? kWhitePromotionRow : kBlackPromotionRow;
}

static_assert(std::popcount(kBoard) == rules::kBoardSquares);
static_assert((kBoard & ((Bitboard{1} << 8) | (Bitboard{1} << 17) | (Bitboard{1} << 26))) == 0);
static_assert(kBoard >> kBitboardBits == 0);
static_assert(square_number(square_from_number(1)) == 1 && square_number(square_from_number(32)) == 32);
static_assert(square_from_number(32).bit == 34);

// Diagonal directions with their shift.
enum class Direction : std::uint8_t { UpLeft = 0, UpRight = 1, DownLeft = 2, DownRight = 3 };
inline constexpr std::array<Direction, 4> kDirections = {Direction::UpLeft, Direction::UpRight,
                                                         Direction::DownLeft, Direction::DownRight};
constexpr int shift_of(Direction d) {
  constexpr int kShift[4] = {-5, -4, 4, 5};
  return kShift[static_cast<int>(d)];
}
constexpr Direction opposite(Direction d) { return static_cast<Direction>(3 - static_cast<int>(d)); }

// Moves every square of b one step in direction D (squares leaving the board may land on ghost
// bits; callers mask).
template <Direction D>
constexpr Bitboard step(Bitboard b) {
  if constexpr (shift_of(D) < 0) return b >> (-shift_of(D));
  else return b << shift_of(D);
}
constexpr Bitboard step(Bitboard b, Direction d) {
  const int s = shift_of(d);
  return s < 0 ? b >> (-s) : b << s;
}

static_assert(step<Direction::DownLeft>(bb(square_from_number(1))) == bb(square_from_number(5)));
static_assert(step<Direction::DownRight>(bb(square_from_number(1))) == bb(square_from_number(6)));
static_assert((step<Direction::DownLeft>(bb(square_from_number(5))) & kBoard) == 0);    // a7 edge
static_assert((step<Direction::DownRight>(bb(square_from_number(12))) & kBoard) == 0);  // h6 edge
static_assert(step<Direction::UpRight>(bb(square_from_number(29))) == bb(square_from_number(25)));

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lowest_square(Bitboard b) { return Square{static_cast<std::uint8_t>(std::countr_zero(b))}; }
// Removes and returns the lowest square of a non-empty set.
constexpr Square pop_lowest(Bitboard& b) {
  const Square s = lowest_square(b);
  b &= b - 1;
  return s;
}

}  // namespace damas
