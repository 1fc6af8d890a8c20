// `damas book build|info|probe`: the opening book of play (book/book.h), built from damas's own
// searches, and what a book file holds.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "damas/book/book_file.h"
#include "damas/book/builder.h"
#include "damas/book/discovery.h"
#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/core/notation.h"
#include "damas/core/platform.h"
#include "damas/core/score_text.h"
#include "damas/engine/engine.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

using book::Book;
using book::BookEntry;
using book::BookMove;

std::string men_text(Score s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", s / 100.0);
  return text;
}

// The book named on the command line, or else the one the engine finds for --variant's game
// (book/discovery.h).
Expected<std::pair<Book, std::string>> open_book(const po::variables_map& vm) {
  std::string path = vm.count("book") ? vm["book"].as<std::string>() : "";
  if (path.empty()) {
    const Expected<Variant> variant = variant_option(vm);
    if (!variant) return Error{variant.error()};
    path = book::find_book(book::Places::of_process(), *variant).path;
    if (path.empty())
      return Error{"no opening book found for " + std::string(to_string(*variant)) +
                   " (give its file, or see damas book build --help for where it is looked for)"};
  }
  Expected<Book> read = book::read_book(path);
  if (!read) return Error{read.error()};
  return std::make_pair(std::move(*read), path);
}

// The moves of a book position, best first: move, score, depth, expansions, in the book or not.
void print_moves(const BookEntry& e) {
  std::vector<BookMove> moves = e.moves;
  std::stable_sort(moves.begin(), moves.end(),
                   [](const BookMove& a, const BookMove& b) { return a.score > b.score; });
  std::printf("  %-8s %7s %6s %11s\n", "move", "score", "depth", "expansions");
  for (const BookMove& m : moves)
    std::printf("  %-8s %7s %6d %11u  %s\n", to_pdn_move(e.position, m.move).c_str(),
                score_text(m.score).c_str(), m.depth, m.expansions,
                m.in_book ? "book" : "searched, not in the book");
}

std::string settings_text(const book::BuildSettings& s) {
  return "--nodes " + std::to_string(s.nodes) + " --max-ply " + std::to_string(s.max_ply) + " --margin " +
         men_text(s.margin) + " --ply-cost " + men_text(s.ply_cost);
}

// The main line in PDN moves.
std::string main_line_text(const Book& b) {
  std::string text;
  Position p = Position::start(b.variant);
  for (const Move& m : book::main_line(b)) {
    if (!text.empty()) text += ' ';
    text += to_pdn_move(p, m);
    p = p.after(m);
  }
  return text;
}

}  // namespace

namespace {

constexpr const char* kBookHelp =
    "the book file (default: the book the engine finds for --variant's game: $DAMAS_BOOK, "
    "~/.local/share/damas/<game>.book, <prefix>/share/damas/<game>.book, the source tree's "
    "bench/<game>.book)";

int info_command(const Args& args) {
  po::options_description desc("damas book info [BOOK]: what a book file holds");
  desc.add_options()("help,h", "show this help")("book", po::value<std::string>(), kBookHelp);
  add_variant_option(desc);
  po::positional_options_description positional;
  positional.add("book", 1);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("book info", args, desc, vm, &positional))
    return *exit_code;
  Expected<std::pair<Book, std::string>> opened = open_book(vm);
  if (!opened) {
    std::cerr << "damas book info: " << opened.error() << "\n";
    return 1;
  }
  const auto& [b, path] = *opened;
  std::error_code ec;
  std::printf("%s: opening book for %s, version %u, %zu positions, %zu moves, %ju bytes\n", path.c_str(),
              std::string(to_string(b.variant)).c_str(), book::kBookVersion, b.size(), b.move_count(),
              static_cast<std::uintmax_t>(std::filesystem::file_size(path, ec)));
  std::printf("built with: damas book build %s\n", settings_text(b.settings).c_str());
  std::map<int, int> per_ply;
  for (const BookEntry& e : b.entries()) ++per_ply[e.ply];
  std::printf("positions per ply:");
  for (const auto& [ply, count] : per_ply) std::printf(" %d:%d", ply, count);
  std::printf("\nmain line (%zu plies): %s\n", book::main_line(b).size(), main_line_text(b).c_str());
  if (const BookEntry* root = b.find(Position::start(b.variant))) {
    std::printf("the initial position:\n");
    print_moves(*root);
  }
  return 0;
}

