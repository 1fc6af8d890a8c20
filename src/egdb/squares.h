// The 32 dark squares as a plain 32-bit set (bit = square number - 1) and back to the padded
// bitboard of core/bitboard.h.
#pragma once

#include <cstdint>

#include "damas/core/bitboard.h"

namespace damas::egdb {

constexpr std::uint32_t squares32(Bitboard b) {
  return static_cast<std::uint32_t>((b & 0xFFU) | ((b >> 1) & 0xFF00U) | ((b >> 2) & 0xFF0000U) |
                                    ((b >> 3) & 0xFF000000U));
}
constexpr Bitboard board_of(std::uint32_t s) {
  const Bitboard b = s;
  return (b & 0xFFU) | ((b & 0xFF00U) << 1) | ((b & 0xFF0000U) << 2) | ((b & 0xFF000000U) << 3);
}
static_assert(squares32(kBoard) == 0xFFFFFFFFU && board_of(0xFFFFFFFFU) == kBoard);
static_assert(board_of(1U << 31) == bb(square_from_number(32)));

}  // namespace damas::egdb
