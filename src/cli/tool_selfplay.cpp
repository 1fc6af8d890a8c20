// `damas selfplay`: a match between two option sets of this engine, with the Elo difference.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>

#include "damas/cli/cli.h"
#include "damas/match/openings.h"
#include "damas/match/selfplay.h"

namespace po = boost::program_options;

namespace damas::cli {

int selfplay_main(const Args& args) {
  po::options_description desc(
      "damas selfplay --a \"name=value ...\" --b \"name=value ...\" (--depth N | --nodes N | --movetime S)");
  desc.add_options()("help,h", "show this help")(
      "a", po::value<std::string>()->default_value(""),
      "options of engine A (name=value, space or comma separated)")(
      "b", po::value<std::string>()->default_value(""), "options of engine B")(
      "openings", po::value<std::string>(),
      "openings file (one line of moves each; each is played with both colours); default: the game's "
      "(bench/openings.txt for Brazilian, fmjd64-150-ballots.txt for Russian, openings-<game>.txt)")(
      "games", po::value<int>()->default_value(0), "games to play (0 = two per opening)")(
      "concurrency", po::value<int>()->default_value(1), "games played at once")("depth", po::value<int>(),
                                                                                 "fixed depth per move")(
      "nodes", po::value<std::uint64_t>(), "node budget per move")("movetime", po::value<double>(),
                                                                   "seconds per move")(
      "max-plies", po::value<int>()->default_value(0), "adjudicate a draw after this many plies (0 = never)")(
      "pdn", po::value<std::string>(), "write every game to this PDN file")("quiet,q", po::bool_switch(),
                                                                            "print only the final result");
  // Registry options given here apply to both engines (before --a and --b); draw-rules and
  // variant are also the referee's.
  po::options_description engine_desc("Engine options (both engines)");
  add_engine_options(engine_desc);
  add_tuning_options(engine_desc);
  desc.add(engine_desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("selfplay", args, desc, vm)) return *exit_code;
  auto fail = [](const std::string& message) {
    std::cerr << "damas selfplay: " << message << "\n";
    return 2;
  };
  if (Status s = check_output_option(vm, "pdn", "PDN file"); !s) return fail(s.error());

  MatchConfig config;
  const Expected<OptionList> a = parse_option_list(vm["a"].as<std::string>());
  if (!a) return fail("--a: " + a.error());
  const Expected<OptionList> b = parse_option_list(vm["b"].as<std::string>());
  if (!b) return fail("--b: " + b.error());
  Options shared;
  OptionList both;
  if (Status s = apply_engine_options(
          vm,
          [&](std::string_view name, std::string_view value) {
            both.emplace_back(std::string(name), std::string(value));
            return shared.set(name, value);
          },
          VariantUse::Any);
      !s)
    return fail(s.error());
  config.options_a = both;
  config.options_a.insert(config.options_a.end(), a->begin(), a->end());
  config.options_b = both;
  config.options_b.insert(config.options_b.end(), b->begin(), b->end());
  config.variant = shared.variant();
  config.draw_rules =
      parse_draw_rules(shared.get(option::kDrawRules), config.variant).value_or(DrawRules::Seed);
  const std::string openings_path = vm.count("openings") ? vm["openings"].as<std::string>()
                                                         : data_file(default_openings_file(config.variant));
  Expected<std::vector<Opening>> openings = load_openings(openings_path, OpeningFormat::Auto, config.variant);
  if (!openings) return fail(openings.error());
  config.openings = std::move(openings).value();
  config.games = vm["games"].as<int>();
  config.concurrency = vm["concurrency"].as<int>();
  config.max_plies = vm["max-plies"].as<int>();
  if (config.games < 0) return fail("--games cannot be negative");
  if (config.concurrency < 1 || config.concurrency > 64)
    return fail("--concurrency must be between 1 and 64");
  if (config.max_plies < 0) return fail("--max-plies cannot be negative");
  if (vm.count("depth")) {
    const int depth = vm["depth"].as<int>();
    if (depth < 1 || depth > 100) return fail("--depth must be between 1 and 100");
    config.limits.depth = depth;
  }
  if (vm.count("nodes")) {
    if (vm["nodes"].as<std::uint64_t>() == 0) return fail("--nodes must be positive");
    config.limits.nodes = vm["nodes"].as<std::uint64_t>();
  }
  if (vm.count("movetime")) {
    const double t = vm["movetime"].as<double>();
    if (!(t > 0 && t <= 3600)) return fail("--movetime must be between 0 and 3600 seconds");
    config.limits.move_time = t;
  }
  if (!config.limits.depth && !config.limits.nodes && !config.limits.move_time)
    return fail("give a limit per move: --depth, --nodes or --movetime");

  const bool quiet = vm["quiet"].as<bool>();
  const int total = config.games > 0 ? config.games : 2 * static_cast<int>(config.openings.size());
  Expected<MatchResult> result = run_match(config, [&](const GameRecord& g, const MatchResult& so_far) {
    if (quiet) return;
    const int played = so_far.wins + so_far.draws + so_far.losses;
    std::printf("game %d/%d  opening %d  A %s  %s (%s, %d plies)   A: +%d =%d -%d  Elo %s\n", played, total,
                g.opening + 1, g.a_is_white ? "white" : "black", to_string(g.result).c_str(),
                to_string(g.reason).c_str(), g.plies, so_far.wins, so_far.draws, so_far.losses,
                format_elo(so_far.elo()).c_str());
    std::fflush(stdout);
  });
  if (!result) return fail(result.error());

  std::map<std::string, int> reasons;
  for (const GameRecord& g : result->games) ++reasons[to_string(g.reason)];
  const EloEstimate elo = result->elo();
  std::printf("A: %s\nB: %s\n", vm["a"].as<std::string>().c_str(), vm["b"].as<std::string>().c_str());
  std::printf("games %zu  A wins %d  draws %d  losses %d  score %.1f%%\n", result->games.size(), result->wins,
              result->draws, result->losses, 100.0 * elo.score);
  std::printf("Elo A-B %s (95%%)\n", format_elo(elo).c_str());
  const Pentanomial pairs = result->pentanomial();
  if (pairs.pairs() > 0)
    std::printf("pentanomial [0, 0.5, 1, 1.5, 2] %d %d %d %d %d: Elo A-B %s (95%%, game pairs)\n",
                pairs.count[0], pairs.count[1], pairs.count[2], pairs.count[3], pairs.count[4],
                format_elo(pairs.elo()).c_str());
  for (const auto& [reason, count] : reasons) std::printf("  %s: %d\n", reason.c_str(), count);

  if (vm.count("pdn")) {
    std::ofstream out(vm["pdn"].as<std::string>());
    if (!out) return fail("cannot write " + vm["pdn"].as<std::string>());
    for (const GameRecord& g : result->games) out << g.pdn << "\n";
  }
  return 0;
}

}  // namespace damas::cli
