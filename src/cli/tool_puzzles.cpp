// `damas puzzles`: every game of the PDN files reviewed; the mistakes whose best move wins a man by
// force become puzzles (review/puzzles.h), written as one PDN file.
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/cli/review_options.h"
#include "damas/core/pdn.h"
#include "damas/core/platform.h"
#include "damas/core/text_lines.h"
#include "damas/review/puzzles.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

struct Tally {
  int games = 0;
  int bad_games = 0;
  std::vector<review::Puzzle> puzzles;
};

// The puzzles of one file's games, added to `tally`; false when the file cannot be read.
bool puzzles_of_file(const std::string& path, Engine& engine, const review::ReviewConfig& config,
                     const review::PuzzleConfig& puzzle_config, ProgressLine& bar, Tally& tally) {
  const Expected<std::string> text = read_text_file(path, "PDN file");
  if (!text) {
    bar.message("damas puzzles: " + text.error());
    return false;
  }
  const std::vector<PdnGameOrError> games = read_pdn(*text);
  for (std::size_t k = 0; k < games.size(); ++k) {
    const int number = static_cast<int>(k) + 1;
    if (!games[k]) {
      bar.message("damas puzzles: " + path + ": " + games[k].error() + " (game skipped)");
      ++tally.bad_games;
      continue;
    }
    const review::GameReview r =
        review::review_game(engine, *games[k], config, [&](std::size_t done, std::size_t all) {
          bar.draw(bar_text(done, all) + " " + path + " game " + std::to_string(number) + "/" +
                   std::to_string(games.size()) + ", " + std::to_string(tally.puzzles.size()) + " puzzles");
        });
    const std::vector<review::Puzzle> found = review::find_puzzles(
        engine, r, *games[k], puzzle_config, std::filesystem::path(path).filename().string(), number);
    tally.puzzles.insert(tally.puzzles.end(), found.begin(), found.end());
    ++tally.games;
  }
  return true;
}

}  // namespace

int puzzles_main(const Args& args) {
  po::options_description desc(
      "damas puzzles --pdn F [F...] --out FILE [--depth N | --time S] [--min-gain M] [engine options]\n"
      "  every game reviewed (default depth 10 per position); a move losing at least M men (1) against the\n"
      "  best one, whose best line wins a piece by force with one winning move at each turn, becomes a "
      "puzzle:\n"
      "  one PDN game each (FEN, the solution, the source game in a PuzzleSource tag)");
  desc.add_options()("help,h", "show this help")("pdn", po::value<std::vector<std::string>>()->multitoken(),
                                                 "PDN files of games")("out", po::value<std::string>(),
                                                                       "the puzzle file to write (PDN)")(
      "depth,d", po::value<int>(), "search depth per position")("time,t", po::value<double>(),
                                                                "search time per position in seconds")(
      "nodes,n", po::value<std::uint64_t>(), "node budget per position")(
      "min-gain", po::value<double>()->default_value(1.0), "men the best move must win over the played one");
  add_margin_options(desc);
  po::options_description engine_desc("engine options (same names as the Hub parameters)");
  add_engine_options(engine_desc);
  desc.add(engine_desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("puzzles", args, desc, vm)) return *exit_code;
  if (!vm.count("pdn") || !vm.count("out")) {
    std::cerr << "damas puzzles: --pdn and --out are needed (--help)\n";
    return 2;
  }
  Engine engine;
  const Status applied = apply_engine_options(vm, engine);
  const Expected<review::ReviewConfig> config = read_review_config(vm, engine);
  const double min_gain = vm["min-gain"].as<double>();
  if (!applied || !config || !(min_gain > 0)) {
    std::cerr << "damas puzzles: "
              << (!applied  ? applied.error()
                  : !config ? config.error()
                            : "--min-gain must be positive")
              << "\n";
    return 2;
  }
  review::PuzzleConfig puzzle_config;
  puzzle_config.limits = config->limits;
  puzzle_config.min_gain = static_cast<Score>(min_gain * 100.0);
  std::cerr << engine.egdb_status().text() << "\n";

  ProgressLine bar(stderr, platform::is_terminal(stderr));
  Tally tally;
  int unreadable = 0;
  for (const std::string& path : vm["pdn"].as<std::vector<std::string>>())
    unreadable += puzzles_of_file(path, engine, *config, puzzle_config, bar, tally) ? 0 : 1;
  bar.clear();
  const std::string out_path = vm["out"].as<std::string>();
  std::ofstream out(out_path);
  for (std::size_t i = 0; i < tally.puzzles.size(); ++i)
    out << review::puzzle_pdn(tally.puzzles[i], static_cast<int>(i) + 1) << "\n";
  out.flush();
  if (!out) {
    std::cerr << "damas puzzles: cannot write " << out_path << "\n";
    return 2;
  }
  std::cout << tally.puzzles.size() << " puzzles from " << tally.games << " games in " << out_path;
  if (tally.bad_games) std::cout << " (" << tally.bad_games << " bad games skipped)";
  std::cout << "\n";
  return unreadable > 0 || (tally.games == 0 && tally.bad_games > 0) ? 1 : 0;
}

}  // namespace damas::cli
