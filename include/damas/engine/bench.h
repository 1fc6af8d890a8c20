// The bench: a fixed set of positions searched to a fixed depth with one thread and a fixed table
// size. The total node count is the signature of search and evaluation (ARCHITECTURE.md); the
// same function serves `damas bench` and the WebAssembly build, so both must print the same count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/position.h"
#include "damas/search/limits.h"

namespace damas {

inline constexpr int kBenchDepth = 15;
inline constexpr std::string_view kBenchHashMiB = "16";  // part of the signature

// bench/bench-positions.txt as it was at build time.
std::string_view builtin_bench_positions();

// One FEN a line ('#' comments); errors name source:line.
Expected<std::vector<Position>> parse_bench_positions(std::string_view text, const std::string& source);

struct BenchTotals {
  std::uint64_t nodes = 0;
  double seconds = 0;  // search time as the engine measured it
};

using BenchProgress = std::function<void(std::size_t index, const Position&, const SearchResult&)>;

// Searches every position from a new game to `depth` with threads=1 and the bench hash size;
// `options` (name, value) are set first (selective-search switches, eval-file...).
Expected<BenchTotals> run_bench(const std::vector<Position>& positions, int depth,
                                const std::vector<std::pair<std::string, std::string>>& options = {},
                                const BenchProgress& on_position = {});

}  // namespace damas
