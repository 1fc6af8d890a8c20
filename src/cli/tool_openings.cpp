// `damas openings`: balanced openings of a game (match/balanced_openings.h): every line of --plies
// moves from the start, one per position, searched to --depth and kept within --margin of equal,
// written as move lines for `damas match -openings` and `selfplay --openings` (bench/openings-<game>.txt).
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/core/platform.h"
#include "damas/engine/engine.h"
#include "damas/match/balanced_openings.h"

namespace po = boost::program_options;

namespace damas::cli {

namespace {

// The command as it was given, for the file's header: it remakes the file.
std::string command_text(const Args& args) {
  std::string text = "damas openings";
  for (const std::string& a : args) text += " " + a;
  return text;
}

}  // namespace

int openings_main(const Args& args) {
  po::options_description desc(
      "damas openings --out FILE [--variant V] [--plies P] [--depth D] [--margin M] [--count N] "
      "[--order-seed S] "
      "[engine options]\n"
      "  balanced openings of a game: every line of P moves from its start (one per position reached),\n"
      "  searched to depth D and kept when the score is within M men of equal; N of them, in an order\n"
      "  shuffled by S, written as lines of moves for damas match -openings and selfplay --openings");
  auto add = desc.add_options();
  add("help,h", "show this help");
  add("out", po::value<std::string>(), "the openings file to write");
  add("plies", po::value<int>()->default_value(4), "moves of each line (1 to 8)");
  add("depth", po::value<int>()->default_value(12), "depth of the search that scores each line");
  add("margin", po::value<double>()->default_value(0.1, "0.1"), "largest score kept, either way, in men");
  add("count", po::value<int>()->default_value(100), "lines in the file (0: every balanced one)");
  add("order-seed", po::value<std::uint64_t>()->default_value(1), "order in which the lines are tried");
  po::options_description engine_desc("engine options (same names as the Hub parameters)");
  add_engine_options(engine_desc);
  desc.add(engine_desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("openings", args, desc, vm)) return *exit_code;
  auto fail = [](const std::string& message) {
    std::cerr << "damas openings: " << message << "\n";
    return 2;
  };
  if (!vm.count("out")) return fail("give an --out file (--help)");
  const int plies = vm["plies"].as<int>();
  const int depth = vm["depth"].as<int>();
  const double margin_men = vm["margin"].as<double>();
  const int count = vm["count"].as<int>();
  const std::uint64_t seed = vm["order-seed"].as<std::uint64_t>();
  if (plies < 1 || plies > 8) return fail("--plies must be between 1 and 8");
  if (depth < 1 || depth > 100) return fail("--depth must be between 1 and 100");
  if (!(margin_men >= 0 && margin_men <= 100)) return fail("--margin must be between 0 and 100 men");
  if (count < 0) return fail("--count cannot be negative");
  if (const Status s = check_output_option(vm, "out", "openings file"); !s) return fail(s.error());
  const Expected<Variant> variant = variant_option(vm);
  if (!variant) return fail(variant.error());
  Engine engine;
  if (const Status s = apply_engine_options(vm, engine, VariantUse::Any); !s) return fail(s.error());

  const Position start = Position::start(*variant);
  const std::vector<OpeningLine> lines = opening_lines(start, plies, seed);
  std::cerr << lines.size() << " positions after " << plies << " plies of " << to_string(*variant) << "\n";
  SearchLimits limits;
  limits.depth = depth;
  const PositionScorer score = [&](const Position& p) {
    engine.new_game();  // the same answer whatever was searched before
    if (const Status s = engine.set_position(p); !s) return Score{32000};  // never balanced
    return engine.search(limits, GoMode::Analyze).score;
  };
  const std::size_t wanted = static_cast<std::size_t>(count);
  ProgressLine bar(stderr, platform::is_terminal(stderr));
  std::size_t tried = 0;
  const std::vector<BalancedOpening> kept =
      select_balanced(lines, score, static_cast<Score>(margin_men * 100.0 + 0.5), wanted, &tried,
                      [&](std::size_t k, std::size_t n) {
                        bar.draw(bar_text(n, lines.size()) + " kept " + std::to_string(k) +
                                 (wanted > 0 ? " of " + std::to_string(wanted) : std::string()));
                      });
  bar.clear();

  const std::string out_path = vm["out"].as<std::string>();
  std::ofstream out(out_path);
  char margin_text[32];
  std::snprintf(margin_text, sizeof margin_text, "%.2f", margin_men);
  out << "# " << command_text(args) << "\n"
      << "# Balanced openings of " << to_string(*variant)
      << " draughts for damas match and selfplay: lines of " << plies
      << " plies from the start position, one per position reached (" << lines.size() << " positions),\n"
      << "# tried in an order shuffled by seed " << seed << ", each searched to depth " << depth
      << " by damas (engine options as above) and kept when the score is within " << margin_text
      << " man of equal:\n"
      << "# " << kept.size() << " kept of " << tried << " searched. Moves in the game's own numbering; "
      << "the comment is White's score. Each line is played with both colours.\n";
  for (const BalancedOpening& o : kept) out << balanced_opening_text(start, o) << "\n";
  out.flush();
  if (!out) return fail("cannot write " + out_path);
  std::cout << kept.size() << " balanced openings of " << tried << " searched written to " << out_path
            << "\n";
  return wanted == 0 || kept.size() == wanted ? 0 : 1;
}

}  // namespace damas::cli
