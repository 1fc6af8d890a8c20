// `damas safety check|mine|sift`: the safety set (bench/safety.txt) checked at game speed, mined from
// games it plays, and sifted from games already played.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/core/score_text.h"
#include "damas/core/text_lines.h"
#include "damas/match/safety_check.h"
#include "damas/match/safety_mine.h"
#include "damas/match/safety_sift.h"
#include "damas/review/review.h"

namespace po = boost::program_options;

namespace damas::cli {

namespace {

int fail(std::string_view action, const std::string& message, int code = 2) {
  std::cerr << "damas safety " << action << ": " << message << "\n";
  return code;
}

std::string refuted_text(const SafetyPosition& p) {
  std::string s;
  for (const MoveScore& r : p.refuted) s.append(s.empty() ? "" : ",").append(to_hub_move(r.move));
  return s;
}

int check_command(const Args& args) {
  po::options_description desc(
      "damas safety check [--file F] [--nodes N] [--options \"name=value ...\"] [--replay] [--verbose]\n"
      "  searches every position of the safety set as a move of a game, within the node budget, one thread,\n"
      "  on a cleared engine or (--replay) after the engine's earlier moves of its game (the same figure on\n"
      "  every run); a position is handled when the move chosen is none of its refuted moves");
  desc.add_options()("help,h", "show this help")(
      "file", po::value<std::string>()->default_value(data_file("safety.txt")), "the safety set")(
      "nodes", po::value<std::uint64_t>()->default_value(kGameSpeedNodes),
      "node budget per position (the default: one move at 5+0.05)")(
      "options", po::value<std::string>()->default_value(""), "engine options (name=value ...)")(
      "replay", po::bool_switch(),
      "search each position in its game: the engine's earlier moves of the game first, as it played "
      "them, its table kept (the conditions of the game; the settings that mined the set play their "
      "game move again)")("verbose,v", po::bool_switch(), "one line per position");
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("safety check", args, desc, vm))
    return *exit_code;
  const Expected<SafetySet> set = load_safety_set(vm["file"].as<std::string>());
  if (!set) return fail("check", set.error());
  const Expected<OptionList> options = parse_option_list(vm["options"].as<std::string>());
  if (!options) return fail("check", "--options: " + options.error());
  const std::uint64_t nodes = vm["nodes"].as<std::uint64_t>();
  if (nodes == 0) return fail("check", "--nodes must be positive");
  Engine engine;
  if (Status s = configure_in_process_engine(engine, *options, DrawRules::Seed, Variant::Brazilian); !s)
    return fail("check", s.error());
  if (Status s = engine.set_option(option::kThreads, "1"); !s) return fail("check", s.error());
  const bool replay = vm["replay"].as<bool>();
  const SafetyCheck check =
      check_safety_set(engine, *set, nodes, replay ? SafetyContext::Game : SafetyContext::Cleared);
  for (std::size_t i = 0; vm["verbose"].as<bool>() && i < check.attempts.size(); ++i) {
    const SafetyPosition& p = set->positions[i];
    const SafetyAttempt& a = check.attempts[i];
    std::printf("#%-3zu %-8s plays %-10s refuted %-18s deep best %s %s  %s\n", i + 1,
                a.handled ? "handled" : "REFUTED", to_hub_move(a.result.best).c_str(),
                refuted_text(p).c_str(), to_hub_move(p.best.move).c_str(), score_text(p.best.score).c_str(),
                to_fen(p.position).c_str());
  }
  std::printf("handled %d of %zu at %llu nodes per position%s (%llu nodes in all)\n", check.handled,
              set->positions.size(), static_cast<unsigned long long>(nodes), replay ? ", in its game" : "",
              static_cast<unsigned long long>(check.nodes));
  return 0;
}

void add_mine_options(po::options_description& desc) {
  auto add = desc.add_options();
  add("help,h", "show this help");
  add("out", po::value<std::string>(), "the set to write (an existing one is read and extended)");
  add("games", po::value<int>()->default_value(40), "games to play (even: colour-reversed pairs)");
  add("first-game", po::value<int>()->default_value(1), "number of the first game (odd), to continue a run");
  add("nodes", po::value<std::uint64_t>()->default_value(kGameSpeedNodes),
      "node budget per move in the games (the default: one move at 5+0.05)");
  add("deep-factor", po::value<int>()->default_value(20), "the verification searches deep-factor x nodes");
  add("engine", po::value<std::string>()->default_value(""),
      "options of the engine under test (name=value ...)");
  add("opponent", po::value<std::vector<std::string>>(),
      "options of an opponent, once per opponent (default: \"probcut=false lmr=false\", \"eval=classic\", "
      "\"level=hard seed=1\", \"level=medium seed=1\")");
  add("openings", po::value<std::vector<std::string>>(),
      "opening file, once per file (default: fmjd64-150-ballots.txt and openings.txt of bench/)");
  add("seed", po::value<std::uint64_t>()->default_value(1), "order of the openings");
  add("concurrency", po::value<int>()->default_value(1), "pairs of games played and verified at once");
  add("max-plies", po::value<int>()->default_value(160),
      "stop a game, drawn, after this many plies (0 = never): long king endings cost time and hold few "
      "shots");
  add("drop", po::value<double>()->default_value(0.8, "0.8"),
      "a candidate: the engine's score falls by this many men (or by half as much while its material falls "
      "by a "
      "man) ...");
  add("lookahead", po::value<int>()->default_value(3), "... within this many of its next moves");
  add("verbose,v", po::bool_switch(), "one line per candidate: why it was one, what the verification found");
}

// The command line that made the set, for its header.
std::string command_text(std::string command, const Args& args) {
  std::string s = std::move(command);
  for (const std::string& a : args)
    s += " " + (a.find_first_of(" \t") == std::string::npos ? a : "\"" + a + "\"");
  return s;
}

Expected<MineConfig> mine_config(const po::variables_map& vm) {
  MineConfig c;
  const Expected<OptionList> engine = parse_option_list(vm["engine"].as<std::string>());
  if (!engine) return Error{"--engine: " + engine.error()};
  c.engine = *engine;
  const std::vector<std::string> opponents =
      vm.count("opponent") ? vm["opponent"].as<std::vector<std::string>>() : default_safety_opponents();
  for (const std::string& text : opponents) {
    const Expected<OptionList> options = parse_option_list(text);
    if (!options) return Error{"--opponent: " + options.error()};
    c.opponents.push_back({text, *options});
  }
  const std::vector<std::string> files =
      vm.count("openings")
          ? vm["openings"].as<std::vector<std::string>>()
          : std::vector<std::string>{data_file("fmjd64-150-ballots.txt"), data_file("openings.txt")};
  for (const std::string& file : files) {
    Expected<std::vector<Opening>> openings = load_openings(file);
    if (!openings) return Error{openings.error()};
    c.openings.insert(c.openings.end(), openings->begin(), openings->end());
  }
  c.nodes = vm["nodes"].as<std::uint64_t>();
  c.deep_factor = vm["deep-factor"].as<int>();
  c.first_game = vm["first-game"].as<int>();
  c.games = vm["games"].as<int>();
  c.seed = vm["seed"].as<std::uint64_t>();
  c.concurrency = vm["concurrency"].as<int>();
  c.max_plies = vm["max-plies"].as<int>();
  const double drop = vm["drop"].as<double>();
  if (!(drop > 0 && drop <= 20)) return Error{"--drop must be between 0 and 20 men"};
  c.rule.drop = static_cast<Score>(drop * kMan);
  c.rule.lookahead = vm["lookahead"].as<int>();
  if (c.rule.lookahead < 1) return Error{"--lookahead must be at least 1"};
  return c;
}

// The set the run extends: the file when it exists (refused when malformed), else a new one.
Expected<SafetySet> starting_set(const std::string& path, const std::string& command) {
  SafetySet set;
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    Expected<SafetySet> loaded = load_safety_set(path);
    if (!loaded) return Error{loaded.error()};
    set = std::move(loaded).value();
  } else {
    set.header = {
        "# The safety set of damas: positions where the move damas played at game speed (a node budget per",
        "# move) loses at least a man against the best move of its own deep search, confirmed by a search",
        "# without pruning (include/damas/match/safety_verify.h). One position per line:",
        "#   FEN | refuted move/score ... (the game-speed move first) | best move/score | line (the refuted",
        "#   move, then the deep line after it) | game (its position after the opening, then the moves to",
        "#   this one) | where it was found",
        "# Scores in 1/100 man, the side to move's view. Checked by `damas safety check [--replay]`; see",
        "# bench/safety.md. Made by (one thread each, so the same set every time):"};
  }
  const std::string line = "#   " + command;
  if (std::find(set.header.begin(), set.header.end(), line) == set.header.end()) set.header.push_back(line);
  return set;
}