int probe_command(const Args& args) {
  po::options_description desc(
      "damas book probe [BOOK] [--fen F] [--moves \"...\"]: the book moves of a position (default: the "
      "initial one)");
  desc.add_options()("help,h", "show this help")("book", po::value<std::string>(), kBookHelp)(
      "fen", po::value<std::string>()->default_value(""), "the position (FEN)")(
      "moves", po::value<std::string>()->default_value(""), "moves played from it first");
  add_variant_option(desc);
  po::positional_options_description positional;
  positional.add("book", 1);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("book probe", args, desc, vm, &positional))
    return *exit_code;
  Expected<std::pair<Book, std::string>> opened = open_book(vm);
  if (!opened) {
    std::cerr << "damas book probe: " << opened.error() << "\n";
    return 1;
  }
  // The position is read in the book's game (its squares and rules).
  const Variant game = opened->first.variant;
  const std::string fen = vm["fen"].as<std::string>();
  Expected<Position> start = fen.empty() ? Expected<Position>(Position::start(game)) : parse_fen(fen, game);
  if (!start) {
    std::cerr << "damas book probe: " << start.error() << "\n";
    return 2;
  }
  Position p = *start;
  const Expected<std::vector<Move>> moves = parse_move_list(p, vm["moves"].as<std::string>());
  if (!moves) {
    std::cerr << "damas book probe: " << moves.error() << "\n";
    return 2;
  }
  for (const Move& m : *moves) p = p.after(m);
  const BookEntry* e = opened->first.find(p);
  if (!e) {
    std::printf("%s: not in the book\n", to_fen(p).c_str());
    return 0;
  }
  std::printf("%s: in the book, ply %d\n", to_fen(p).c_str(), e->ply);
  print_moves(*e);
  return 0;
}

}  // namespace

