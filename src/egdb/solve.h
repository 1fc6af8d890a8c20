// The steps of solving one slice, shared by the single-process build (build.cpp) and the
// cluster build (cluster_build.cpp): the first pass (scan), the retrograde spreading
// (propagate) and the slice file made of the result.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "damas/egdb/egdb.h"
#include "solved.h"

namespace damas::egdb {

inline constexpr int kLevels = kMaxDistance + 2;

enum : std::uint8_t { kValid = 1, kResolved = 2, kLossPossible = 4, kCapture = 8 };

// Numbers of a slice (both sides to move) settled by the first pass, by distance.
using Buckets = std::vector<std::vector<std::uint32_t>>;

// The build's lists hold slice numbers (both sides) in 32 bits.
inline Status check_slice_size(const Material& m) {
  const std::uint64_t numbers = 2 * SliceIndex(m).size();
  if (numbers > (std::uint64_t{1} << 32))
    return Error{slice_name(m) + ": " + std::to_string(numbers) + " numbers, more than the build's 2^32"};
  return Ok{};
}

// Where the first pass over the numbers [first, first + flags.size()) of a slice writes.
struct ScanOut {
  std::uint64_t first = 0;
  std::span<std::uint8_t> flags, count, ext_loss;
  Buckets& buckets;  // kLevels lists of slice numbers
};

// Working state of the slice being solved, both sides to move (White's numbers first): one byte
// each of code, flags, count and ext_loss per number, plus the bucket lists.
struct Work {
  SliceIndex index;
  std::uint64_t size = 0;  // per side
  std::vector<Code> code;
  std::vector<std::uint8_t> flags, count, ext_loss;
  Buckets buckets;

  Work(const Material& m, Variant variant)
      : index(m, variant),
        size(index.size()),
        code(2 * size, kDrawCode),
        flags(2 * size, 0),
        count(2 * size, 0),
        ext_loss(2 * size, 0),
        buckets(kLevels) {}
  Color side(std::uint64_t i) const { return index.side_at(i); }
  std::optional<Position> position(std::uint64_t i) const { return index.position_at(i); }
  std::uint64_t number(const Position& p) const {
    return (p.side_to_move() == Color::White ? 0 : size) + index.index_of(p);
  }
};

// The first pass over the numbers [out.first, out.first + out.flags.size()) with `threads`
// threads: moves counted inside the slice, moves leaving it folded from the solved slices.
// `done` counts the numbers passed (for progress).
void scan(const SliceIndex& index, const SolvedSlices& solved, ScanOut out, int threads,
          std::atomic<std::uint64_t>& done);
// The values spread backwards from the buckets (after the whole slice is scanned into w).
Status propagate(Work& w);
// The file of the solved slice (pending captures and numbers of no position as don't-care).
SliceFile slice_file_of(const Work& w);
// A directory that already holds another variant's databases is refused: building there would
// overwrite them.
Status check_variant_of_dir(const std::string& dir, Variant variant);

}  // namespace damas::egdb
