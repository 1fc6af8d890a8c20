// The game field of the versioned data files that name their game (training data, learned
// weights): 8 bytes at offset 32 of a version 2 header, the game's PDN GameType (uint32,
// little-endian) and a reserved word that is zero. Both formats checksum from byte 32 on, where
// version 1, which names no game (Brazilian), has its data.
#pragma once

#include <array>
#include <cstddef>

#include "damas/core/expected.h"
#include "damas/core/types.h"

namespace damas {

inline constexpr std::size_t kGameFieldOffset = 32;
inline constexpr std::size_t kGameFieldBytes = 8;

std::array<unsigned char, kGameFieldBytes> game_field(Variant variant);
// The game of a field of kGameFieldBytes bytes; an unknown GameType or a non-zero reserved word is
// an error.
Expected<Variant> read_game_field(const unsigned char* field);

}  // namespace damas
