#include "damas/engine/bench.h"

#include "damas/core/notation.h"
#include "damas/core/text_lines.h"
#include "damas/engine/engine.h"

namespace damas {

Expected<std::vector<Position>> parse_bench_positions(std::string_view text, const std::string& source) {
  std::vector<Position> positions;
  for (const DataLine& line : data_lines(text)) {
    Expected<Position> p = parse_fen(line.text);
    if (!p) return Error{line_location(source, line.number) + p.error()};
    positions.push_back(*p);
  }
  if (positions.empty()) return Error{source + ": no positions"};
  return positions;
}

Expected<BenchTotals> run_bench(const std::vector<Position>& positions, int depth,
                                const std::vector<std::pair<std::string, std::string>>& options,
                                const BenchProgress& on_position) {
  Engine engine;
  for (const auto& [name, value] : options) {
    if (Status s = engine.set_option(name, value); !s) return Error{s.error()};
  }
  // After the caller's options: these are part of the signature (endgame databases would make it
  // depend on what the machine has installed).
  for (const auto& [name, value] :
       {std::pair{option::kThreads, std::string_view("1")}, std::pair{option::kHash, kBenchHashMiB},
        std::pair{option::kEgdbPath, std::string_view("none")}}) {
    if (Status s = engine.set_option(name, value); !s) return Error{s.error()};
  }
  SearchLimits limits;
  limits.depth = depth;
  BenchTotals totals;
  for (std::size_t i = 0; i < positions.size(); ++i) {
    engine.new_game();
    if (Status s = engine.set_position(positions[i]); !s) return Error{s.error()};
    const SearchResult r = engine.search(limits, GoMode::Analyze);
    totals.nodes += r.nodes;
    totals.seconds += r.seconds;
    if (on_position) on_position(i, positions[i], r);
  }
  return totals;
}

}  // namespace damas