void report_pair(const MinePair& p, const SafetySet& set, bool verbose) {
  for (const std::string& note : p.notes)
    if (verbose) std::fprintf(stderr, "  %s\n", note.c_str());
  std::fprintf(stderr,
               "games %d-%d against %s, \"%s\": %.1f/2, %d plies, %d candidates (%d known), %d refuted, "
               "%d searches, %.0f s; set %zu\n",
               p.first_game, p.first_game + 1, p.opponent.c_str(), p.opening.c_str(), p.a_points, p.plies,
               p.candidates, p.known, p.refuted, p.searches, p.seconds, set.positions.size());
}

int mine_command(const Args& args) {
  po::options_description desc(
      "damas safety mine --out F [--games N] [--first-game G] [--nodes N] [--deep-factor K] [--engine "
      "\"...\"]\n"
      "                  [--opponent \"...\"]... [--openings F]... [--seed S] [--concurrency K]\n"
      "  plays pairs of games between the engine and other settings of damas at a node budget per move and\n"
      "  verifies the engine's suspicious moves deeply; the refuted positions extend the set F (written "
      "after\n"
      "  every pair; a position already in it is not searched again, so running a command again changes\n"
      "  nothing). With one thread per game the set depends on the settings only");
  add_mine_options(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("safety mine", args, desc, vm))
    return *exit_code;
  if (!vm.count("out")) return fail("mine", "--out is needed (--help)");
  const std::string out = vm["out"].as<std::string>();
  if (Status s = check_output_option(vm, "out", "safety set"); !s) return fail("mine", s.error());
  Expected<MineConfig> config = mine_config(vm);
  if (!config) return fail("mine", config.error());
  Expected<SafetySet> set = starting_set(out, command_text("damas safety mine", args));
  if (!set) return fail("mine", set.error());
  const std::size_t before = set->positions.size();
  Status written = write_safety_set(out, *set);
  const Expected<std::vector<MinePair>> pairs =
      mine_safety(*config, *set, [&](const MinePair& p, const SafetySet& s) {
        report_pair(p, s, vm["verbose"].as<bool>());
        if (written) written = write_safety_set(out, s);
      });
  if (!pairs) return fail("mine", pairs.error(), 1);
  if (written) written = write_safety_set(out, *set);
  if (!written) return fail("mine", written.error(), 1);
  int games = 0, candidates = 0;
  double seconds = 0;
  for (const MinePair& p : *pairs) games += 2, candidates += p.candidates, seconds += p.seconds;
  std::printf("%d games, %d candidates, %zu new positions: %zu in %s (%.1f s per game)\n", games, candidates,
              set->positions.size() - before, set->positions.size(), out.c_str(),
              games ? seconds / games : 0.0);
  return 0;
}

