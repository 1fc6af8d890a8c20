// `damas unbalanced`: unbalanced start positions (match/unbalanced.h) from `damas datagen` files: the
// candidates re-searched, those still in the score band written as a ballot file for `damas match`.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/core/platform.h"
#include "damas/engine/engine.h"
#include "damas/match/unbalanced.h"

namespace po = boost::program_options;

namespace damas::cli {

int unbalanced_main(const Args& args) {
  po::options_description desc(
      "damas unbalanced --data F [F...] --out FILE [--count N] [--min-ply A] [--max-ply B] [--min-score S] "
      "[--max-score S]\n"
      "                 [--nodes N] [--order-seed N] [engine options]\n"
      "  unbalanced start positions for matches from damas datagen files: level positions without kings "
      "whose\n"
      "  advantage (either side, in men) lies between the scores in the data and again when searched\n"
      "  (--nodes); written as \"FEN | name\" lines for damas match -openings");
  auto add = desc.add_options();
  add("help,h", "show this help");
  add("data", po::value<std::vector<std::string>>()->multitoken(), "damas datagen files");
  add("out", po::value<std::string>(), "the ballot file to write");
  add("count", po::value<int>()->default_value(300), "positions in the file");
  add("min-ply", po::value<int>()->default_value(10), "earliest ply of the game");
  add("max-ply", po::value<int>()->default_value(16), "latest ply of the game");
  add("min-score", po::value<double>()->default_value(0.4, "0.4"), "smallest advantage, in men");
  add("max-score", po::value<double>()->default_value(0.9, "0.9"), "largest advantage, in men");
  add("nodes", po::value<std::uint64_t>()->default_value(200000), "nodes of the check search (0: no search)");
  add("order-seed", po::value<std::uint64_t>()->default_value(1), "order in which the candidates are tried");
  po::options_description engine_desc("engine options (same names as the Hub parameters)");
  add_engine_options(engine_desc);
  desc.add(engine_desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("unbalanced", args, desc, vm))
    return *exit_code;
  if (!vm.count("data") || !vm.count("out")) {
    std::cerr << "damas unbalanced: --data and --out are needed (--help)\n";
    return 2;
  }
  const double min_men = vm["min-score"].as<double>();
  const double max_men = vm["max-score"].as<double>();
  const int count = vm["count"].as<int>();
  const std::uint64_t nodes = vm["nodes"].as<std::uint64_t>();
  UnbalancedCriteria criteria;
  criteria.min_ply = vm["min-ply"].as<int>();
  criteria.max_ply = vm["max-ply"].as<int>();
  criteria.seed = vm["order-seed"].as<std::uint64_t>();
  // Written so that a NaN fails too.
  if (!(count >= 1 && criteria.min_ply >= 0 && criteria.max_ply >= criteria.min_ply && min_men >= 0 &&
        max_men >= min_men && max_men <= 100)) {
    std::cerr
        << "damas unbalanced: --count must be positive, each band's minimum at most its maximum, the scores "
           "0 to 100 men\n";
    return 2;
  }
  criteria.min_score = static_cast<Score>(min_men * 100.0);
  criteria.max_score = static_cast<Score>(max_men * 100.0);
  if (const Status s = check_output_option(vm, "out", "ballot file"); !s) {
    std::cerr << "damas unbalanced: " << s.error() << "\n";
    return 2;
  }
  Engine engine;
  const Status applied = apply_engine_options(vm, engine);
  if (!applied) {
    std::cerr << "damas unbalanced: " << applied.error() << "\n";
    return 2;
  }

  std::vector<TrainingRecord> records;
  for (const std::string& path : vm["data"].as<std::vector<std::string>>()) {
    Expected<std::vector<TrainingRecord>> file = read_training_data(path);
    if (!file) {
      std::cerr << "damas unbalanced: " << file.error() << "\n";
      return 1;
    }
    // Its ballots are Brazilian (FEN names no game) and so is its engine.
    if (!file->empty() && file->front().position.variant() != Variant::Brazilian) {
      std::cerr << "damas unbalanced: " << path << " holds " << to_string(file->front().position.variant())
                << " positions; unbalanced writes Brazilian ballots\n";
      return 1;
    }
    records.insert(records.end(), file->begin(), file->end());
  }
  const std::vector<UnbalancedCandidate> candidates = select_unbalanced_candidates(records, criteria);
  std::cerr << candidates.size() << " candidates in " << records.size() << " positions\n";

  ProgressLine bar(stderr, platform::is_terminal(stderr));
  std::vector<std::string> lines;
  std::size_t tried = 0;
  for (const UnbalancedCandidate& c : candidates) {
    if (lines.size() == static_cast<std::size_t>(count)) break;
    ++tried;
    Score score = c.score;
    if (nodes > 0) {
      engine.new_game();  // the same answer whatever came before
      if (const Status s = engine.set_position(c.position); !s) continue;
      SearchLimits limits;
      limits.nodes = nodes;
      score = engine.search(limits).score;
      if (!in_score_band(score, criteria)) continue;
    }
    lines.push_back(unbalanced_line(c.position, score, c.ply, lines.size() + 1));
    bar.draw(bar_text(lines.size(), static_cast<std::size_t>(count)) + " of " + std::to_string(tried));
  }
  bar.clear();

  const std::string out_path = vm["out"].as<std::string>();
  std::ofstream out(out_path);
  out << "# damas unbalanced: " << lines.size() << " level positions, plies " << criteria.min_ply << "-"
      << criteria.max_ply << ", an advantage of " << criteria.min_score / 100.0 << " to "
      << criteria.max_score / 100.0 << " man";
  if (nodes > 0) out << " in the data and in a search of " << nodes << " nodes";
  out << " (order seed " << criteria.seed << ")\n";
  for (const std::string& line : lines) out << line << "\n";
  out.flush();
  if (!out) {
    std::cerr << "damas unbalanced: cannot write " << out_path << "\n";
    return 2;
  }
  std::cout << lines.size() << " positions of " << tried << " tried written to " << out_path << "\n";
  return lines.size() == static_cast<std::size_t>(count) ? 0 : 1;
}

}  // namespace damas::cli