namespace {

struct BuildRequest {
  std::string out;
  Variant variant = Variant::Brazilian;
  std::size_t positions = 0;
  book::BuildSettings settings;
  double save_seconds = 60;
};

// The book to go on from: the output file when it is there (made with the same settings, of the
// same game), else an empty one.
Expected<Book> starting_book(const BuildRequest& r) {
  std::error_code ec;
  if (!std::filesystem::exists(r.out, ec)) {
    Book b;
    b.settings = r.settings;
    b.variant = r.variant;
    return b;
  }
  Expected<Book> read = book::read_book(r.out);
  if (!read) return Error{read.error() + " (remove it to start again)"};
  if (read->variant != r.variant)
    return Error{r.out + " is a book of " + std::string(to_string(read->variant)) +
                 " draughts: give --variant " + std::string(to_string(read->variant)) + " to go on with it"};
  if (!(read->settings == r.settings))
    return Error{r.out + " was built with " + settings_text(read->settings) +
                 ": give the same to go on with it"};
  return read;
}

// Every search the builder asks for, on a cleared table: the answer depends on the position only
// (with one thread), so the build is deterministic and resumes to the same book.
book::LeafSearch engine_search(Engine& engine, std::uint64_t nodes) {
  return [&engine, nodes](const Position& p, const std::vector<Move>& excluded) {
    engine.new_game();
    (void)engine.set_position(p);  // a legal position of the book
    GoParams params;
    params.limits.nodes = nodes;
    params.mode = GoMode::Analyze;
    params.excluded = excluded;
    const SearchResult r = engine.search(params);
    return book::SearchAnswer{r.best, r.score, r.depth};
  };
}

std::string progress_text(const Book& b, std::size_t target, std::size_t added, double seconds) {
  const double per = added > 0 ? seconds / static_cast<double>(added) : 0;
  const double left = per * static_cast<double>(target > b.size() ? target - b.size() : 0);
  char text[200];
  std::snprintf(text, sizeof text, " %zu/%zu positions  main line %zu plies  %.2f s/position  %s left",
                b.size(), target, book::main_line(b).size(), per, added > 0 ? clock_text(left).c_str() : "?");
  return bar_text(b.size(), target) + text;
}

int run_build(const BuildRequest& r, Engine& engine) {
  Expected<Book> start = starting_book(r);
  if (!start) {
    std::cerr << "damas book build: " << start.error() << "\n";
    return 2;
  }
  Expected<book::Builder> builder = book::Builder::resume(std::move(*start));
  if (!builder) {
    std::cerr << "damas book build: " << builder.error() << "\n";
    return 2;
  }
  const std::size_t at_start = builder->book().size();
  if (at_start > 0) std::cerr << "going on from " << r.out << ": " << at_start << " positions\n";
  const book::LeafSearch search = engine_search(engine, r.settings.nodes);
  ProgressLine bar(stderr, platform::is_terminal(stderr));
  const auto t0 = std::chrono::steady_clock::now();
  auto saved = t0;
  bool more = true;
  while (more && builder->book().size() < r.positions) {
    more = builder->step(search).expanded;
    const auto now = std::chrono::steady_clock::now();
    const std::string text = progress_text(builder->book(), r.positions, builder->book().size() - at_start,
                                           std::chrono::duration<double>(now - t0).count());
    bar.draw(text);
    if (std::chrono::duration<double>(now - saved).count() < r.save_seconds) continue;
    if (Status s = book::write_book(r.out, builder->book()); !s) {
      bar.finish();
      std::cerr << "damas book build: " << s.error() << "\n";
      return 1;
    }
    saved = now;
    if (!bar.terminal()) std::cerr << text << "\n";
  }
  bar.finish();
  if (Status s = book::write_book(r.out, builder->book()); !s) {
    std::cerr << "damas book build: " << s.error() << "\n";
    return 1;
  }
  const Book& b = builder->book();
  std::printf("%zu positions, %zu moves, main line %zu plies: %s\n", b.size(), b.move_count(),
              book::main_line(b).size(), r.out.c_str());
  if (!more) std::printf("nothing more to expand within --max-ply and --margin\n");
  return 0;
}

int build_command(const Args& args) {
  po::options_description desc(
      "damas book build --out F [--variant V] [--positions N] [--nodes N] [--max-ply P] [--margin M] "
      "[--ply-cost C] [engine options]\n"
      "  the opening book of a game (--variant): best-first (drop-out) expansion of its initial position,\n"
      "  every new position searched (--nodes, the engine's threads; deterministic with one thread),\n"
      "  scores backed up by minimax. The line expanded next is the one whose moves give away least\n"
      "  against the best of their positions, each ply counting --ply-cost. Saved every --save-every\n"
      "  seconds; run again with the same settings and it goes on from the file (a larger --positions\n"
      "  makes it grow)");
  auto add = desc.add_options();
  add("help,h", "show this help");
  add("out", po::value<std::string>(), "the book file (written, or read and continued)");
  add("positions", po::value<std::size_t>()->default_value(20000), "positions in the book");
  add("nodes", po::value<std::uint64_t>()->default_value(200000), "node budget of each search");
  add("max-ply", po::value<int>()->default_value(30), "positions at this ply or deeper are not expanded");
  add("margin", po::value<double>()->default_value(0.3, "0.3"),
      "moves more than this many men below the best of their position are not expanded");
  add("ply-cost", po::value<double>()->default_value(0.03, "0.03"),
      "men of score given away that one ply of depth is worth in the choice of what to expand");
  add("save-every", po::value<double>()->default_value(60), "seconds between saves of the book");
  po::options_description engine_desc("engine options (same names as the Hub parameters)");
  add_engine_options(engine_desc);
  desc.add(engine_desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("book build", args, desc, vm))
    return *exit_code;
  BuildRequest r;
  r.positions = vm["positions"].as<std::size_t>();
  r.settings.nodes = vm["nodes"].as<std::uint64_t>();
  r.settings.max_ply = vm["max-ply"].as<int>();
  const double margin = vm["margin"].as<double>();
  const double ply_cost = vm["ply-cost"].as<double>();
  r.save_seconds = vm["save-every"].as<double>();
  // Written so that a NaN fails too.
  if (!vm.count("out") ||
      !(r.positions >= 1 && r.settings.nodes >= 1 && r.settings.max_ply >= 1 && r.settings.max_ply <= 255 &&
        margin >= 0 && margin <= 100 && ply_cost >= 0 && ply_cost <= 100 && r.save_seconds >= 0)) {
    std::cerr << "damas book build: --out is needed; --positions and --nodes positive, --max-ply 1 to 255, "
                 "--margin and --ply-cost 0 to 100 men (--help)\n";
    return 2;
  }
  r.out = vm["out"].as<std::string>();
  r.settings.margin = static_cast<Score>(std::lround(margin * 100));
  r.settings.ply_cost = static_cast<Score>(std::lround(ply_cost * 100));
  if (Status s = check_output_option(vm, "out", "opening book"); !s) {
    std::cerr << "damas book build: " << s.error() << "\n";
    return 2;
  }
  Engine engine;
  if (Status s = apply_engine_options(vm, engine, VariantUse::Any); !s) {
    std::cerr << "damas book build: " << s.error() << "\n";
    return 2;
  }
  (void)engine.set_option(option::kBook, "false");  // the builder's searches analyse; no book read
  r.variant = engine.options().variant();
  return run_build(r, engine);
}

}  // namespace

int book_main(const Args& args) {
  return run_action("book", "usage: damas book build|info|probe [options]",
                    {{"build", build_command}, {"info", info_command}, {"probe", probe_command}}, args);
}

}  // namespace damas::cli