// The games of PDN files for `safety sift`, numbered from 1 across the files in order.
Expected<std::vector<SiftGame>> sift_sources(const std::vector<std::string>& files, int first, int count) {
  std::vector<SiftGame> out;
  int number = 0;
  for (const std::string& file : files) {
    const Expected<std::string> text = read_text_file(file, "PDN file");
    if (!text) return Error{text.error()};
    const std::vector<PdnGameOrError> games = read_pdn(*text);
    for (std::size_t i = 0; i < games.size(); ++i) {
      ++number;
      if (number < first || (count > 0 && number >= first + count)) continue;
      if (!games[i]) return Error{file + ": " + games[i].error()};
      out.push_back({file + " game " + std::to_string(i + 1), *games[i]});
    }
  }
  return out;
}

void add_sift_options(po::options_description& desc) {
  auto add = desc.add_options();
  add("help,h", "show this help");
  add("out", po::value<std::string>(), "the set to write (an existing one is read and extended)");
  add("pdn", po::value<std::vector<std::string>>(), "a PDN file of played games (also without the name)");
  add("first-game", po::value<int>()->default_value(1),
      "number of the first game to sift (across the files)");
  add("games", po::value<int>()->default_value(0), "games to sift from there (0: all)");
  add("nodes", po::value<std::uint64_t>()->default_value(kGameSpeedNodes),
      "the engine's node budget per position (the default: one move at 5+0.05)");
  add("deep-factor", po::value<int>()->default_value(20), "the verification searches deep-factor x nodes");
  add("engine", po::value<std::string>()->default_value(""),
      "options of the engine under test (name=value ...)");
  add("concurrency", po::value<int>()->default_value(1), "games sifted at once");
  add("lookahead", po::value<int>()->default_value(6),
      "a candidate: the loser is a man down within this many plies");
  add("verbose,v", po::bool_switch(),
      "one line per candidate: what the engine played, what the verification found");
}

