// Little-endian integers and the FNV-1a checksum of the binary data files (training data,
// learned weights, endgame database slices): one copy, so the formats agree byte for byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace damas {

inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;

// FNV-1a 64 of `size` bytes, continued from `hash` (start with kFnvOffset).
std::uint64_t fnv1a64(const unsigned char* data, std::size_t size, std::uint64_t hash = kFnvOffset);

// The low `bytes` bytes of v, least significant first.
void put_le(unsigned char* out, std::uint64_t v, int bytes);
void append_le(std::vector<unsigned char>& out, std::uint64_t v, int bytes);
std::uint64_t get_le(const unsigned char* in, int bytes);

}  // namespace damas
