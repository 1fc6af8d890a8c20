// `damas bench`: a fixed set of positions searched to a fixed depth with one thread and a fixed
// table size. The total node count is the search's signature: it changes only when the search
// (or the evaluation) changes. nps is the speed figure.
#include <boost/program_options.hpp>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/engine/engine.h"
#include "damas/core/notation.h"
#include "damas/core/text_lines.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

constexpr int kDefaultDepth = 15;
constexpr const char* kBenchHash = "16";  // MiB, part of the signature

}  // namespace

int bench_main(const Args& args) {
  po::options_description desc("damas bench [--depth N] [--file F] [--verbose] [--lmr false ...]");
  desc.add_options()("help,h", "show this help")(
      "depth,d", po::value<int>()->default_value(kDefaultDepth), "search depth of every position")(
      "file", po::value<std::string>()->default_value(std::string(DAMAS_SOURCE_DIR) + "/bench/bench-positions.txt"),
      "positions, one FEN a line ('#' comments)")(
      "eval-file", po::value<std::string>()->default_value(""), "evaluation weights (empty = built-in)")(
      "verbose,v", po::bool_switch(), "one line per position");
  // The selective-search switches, for node counts of each feature against its absence.
  for (const std::string_view name : option::kSearchSwitches) {
    const OptionSpec* spec = find_option(name);
    desc.add_options()(spec->name.c_str(), po::value<std::string>()->value_name("bool")->implicit_value("true"),
                       (spec->help + " (true|false); default " + spec->default_value).c_str());
  }
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("bench", args, desc, vm)) return *exit_code;
  const int depth = vm["depth"].as<int>();
  if (depth < 1 || depth > 100) {
    std::cerr << "damas bench: depth must be between 1 and 100\n";
    return 2;
  }
  const std::string path = vm["file"].as<std::string>();
  const Expected<std::string> text = read_text_file(path, "positions file");
  if (!text) {
    std::cerr << "damas bench: " << text.error() << "\n";
    return 2;
  }
  std::vector<Position> positions;
  for (const DataLine& line : data_lines(*text)) {
    Expected<Position> p = parse_fen(line.text);
    if (!p) {
      std::cerr << "damas bench: " << line_location(path, line.number) << p.error() << "\n";
      return 2;
    }
    positions.push_back(*p);
  }

  Engine engine;
  for (const auto& [name, value] : {std::pair<std::string_view, std::string>{option::kThreads, "1"},
                                    {option::kHash, kBenchHash},
                                    {option::kEvalFile, vm["eval-file"].as<std::string>()}}) {
    if (Status s = engine.set_option(name, value); !s) {
      std::cerr << "damas bench: " << s.error() << "\n";
      return 2;
    }
  }
  for (const std::string_view name : option::kSearchSwitches) {
    if (!vm.count(std::string(name))) continue;
    if (Status s = engine.set_option(name, vm[std::string(name)].as<std::string>()); !s) {
      std::cerr << "damas bench: " << s.error() << "\n";
      return 2;
    }
  }
  SearchLimits limits;
  limits.depth = depth;
  std::uint64_t nodes = 0;
  double seconds = 0;
  const std::clock_t cpu_start = std::clock();
  for (std::size_t i = 0; i < positions.size(); ++i) {
    engine.new_game();
    if (Status s = engine.set_position(positions[i]); !s) {
      std::cerr << "damas bench: " << s.error() << "\n";
      return 2;
    }
    const SearchResult r = engine.search(limits, GoMode::Analyze);
    nodes += r.nodes;
    seconds += r.seconds;
    if (vm["verbose"].as<bool>())
      std::printf("%2zu %-52s %-10s %+6d %11llu %8.3f s %6.2f M\n", i + 1, to_fen(positions[i]).c_str(),
                  r.best.is_null() ? "-" : to_hub_move(r.best).c_str(), r.score,
                  static_cast<unsigned long long>(r.nodes), r.seconds,
                  r.seconds > 0 ? static_cast<double>(r.nodes) / r.seconds / 1e6 : 0.0);
  }
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::printf("positions %zu depth %d\nnodes %llu\ntime %.3f s\nnps %.2f M\n", positions.size(), depth,
              static_cast<unsigned long long>(nodes), seconds,
              seconds > 0 ? static_cast<double>(nodes) / seconds / 1e6 : 0.0);
  // On a shared machine the process's CPU time is the steadier speed figure.
  std::printf("cpu %.3f s (cpu nps %.2f M)\n", cpu, cpu > 0 ? static_cast<double>(nodes) / cpu / 1e6 : 0.0);
  return 0;
}

}  // namespace damas::cli