Expected<SiftConfig> sift_config(const po::variables_map& vm) {
  SiftConfig config;
  const Expected<OptionList> engine = parse_option_list(vm["engine"].as<std::string>());
  if (!engine) return Error{"--engine: " + engine.error()};
  config.engine = *engine;
  config.nodes = vm["nodes"].as<std::uint64_t>();
  config.deep_factor = vm["deep-factor"].as<int>();
  config.concurrency = vm["concurrency"].as<int>();
  config.rule.lookahead = vm["lookahead"].as<int>();
  return config;
}

void report_game(const SiftReport& r, const SafetySet& set, bool verbose) {
  for (const std::string& note : r.notes)
    if (verbose) std::fprintf(stderr, "  %s\n", note.c_str());
  if (r.candidates)
    std::fprintf(stderr,
                 "%s: %d candidates (%d decided, %d known), %d refuted, %d searches, %.0f s; set %zu\n",
                 r.game.c_str(), r.candidates, r.decided, r.known, r.refuted, r.searches, r.seconds,
                 set.positions.size());
}

int sift_command(const Args& args) {
  po::options_description desc(
      "damas safety sift --out F [--first-game G] [--games N] [--nodes N] [--deep-factor K] [--engine "
      "\"...\"]\n"
      "                  [--concurrency K] [--lookahead P] FILE.pdn...\n"
      "  the decided games of the PDN files: the loser's positions shortly before it lost a man are "
      "searched\n"
      "  by the engine at the node budget on a cleared engine, and its move verified deeply; the refuted\n"
      "  positions extend the set F (written after every game; a position already in it is not searched\n"
      "  again). With one thread per search the set depends on the games and the settings only");
  add_sift_options(desc);
  po::positional_options_description positional;
  positional.add("pdn", -1);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("safety sift", args, desc, vm, &positional))
    return *exit_code;
  if (!vm.count("out")) return fail("sift", "--out is needed (--help)");
  if (!vm.count("pdn")) return fail("sift", "no PDN file given (--help)");
  const std::string out = vm["out"].as<std::string>();
  if (Status s = check_output_option(vm, "out", "safety set"); !s) return fail("sift", s.error());
  const Expected<SiftConfig> config = sift_config(vm);
  if (!config) return fail("sift", config.error());
  const int first = vm["first-game"].as<int>();
  if (first < 1) return fail("sift", "--first-game must be at least 1");
  if (vm["games"].as<int>() < 0) return fail("sift", "--games cannot be negative");
  const Expected<std::vector<SiftGame>> games =
      sift_sources(vm["pdn"].as<std::vector<std::string>>(), first, vm["games"].as<int>());
  if (!games) return fail("sift", games.error());
  Expected<SafetySet> set = starting_set(out, command_text("damas safety sift", args));
  if (!set) return fail("sift", set.error());
  const std::size_t before = set->positions.size();
  Status written = write_safety_set(out, *set);
  const bool verbose = vm["verbose"].as<bool>();
  const Expected<std::vector<SiftReport>> reports =
      sift_games(*config, *games, *set, [&](const SiftReport& r, const SafetySet& s) {
        report_game(r, s, verbose);
        if (written) written = write_safety_set(out, s);
      });
  if (!reports) return fail("sift", reports.error(), 1);
  if (written) written = write_safety_set(out, *set);
  if (!written) return fail("sift", written.error(), 1);
  int candidates = 0;
  for (const SiftReport& r : *reports) candidates += r.candidates;
  std::printf("%zu games, %d candidates, %zu new positions: %zu in %s\n", reports->size(), candidates,
              set->positions.size() - before, set->positions.size(), out.c_str());
  return 0;
}

}  // namespace

int safety_main(const Args& args) {
  return run_action("safety", "usage: damas safety check|mine|sift [options]",
                    {{"check", check_command}, {"mine", mine_command}, {"sift", sift_command}}, args);
}

}  // namespace damas::cli
