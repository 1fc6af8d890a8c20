// `damas perft`: leaf counts of the legal-move tree, for checking move generation and speed.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/core/notation.h"
#include "damas/core/perft.h"
#include "damas/engine/options.h"

namespace po = boost::program_options;

namespace damas::cli {

int perft_main(const Args& args) {
  po::options_description desc("damas perft [--fen F] [--variant V] --depth N [--divide]");
  desc.add_options()("help,h", "show this help")(
      "fen", po::value<std::string>()->default_value(""),
      "position in PDN FEN, in the game's own squares (default: the game's start)");
  add_variant_option(desc);
  desc.add_options()("depth,d", po::value<int>()->default_value(9), "depth in plies (0..20)")(
      "divide", po::bool_switch(), "print one line per root move: <move> <count>");
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("perft", args, desc, vm)) return *exit_code;
  const Expected<Variant> variant = variant_option(vm);
  if (!variant) {
    std::cerr << "damas perft: " << variant.error() << "\n";
    return 2;
  }
  const std::string fen_text = vm["fen"].as<std::string>();
  Expected<Position> pos =
      fen_text.empty() ? Expected<Position>(Position::start(*variant)) : parse_fen(fen_text, *variant);
  if (!pos) {
    std::cerr << "damas perft: " << pos.error() << "\n";
    return 2;
  }
  const int depth = vm["depth"].as<int>();
  if (depth < 0 || depth > 20) {
    std::cerr << "damas perft: depth must be between 0 and 20\n";
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (vm["divide"].as<bool>()) {
    for (const auto& [move, count] : perft_divide(*pos, depth)) {
      std::cout << to_hub_move(*pos, move) << ' ' << count << '\n';
      total += count;
    }
  } else {
    total = perft(*pos, depth);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("perft depth %d: %llu leaves in %.3f s (%.1f M leaves/s)\n", depth,
              static_cast<unsigned long long>(total), seconds,
              seconds > 0 ? static_cast<double>(total) / seconds / 1e6 : 0.0);
  return 0;
}

}  // namespace damas::cli
