// `damas tactics`: how many positions of the tactical suite the engine solves within a budget.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/cli/tactics.h"
#include "damas/core/notation.h"
#include "damas/match/selfplay.h"
#include "damas/review/review.h"

namespace po = boost::program_options;

namespace damas::cli {

namespace {

std::string move_list_text(const std::vector<Move>& moves) {
  std::string s;
  for (const Move& m : moves) {
    if (!s.empty()) s += ',';
    s += to_hub_move(m);
  }
  return s;
}

// Scores every root move with a deep search: the solution must be the only move that wins material.
int prove(Engine& engine, const std::vector<TacticsPosition>& suite, int depth) {
  int proved = 0;
  for (std::size_t i = 0; i < suite.size(); ++i) {
    const TacticsPosition& t = suite[i];
    const std::vector<RootScore> scores = score_root_moves(engine, t.position, depth);
    const bool best_is_solution = !scores.empty() && std::find(t.solutions.begin(), t.solutions.end(),
                                                               scores.front().move) != t.solutions.end();
    const Score second = scores.size() > 1 ? scores[1].score : -kScoreInfinite;
    const bool unique = scores.size() < 2 || scores.front().score - second >= kMan / 2;
    const bool wins = !scores.empty() && scores.front().score >= kMan / 2;
    const bool ok = best_is_solution && unique && wins;
    proved += ok;
    std::printf("#%zu (line %d) %s: %s\n", i + 1, t.line, ok ? "PROVED" : "NOT PROVED", t.fen.c_str());
    for (const RootScore& r : scores) std::printf("    %-14s %+6d\n", to_hub_move(r.move).c_str(), r.score);
  }
  std::printf("proved %d of %zu at depth %d\n", proved, suite.size(), depth);
  return proved == static_cast<int>(suite.size()) ? 0 : 1;
}

}  // namespace

int tactics_main(const Args& args) {
  po::options_description desc(
      "damas tactics [--nodes N | --depth N] [--file F] [--options \"name=value ...\"]");
  desc.add_options()("help,h", "show this help")(
      "file", po::value<std::string>()->default_value(data_file("tactics.txt")),
      "suite: one \"FEN | solution | comment\" per line")(
      "nodes", po::value<std::uint64_t>()->default_value(100000), "node budget per position")(
      "depth", po::value<int>(), "fixed depth instead of the node budget")(
      "options", po::value<std::string>()->default_value(""), "engine options (name=value ...)")(
      "prove-depth", po::value<int>(),
      "instead of solving: score every root move at this depth and check that the solution alone wins")(
      "verbose,v", po::bool_switch(), "print every position, solved or not");
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("tactics", args, desc, vm)) return *exit_code;
  auto fail = [](const std::string& message) {
    std::cerr << "damas tactics: " << message << "\n";
    return 2;
  };
  const Expected<std::vector<TacticsPosition>> suite = load_tactics(vm["file"].as<std::string>());
  if (!suite) return fail(suite.error());
  const Expected<OptionList> options = parse_option_list(vm["options"].as<std::string>());
  if (!options) return fail("--options: " + options.error());
  Engine engine;
  for (const auto& [name, value] : *options)
    if (Status s = engine.set_option(name, value); !s) return fail(s.error());

  if (vm.count("prove-depth")) {
    const int depth = vm["prove-depth"].as<int>();
    if (depth < 2 || depth > 60) return fail("--prove-depth must be between 2 and 60");
    return prove(engine, *suite, depth);
  }

  SearchLimits limits;
  if (vm.count("depth")) {
    const int depth = vm["depth"].as<int>();
    if (depth < 1 || depth > 60) return fail("--depth must be between 1 and 60");
    limits.depth = depth;
  } else {
    if (vm["nodes"].as<std::uint64_t>() == 0) return fail("--nodes must be positive");
    limits.nodes = vm["nodes"].as<std::uint64_t>();
  }
  const bool verbose = vm["verbose"].as<bool>();
  int solved = 0;
  std::uint64_t nodes = 0;
  for (std::size_t i = 0; i < suite->size(); ++i) {
    const TacticsPosition& t = (*suite)[i];
    const TacticsAttempt a = attempt(engine, t, limits);
    solved += a.solved;
    nodes += a.result.nodes;
    if (verbose || !a.solved)
      std::printf("#%-3zu %-8s played %-12s expected %-12s score %+6d depth %2d  %s\n", i + 1,
                  a.solved ? "solved" : "MISSED", to_hub_move(a.result.best).c_str(),
                  move_list_text(t.solutions).c_str(), a.result.score, a.result.depth,
                  review::line_text(t.position, a.result.pv).c_str());
  }
  const std::string budget =
      limits.depth ? "depth " + std::to_string(*limits.depth) : std::to_string(*limits.nodes) + " nodes";
  std::printf("solved %d of %zu at %s per position (%llu nodes in all)\n", solved, suite->size(),
              budget.c_str(), static_cast<unsigned long long>(nodes));
  return 0;
}

}  // namespace damas::cli
