// The engine plays from the opening book: a book move is answered at once and marked as the
// book's, the margin and the seed vary the choice, book-ply and the levels limit how deep it is
// followed, book=false is the engine without a book, and a damaged book is refused with a clear
// error while the engine plays on without it (engine, Hub, analyze).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "command_helpers.h"
#include "damas/book/book_file.h"
#include "damas/book/choice.h"
#include "damas/core/notation.h"
#include "damas/engine/engine.h"
#include "rules_helpers.h"

using namespace damas;
using namespace damas::book;
using damas::testing::after;
using damas::testing::move;

namespace {

// The initial position with four scored moves (22-18 in the book, 0.30 man above 24-20), and a
// position at ply 5.
std::string write_test_book() {
  const Position start = Position::start();
  const Position a = start.after(move(start, "22-18"));
  const Position deep = after("22-18 11-15 18x11 8x15 21-17");
  Book b;
  b.settings = BuildSettings{1000, 10, 30, 3};
  REQUIRE(b.add(BookEntry{start,
                          0,
                          {{move(start, "22-18"), 10, 12, 3, true},
                           {move(start, "21-17"), 8, 11, 0, false},
                           {move(start, "23-19"), 5, 11, 0, false},
                           {move(start, "24-20"), -20, 11, 0, false}}}));
  REQUIRE(b.add(BookEntry{a, 1, {{move(a, "11-15"), -10, 11, 0, false}}}));
  REQUIRE(b.add(BookEntry{deep, 5, {{move(deep, "9-13"), 0, 9, 0, false}}}));
  const std::string path = "/tmp/damas-book-play-" + std::to_string(getpid()) + ".book";
  REQUIRE(write_book(path, b));
  return path;
}

struct Played {
  SearchResult result;
  std::vector<SearchInfo> infos;
};

Played think(Engine& engine, const Position& p, GoParams params = {}) {
  REQUIRE(engine.set_position(p));
  params.mode = GoMode::Think;
  if (!params.limits.depth) params.limits.depth = 6;
  Played played;
  played.result = engine.search(params, [&played](const SearchInfo& i) { played.infos.push_back(i); });
  return played;
}

}  // namespace

TEST_CASE("book play: a book move is answered at once, marked as the book's", "[book]") {
  const std::string path = write_test_book();
  Engine engine;
  REQUIRE(engine.set_option(option::kBookFile, path));
  CHECK(engine.book_status().positions == 3);
  CHECK(engine.book_status().text().find("3 positions in " + path + " (book-file)") != std::string::npos);
  REQUIRE(engine.set_option(option::kBookMargin, "0"));
  const Played p = think(engine, Position::start());
  CHECK(p.result.best == move(Position::start(), "22-18"));
  CHECK(p.result.ponder == move(Position::start().after(p.result.best), "11-15"));  // the book's reply
  CHECK(p.result.nodes == 0);
  CHECK(p.result.score == 10);
  CHECK(p.result.depth == 12);
  REQUIRE(p.infos.size() == 1);
  CHECK(p.infos.front().book);
  CHECK(p.infos.front().depth == 12);

  // Analysis is the engine's own opinion: searched, never the book's.
  REQUIRE(engine.set_position(Position::start()));
  SearchLimits depth4;
  depth4.depth = 4;
  CHECK(engine.search(depth4, GoMode::Analyze).nodes > 0);
  REQUIRE(engine.book_entry(Position::start()).has_value());
  CHECK(engine.book_entry(Position::start())->moves.size() == 4);
  CHECK_FALSE(engine.book_entry(after("24-20")).has_value());
  std::remove(path.c_str());
}

TEST_CASE("book play: the margin and the seed vary the move, a fixed seed repeats it", "[book]") {
  const std::string path = write_test_book();
  Engine engine;
  REQUIRE(engine.set_option(option::kBookFile, path));
  REQUIRE(engine.set_option(option::kBookMargin, "10"));  // 22-18, 21-17, 23-19; not 24-20
  std::set<std::string> moves;
  for (int seed = 1; seed <= 30; ++seed) {
    REQUIRE(engine.set_option(option::kSeed, std::to_string(seed)));
    const Move m = think(engine, Position::start()).result.best;
    moves.insert(to_hub_move(m));
    CHECK(think(engine, Position::start()).result.best == m);  // the same seed, the same move
  }
  CHECK(moves == std::set<std::string>{"22-18", "21-17", "23-19"});
  std::remove(path.c_str());
}

