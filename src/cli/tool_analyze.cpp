// `damas analyze`: searches one position and prints the progress and the best move for a person.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>

#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/cli/review_options.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/core/platform.h"
#include "damas/core/score_text.h"
#include "damas/core/text_lines.h"
#include "damas/engine/engine.h"
#include "damas/review/graph.h"
#include "damas/review/review.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

// The progress of --pdn on stderr (a terminal only): the bar, the game and the move.
// The book's moves of the position, best first, before the search (nothing when it is not in the
// book).
void print_book_moves(const Engine& engine, const Position& root, bool algebraic, Numbering numbering) {
  std::optional<book::BookEntry> entry = engine.book_entry(root);
  if (!entry) return;
  std::stable_sort(entry->moves.begin(), entry->moves.end(),
                   [](const book::BookMove& a, const book::BookMove& b) { return a.score > b.score; });
  std::cout << "book: ply " << entry->ply << ", " << entry->moves.size() << " moves\n";
  for (const book::BookMove& m : entry->moves) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "  score %-10s depth %-4d expansions %-7u %s", score_text(m.score).c_str(),
                  m.depth, m.expansions, m.in_book ? "" : "(searched, not in the book)");
    std::cout << "  " << review::line_text(root, {m.move}, algebraic, numbering) << buf << "\n";
  }
}

std::string pdn_progress(std::size_t done, std::size_t total, int game, int games, std::size_t ply,
                         std::size_t plies) {
  return bar_text(done, total) + " game " + std::to_string(game) + "/" + std::to_string(games) + ", move " +
         std::to_string((ply + 1) / 2) + "/" + std::to_string((plies + 1) / 2);
}

// --plot: the evaluation graph of game `number` of `path` as DIR/<file stem>-<number>.svg.
bool write_plot(const std::string& dir, const std::string& path, int number, const PdnGame& pdn,
                const review::GameReview& a) {
  const std::string stem = std::filesystem::path(path).stem().string();
  const std::string title = stem + " game " + std::to_string(number) + ": " + pdn.tag("White").value_or("?") +
                            " - " + pdn.tag("Black").value_or("?") + " " +
                            pdn.tag("Result").value_or(pdn.result);
  std::ofstream svg(std::filesystem::path(dir) / (stem + "-" + std::to_string(number) + ".svg"));
  svg << review::graph_svg(a, title);
  svg.flush();
  return static_cast<bool>(svg);
}

// --pdn: every game of the file analysed; a bad game is reported and skipped.
int analyze_pdn(const po::variables_map& vm, Engine& engine) {
  const std::string path = vm["pdn"].as<std::string>();
  const Expected<std::string> text = read_text_file(path, "PDN file");
  if (!text) {
    std::cerr << "damas analyze: " << text.error() << "\n";
    return 2;
  }
  const Expected<review::ReviewConfig> config = read_review_config(vm, engine);
  if (!config) {
    std::cerr << "damas analyze: " << config.error() << "\n";
    return 2;
  }
  if (Status s = check_output_option(vm, "out", "annotated PDN file"); !s) {
    std::cerr << "damas analyze: " << s.error() << "\n";
    return 2;
  }
  const std::optional<std::string> plot_dir =
      vm.count("plot") ? std::optional(vm["plot"].as<std::string>()) : std::nullopt;
  if (plot_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*plot_dir, ec);
    if (ec) {
      std::cerr << "damas analyze: cannot make the directory " << *plot_dir << ": " << ec.message() << "\n";
      return 2;
    }
  }
  std::ofstream out_file;
  const bool to_file = vm.count("out") != 0;
  if (to_file) {
    out_file.open(vm["out"].as<std::string>());
    if (!out_file) {
      std::cerr << "damas analyze: cannot write " << vm["out"].as<std::string>() << "\n";
      return 2;
    }
  }
  std::ostream& out = to_file ? static_cast<std::ostream&>(out_file) : std::cout;

  const std::vector<PdnGameOrError> games = read_pdn(*text);
  std::size_t total = 0;
  for (const PdnGameOrError& g : games)
    if (g) total += g->moves.size() + 1;
  ProgressLine bar(stderr, platform::is_terminal(stderr));
  std::size_t done_before = 0;
  int bad = 0;
  for (std::size_t k = 0; k < games.size(); ++k) {
    const int number = static_cast<int>(k) + 1;
    if (!games[k]) {
      bar.clear();
      std::cerr << "damas analyze: " << path << ": " << games[k].error() << " (game skipped)\n";
      ++bad;
      continue;
    }
    const PdnGame& pdn = *games[k];
    const review::GameReview a =
        review::review_game(engine, pdn, *config, [&](std::size_t done, std::size_t plies) {
          bar.draw(pdn_progress(done_before + done, total, number, static_cast<int>(games.size()), done - 1,
                                plies - 1));
        });
    done_before += pdn.moves.size() + 1;
    bar.clear();
    std::cout << "game " << number << " (line " << pdn.first_line << "): " << a.summary << std::flush;
    out << a.annotated_pdn << "\n";
    if (plot_dir && !write_plot(*plot_dir, path, number, pdn, a)) {
      std::cerr << "damas analyze: cannot write the graph of game " << number << " in " << *plot_dir << "\n";
      return 2;
    }
  }
  if (to_file) {
    out_file.flush();
    if (!out_file) {
      std::cerr << "damas analyze: cannot write " << vm["out"].as<std::string>() << "\n";
      return 2;
    }
  }
  return bad == static_cast<int>(games.size()) && bad > 0 ? 1 : 0;
}

}  // namespace

