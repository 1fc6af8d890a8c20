// `damas analyze`: searches one position and prints the progress and the best move for a person.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>

#include "damas/cli/cli.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"
#include "damas/engine/engine.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

std::string line_text(Position p, const std::vector<Move>& pv, bool algebraic, Numbering numbering) {
  std::string out;
  for (const Move& m : pv) {
    if (!out.empty()) out += ' ';
    out += algebraic ? to_algebraic(p, m) : to_hub_move(m, numbering);
    p = p.after(m);
  }
  return out;
}

}  // namespace

int analyze_main(const Args& args) {
  po::options_description desc(
      "damas analyze [--fen F] [--moves \"...\"] [--depth N | --time S | --nodes N] [engine options]");
  desc.add_options()("help,h", "show this help")(
      "fen", po::value<std::string>()->default_value(std::string(kStartFen)),
      "position in PDN FEN (numeric or algebraic squares)")(
      "moves", po::value<std::string>()->default_value(""), "moves played from the FEN first")(
      "depth,d", po::value<int>(), "search depth in plies")(
      "time,t", po::value<double>(), "search time in seconds")("nodes,n", po::value<std::uint64_t>(),
                                                               "node budget")(
      "algebraic", po::bool_switch(),
      "print moves as c3-d4 instead of 22-18, and the FEN with algebraic squares");
  po::options_description engine_desc("engine options (same names as the Hub parameters)");
  add_engine_options(engine_desc);
  desc.add(engine_desc);

  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("analyze", args, desc, vm)) return *exit_code;

  Engine engine;
  const Status applied = apply_engine_options(vm, [&engine](std::string_view name, std::string_view value) {
    return engine.set_option(name, value);
  });
  if (!applied) {
    std::cerr << "damas analyze: " << applied.error() << "\n";
    return 2;
  }
  const Numbering numbering =
      engine.options().get(option::kNumbering) == "a1" ? Numbering::A1 : Numbering::Standard;
  const Expected<Position> start = parse_fen(vm["fen"].as<std::string>());
  if (!start) {
    std::cerr << "damas analyze: " << start.error() << "\n";
    return 2;
  }
  const Expected<std::vector<Move>> moves = parse_move_list(*start, vm["moves"].as<std::string>(), numbering);
  if (!moves) {
    std::cerr << "damas analyze: " << moves.error() << "\n";
    return 2;
  }
  if (Status s = engine.set_position(*start, *moves); !s) {
    std::cerr << "damas analyze: " << s.error() << "\n";
    return 2;
  }
  const Position& root = engine.position();
  if (!has_legal_move(root)) {
    std::cout << to_diagram(root) << "\nno legal move: the side to move has lost\n";
    return 0;
  }

  SearchLimits limits;
  if (vm.count("depth")) {
    const int depth = vm["depth"].as<int>();
    if (depth < 1 || depth > 100) {
      std::cerr << "damas analyze: depth must be between 1 and 100\n";
      return 2;
    }
    limits.depth = depth;
  }
  if (vm.count("time")) {
    const double t = vm["time"].as<double>();
    if (!(t > 0)) {
      std::cerr << "damas analyze: time must be positive\n";
      return 2;
    }
    limits.move_time = t;
  }
  if (vm.count("nodes")) limits.nodes = vm["nodes"].as<std::uint64_t>();
  if (!limits.depth && !limits.move_time && !limits.nodes) limits.move_time = 5.0;

  const bool algebraic = vm["algebraic"].as<bool>();
  std::cout << to_diagram(root) << "\n"
            << to_fen(root, algebraic ? FenStyle::Algebraic : FenStyle::Numeric) << "\n";
  const SearchResult r = engine.search(limits, GoMode::Analyze, [&](const SearchInfo& info) {
    std::ostringstream line;
    if (info.multipv_index > 1) line << "  line " << info.multipv_index << ' ';
    else line << "depth " << info.depth << ' ';
    char buf[128];
    std::snprintf(buf, sizeof buf, " score %-10s nodes %-11llu time %7.3f s  nps %5.2f M  pv ",
                  score_text(info.score).c_str(), static_cast<unsigned long long>(info.nodes), info.seconds,
                  info.seconds > 0 ? static_cast<double>(info.nodes) / info.seconds / 1e6 : 0.0);
    line << buf << line_text(root, info.pv, algebraic, numbering);
    std::cout << line.str() << std::endl;
  });
  std::cout << "best move: " << line_text(root, {r.best}, algebraic, numbering);
  if (!r.ponder.is_null())
    std::cout << "   (expected reply " << line_text(root.after(r.best), {r.ponder}, algebraic, numbering)
              << ")";
  std::cout << "\nscore " << score_text(r.score) << " for the side to move, depth " << r.depth << ", "
            << r.nodes << " nodes in " << r.seconds << " s\n";
  return 0;
}

}  // namespace damas::cli
