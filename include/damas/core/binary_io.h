// Little-endian integers and the FNV-1a checksum of the binary data files (training data,
// learned weights, endgame database slices): one copy, so the formats agree byte for byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace damas {

inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;

// FNV-1a 64 of `size` bytes, continued from `hash` (start with kFnvOffset).
std::uint64_t fnv1a64(const unsigned char* data, std::size_t size, std::uint64_t hash = kFnvOffset);

// The low `bytes` bytes of v, least significant first.
void put_le(unsigned char* out, std::uint64_t v, int bytes);
void append_le(std::vector<unsigned char>& out, std::uint64_t v, int bytes);
std::uint64_t get_le(const unsigned char* in, int bytes);

// Every integer of `values` (an array or vector), little-endian in its own width.
template <typename Range>
void append_all_le(std::vector<unsigned char>& out, const Range& values) {
  for (auto v : values) append_le(out, static_cast<std::make_unsigned_t<decltype(v)>>(v), sizeof(v));
}

// Reads little-endian integers, each in its own width, from a buffer already checked for size.
class LittleEndianReader {
 public:
  explicit LittleEndianReader(const unsigned char* p) : p_(p) {}
  template <typename T>
  requires std::is_integral_v<T>
  void read(T& v) {
    v = static_cast<T>(static_cast<std::make_unsigned_t<T>>(get_le(p_, sizeof(T))));
    p_ += sizeof(T);
  }
  template <typename Range>
  requires(!std::is_integral_v<Range>) void read(Range& out) {
    for (auto& v : out) read(v);
  }

 private:
  const unsigned char* p_;
};

}  // namespace damas