TEST_CASE("book play: book-ply and the levels limit how deep the book is followed", "[book]") {
  const std::string path = write_test_book();
  const Position deep = after("22-18 11-15 18x11 8x15 21-17");  // ply 5 of the book
  Engine engine;
  REQUIRE(engine.set_option(option::kBookFile, path));
  CHECK(think(engine, deep).infos.back().book);
  REQUIRE(engine.set_option(option::kBookPly, "5"));
  CHECK_FALSE(think(engine, deep).infos.back().book);
  CHECK(think(engine, Position::start()).infos.back().book);
  REQUIRE(engine.set_option(option::kBookPly, "0"));
  CHECK_FALSE(think(engine, Position::start()).infos.back().book);
  REQUIRE(engine.set_option(option::kBookPly, "100"));
  GoParams beginner;
  beginner.level = level_params("beginner");  // follows the book up to ply 4
  CHECK_FALSE(think(engine, deep, beginner).infos.back().book);
  CHECK(think(engine, Position::start(), beginner).infos.back().book);
  GoParams hard;
  hard.level = level_params("hard");
  CHECK(think(engine, deep, hard).infos.back().book);
  std::remove(path.c_str());
}

TEST_CASE("book play: book=false is the engine without a book, move for move and node for node", "[book]") {
  const std::string path = write_test_book();
  Engine with_book_off;
  REQUIRE(with_book_off.set_option(option::kBookFile, path));
  REQUIRE(with_book_off.set_option(option::kBook, "false"));
  CHECK(with_book_off.book_status().text() == "opening book: off (book=false)");
  Engine without;
  REQUIRE(without.set_option(option::kBookFile, "none"));
  for (const Position& p : {Position::start(), after("22-18")}) {
    const Played a = think(with_book_off, p);
    const Played b = think(without, p);
    CHECK(a.result.best == b.result.best);
    CHECK(a.result.pv == b.result.pv);
    CHECK(a.result.score == b.result.score);
    CHECK(a.result.nodes == b.result.nodes);
    CHECK(a.result.nodes > 0);
    CHECK_FALSE(a.infos.back().book);
  }
  std::remove(path.c_str());
}

