// `damas bench`: a fixed set of positions searched to a fixed depth with one thread and a fixed
// table size. The total node count is the search's signature: it changes only when the search
// (or the evaluation) changes. nps is the speed figure.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/core/notation.h"
#include "damas/core/platform.h"
#include "damas/core/text_lines.h"
#include "damas/engine/bench.h"
#include "damas/engine/engine.h"

namespace po = boost::program_options;

namespace damas::cli {

int bench_main(const Args& args) {
  po::options_description desc("damas bench [--depth N] [--file F] [--verbose] [--lmr false ...]");
  desc.add_options()("help,h", "show this help")("depth,d", po::value<int>()->default_value(kBenchDepth),
                                                 "search depth of every position")(
      "file", po::value<std::string>()->default_value(""),
      "positions, one FEN a line ('#' comments); default: the built-in bench/bench-positions.txt")(
      "eval-file", po::value<std::string>()->default_value(""), "evaluation weights (empty = built-in)")(
      "eval",
      po::value<std::string>()->default_value(OptionSpec::text(find_option(option::kEval)->default_value)),
      "evaluation: classic or learned")("verbose,v", po::bool_switch(), "one line per position");
  // The knobs of the search, for node counts of each feature against its absence.
  add_tuning_options(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("bench", args, desc, vm)) return *exit_code;
  const int depth = vm["depth"].as<int>();
  if (depth < 1 || depth > 100) {
    std::cerr << "damas bench: depth must be between 1 and 100\n";
    return 2;
  }
  const std::string path = vm["file"].as<std::string>();
  Expected<std::vector<Position>> positions = Error{""};
  if (path.empty()) {
    positions = parse_bench_positions(builtin_bench_positions(), "bench/bench-positions.txt");
  } else {
    const Expected<std::string> text = read_text_file(path, "positions file");
    positions = text ? parse_bench_positions(*text, path) : Error{text.error()};
  }
  if (!positions) {
    std::cerr << "damas bench: " << positions.error() << "\n";
    return 2;
  }

  std::vector<std::pair<std::string, std::string>> options = {
      {std::string(option::kEvalFile), vm["eval-file"].as<std::string>()},
      {std::string(option::kEval), vm["eval"].as<std::string>()}};
  // Collected here, checked when run_bench sets them.
  (void)apply_engine_options(vm, [&options](std::string_view name, std::string_view value) {
    options.emplace_back(name, value);
    return Status{Ok{}};
  });
  const bool verbose = vm["verbose"].as<bool>();
  const BenchProgress print_position = [&](std::size_t i, const Position& p, const SearchResult& r) {
    if (!verbose) return;
    std::printf("%2zu %-52s %-10s %+6d %11llu %8.3f s %6.2f M\n", i + 1, to_fen(p).c_str(),
                r.best.is_null() ? "-" : to_hub_move(r.best).c_str(), r.score,
                static_cast<unsigned long long>(r.nodes), r.seconds,
                r.seconds > 0 ? static_cast<double>(r.nodes) / r.seconds / 1e6 : 0.0);
  };
  const double cpu_start = platform::process_cpu_seconds();
  const Expected<BenchTotals> totals = run_bench(*positions, depth, options, print_position);
  if (!totals) {
    std::cerr << "damas bench: " << totals.error() << "\n";
    return 2;
  }
  const double cpu = platform::process_cpu_seconds() - cpu_start;
  const double seconds = totals->seconds;
  const std::uint64_t nodes = totals->nodes;
  std::printf("positions %zu depth %d\nnodes %llu\ntime %.3f s\nnps %.2f M\n", positions->size(), depth,
              static_cast<unsigned long long>(nodes), seconds,
              seconds > 0 ? static_cast<double>(nodes) / seconds / 1e6 : 0.0);
  // On a shared machine the process's CPU time is the steadier speed figure.
  std::printf("cpu %.3f s (cpu nps %.2f M)\n", cpu, cpu > 0 ? static_cast<double>(nodes) / cpu / 1e6 : 0.0);
  return 0;
}

}  // namespace damas::cli