int analyze_main(const Args& args) {
  po::options_description desc(
      "damas analyze [--fen F] [--moves \"...\"] [--depth N | --time S | --nodes N] [engine options]\n"
      "damas analyze --pdn games.pdn [--out annotated.pdn] [--plot DIR] [--algebraic] [--depth N | --time S] "
      "[--margin M]\n"
      "  (per position; default depth 10): every move of every game evaluated, errors marked ?!, ? and ??\n"
      "  with the best move and its line as a comment, a summary per game");
  desc.add_options()("help,h", "show this help")(
      "fen", po::value<std::string>()->default_value(""),
      "position in PDN FEN (numeric or algebraic squares, the game's own; default: the game's start)")(
      "moves", po::value<std::string>()->default_value(""), "moves played from the FEN first")(
      "depth,d", po::value<int>(), "search depth in plies")(
      "time,t", po::value<double>(), "search time in seconds")("nodes,n", po::value<std::uint64_t>(),
                                                               "node budget")(
      "algebraic", po::bool_switch(),
      "print moves as c3-d4 instead of 22-18, and the FEN with algebraic squares (--pdn: in the annotated "
      "PDN)")("board", po::value<std::string>()->implicit_value("yes")->value_name("yes|no"),
              "show the position as a text board (default: yes on a terminal)")(
      "pdn", po::value<std::string>(), "analyse every game of this PDN file instead of one position")(
      "out", po::value<std::string>(), "--pdn: write the annotated games here (default: standard output)")(
      "plot", po::value<std::string>()->value_name("DIR"),
      "--pdn: one SVG evaluation graph per game in DIR (<file stem>-<game>.svg)");
  add_margin_options(desc);
  po::options_description engine_desc("engine options (same names as the Hub parameters)");
  add_engine_options(engine_desc);
  desc.add(engine_desc);

  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("analyze", args, desc, vm)) return *exit_code;

  Engine engine;
  const Status applied = apply_engine_options(vm, engine, VariantUse::Any);
  if (!applied) {
    std::cerr << "damas analyze: " << applied.error() << "\n";
    return 2;
  }
  // Which endgame databases and book the analysis stands on (stderr: stdout may be the annotated PDN).
  const EgdbStatus egdb = engine.egdb_status();
  std::cerr << egdb.text() << "\n";
  for (const std::string& problem : egdb.problems) std::cerr << "endgame databases: " << problem << "\n";
  std::cerr << engine.book_status().text() << "\n";
  const Numbering numbering =
      parse_numbering(engine.options().get(option::kNumbering)).value_or(Numbering::Standard);
  const Expected<SearchLimits> parsed_limits = read_search_limits(vm, vm.count("pdn") ? 10 : 0);
  if (!parsed_limits) {
    std::cerr << "damas analyze: " << parsed_limits.error() << "\n";
    return 2;
  }
  if (vm.count("pdn")) return analyze_pdn(vm, engine);
  const SearchLimits limits = *parsed_limits;
  bool board = platform::is_terminal(stdout);
  if (vm.count("board")) {
    const std::string b = vm["board"].as<std::string>();
    if (b != "yes" && b != "no") {
      std::cerr << "damas analyze: --board takes yes or no\n";
      return 2;
    }
    board = b == "yes";
  }
  // A FEN names no game: the variant option does (a PDN's GameType names its own).
  const std::string fen_text = vm["fen"].as<std::string>();
  const Variant game = engine.options().variant();
  const Expected<Position> start =
      fen_text.empty() ? Expected<Position>(Position::start(game)) : parse_fen(fen_text, game);
  if (!start) {
    std::cerr << "damas analyze: " << start.error() << "\n";
    return 2;
  }
  const Expected<std::vector<Move>> moves = parse_move_list(*start, vm["moves"].as<std::string>(), numbering);
  if (!moves) {
    std::cerr << "damas analyze: " << moves.error() << "\n";
    return 2;
  }
  if (Status s = engine.set_position(*start, *moves, fen_draw_plies(fen_text)); !s) {
    std::cerr << "damas analyze: " << s.error() << "\n";
    return 2;
  }
  const Position& root = engine.position();
  if (!has_legal_move(root)) {
    std::cout << (board ? to_diagram(root) + "\n" : "") << "no legal move: the side to move has lost\n";
    return 0;
  }

  const bool algebraic = vm["algebraic"].as<bool>();
  if (board) std::cout << to_diagram(root) << "\n";
  std::cout << to_fen(root, algebraic ? FenStyle::Algebraic : FenStyle::Numeric) << "\n";
  print_book_moves(engine, root, algebraic, numbering);
  const SearchResult r = engine.search(limits, GoMode::Analyze, [&](const SearchInfo& info) {
    std::ostringstream line;
    if (info.multipv_index > 1) line << "  line " << info.multipv_index << ' ';
    else line << "depth " << info.depth << ' ';
    char buf[128];
    std::snprintf(buf, sizeof buf, " score %-10s nodes %-11llu time %7.3f s  nps %5.2f M  pv ",
                  score_text(info.score).c_str(), static_cast<unsigned long long>(info.nodes), info.seconds,
                  info.seconds > 0 ? static_cast<double>(info.nodes) / info.seconds / 1e6 : 0.0);
    line << buf << review::line_text(root, info.pv, algebraic, numbering);
    std::cout << line.str() << std::endl;
  });
  std::cout << "best move: " << review::line_text(root, {r.best}, algebraic, numbering);
  if (!r.ponder.is_null())
    std::cout << "   (expected reply "
              << review::line_text(root.after(r.best), {r.ponder}, algebraic, numbering) << ")";
  std::cout << "\nscore " << score_text(r.score) << " for the side to move, depth " << r.depth << ", "
            << r.nodes << " nodes in " << r.seconds << " s\n";
  return 0;
}

}  // namespace damas::cli