TEST_CASE("book play: a damaged book is refused with a clear error, the engine plays on", "[book]") {
  const std::string path = write_test_book();
  {
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(70);
    f.put('\x33');
  }
  Engine engine;
  const Status named = engine.set_option(option::kBookFile, path);
  REQUIRE_FALSE(named.has_value());
  CHECK(named.error().find("checksum") != std::string::npos);
  Options options;
  REQUIRE(options.set(option::kBookFile, path));
  CHECK_FALSE(check_option_files(options).has_value());

  // Found by the search list ($DAMAS_BOOK here): reported in Hub's init, and the engine searches.
  std::string out;
  const std::string hub =
      "printf 'hub\\ninit\\npos\\nlevel depth=4\\ngo think\\nquit\\n' | DAMAS_BOOK=" + path + " " +
      std::string(DAMAS_BINARY) + " hub";
  REQUIRE(test::run_command(hub, out) == 0);
  CHECK(out.find("init opening book: " + path +
                 ": checksum mismatch (damaged file); playing without a book") != std::string::npos);
  CHECK(out.find("done move=") != std::string::npos);
  CHECK(out.find("book=true") == std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("book play: Hub marks a book move's info, analyze lists the book moves", "[book]") {
  const std::string path = write_test_book();
  std::string out;
  const std::string hub = "printf 'hub\\ninit\\npos\\nlevel depth=4\\ngo think\\nquit\\n' | " +
                          std::string(DAMAS_BINARY) + " hub --book-margin 0 --book-file " + path;
  REQUIRE(test::run_command(hub, out) == 0);
  CHECK(out.find("init opening book: 3 positions in " + path) != std::string::npos);
  CHECK(out.find("info depth=12 score=0.10 ") != std::string::npos);  // then time= when it took 1 ms
  CHECK(out.find(" book=true pv=\"22-18 11-15\"") != std::string::npos);
  CHECK(out.find("done move=22-18 ponder=11-15") != std::string::npos);

  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " analyze --depth 3 --board no --book-file " + path,
                            out) == 0);
  CHECK(out.find("book: ply 0, 4 moves") != std::string::npos);
  CHECK(out.find("22-18  score +0.10") != std::string::npos);
  CHECK(out.find("(searched, not in the book)") != std::string::npos);
  CHECK(out.find("best move:") != std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("book play: the Brazilian book is not used in a Russian game", "[book][russian]") {
  const std::string path = write_test_book();
  Engine engine;
  REQUIRE(engine.set_option(option::kBookFile, path));
  REQUIRE(engine.set_option(option::kBookMargin, "0"));
  // The same pieces the book answers in Brazilian are searched in Russian.
  CHECK(think(engine, Position::start()).result.nodes == 0);
  const Played russian = think(engine, Position::start(Variant::Russian));
  CHECK(russian.result.nodes > 0);
  for (const SearchInfo& i : russian.infos) CHECK_FALSE(i.book);
  CHECK_FALSE(engine.book_entry(Position::start(Variant::Russian)).has_value());
  std::remove(path.c_str());
}

TEST_CASE("book play: a Russian book is played in a Russian game and kept out of a Brazilian one",
          "[book][russian]") {
  const Position start = Position::start(Variant::Russian);
  Book b;
  b.variant = Variant::Russian;
  b.settings = BuildSettings{1000, 10, 30, 3};
  REQUIRE(b.add(BookEntry{start, 0, {{move(start, "21-17"), 4, 12, 0, false}}}));
  const std::string path = "/tmp/damas-book-russian-" + std::to_string(getpid()) + ".book";
  REQUIRE(write_book(path, b));

  Engine engine;
  REQUIRE(engine.set_option(option::kVariant, "russian"));
  REQUIRE(engine.set_option(option::kBookFile, path));
  CHECK(engine.book_status().text() == "opening book (russian): 1 positions in " + path + " (book-file)");
  const Played russian = think(engine, start);
  CHECK(russian.result.best == move(start, "21-17"));
  CHECK(russian.result.nodes == 0);
  REQUIRE(russian.infos.size() == 1);
  CHECK(russian.infos.front().book);

  // The variant changes: the same file is kept but never looked up in a Brazilian game.
  REQUIRE(engine.set_option(option::kVariant, "brazilian"));
  CHECK(engine.book_status().text() == "opening book: " + path +
                                           " is a book of russian draughts, not used in a brazilian game; "
                                           "playing without a book");
  const Played brazilian = think(engine, Position::start());
  CHECK(brazilian.result.nodes > 0);
  REQUIRE(engine.set_option(option::kVariant, "russian"));
  CHECK(think(engine, start).result.nodes == 0);
  std::remove(path.c_str());
}

TEST_CASE("book play: in the first two plies the margin is doubled, deeper it is the margin", "[book]") {
  const Position start = Position::start();
  const Position reply = start.after(move(start, "22-17"));
  const Position third = reply.after(move(reply, "9-13"));
  Book b;
  b.settings = BuildSettings{1000, 10, 30, 3};
  REQUIRE(b.add(BookEntry{start,
                          0,
                          {{move(start, "22-17"), 10, 12, 2, true},
                           {move(start, "22-18"), 5, 11, 0, false},
                           {move(start, "23-19"), 3, 11, 0, false}}}));
  REQUIRE(b.add(BookEntry{
      reply, 1, {{move(reply, "9-13"), -10, 11, 1, true}, {move(reply, "11-15"), -15, 11, 0, false}}}));
  REQUIRE(b.add(BookEntry{
      third, 2, {{move(third, "24-20"), 10, 10, 0, false}, {move(third, "23-18"), 5, 10, 0, false}}}));
  CHECK(playable_moves(b, start, 255, 3).size() == 2);  // 22-17, 22-18 (within 6); not 23-19
  CHECK(playable_moves(b, start, 255, 4).size() == 3);
  CHECK(playable_moves(b, reply, 255, 3).size() == 2);  // ply 1: 11-15 is 5 below, within 6
  CHECK(playable_moves(b, third, 255, 3).size() == 1);  // ply 2: the margin itself
  CHECK(playable_moves(b, third, 255, 5).size() == 2);
  CHECK(playable_moves(b, start, 255, 0).size() == 1);  // 0 plays the best only, everywhere
}
