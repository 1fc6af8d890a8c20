// The book builder (book/builder.h) on a made-up search whose scores depend on the position only:
// minimax back-up, the limits of the settings, and a resumed build equal to an uninterrupted one;
// then `damas book build / info / probe` on a tiny real build.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "command_helpers.h"
#include "damas/book/book_file.h"
#include "damas/book/builder.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"

using namespace damas;
using namespace damas::book;

namespace {

// A position's made-up score for the side to move: -20..20 hundredths from its key.
Score made_up(const Position& p) { return static_cast<Score>((p.key() >> 11) % 41) - 20; }

// The best move among those not excluded by the made-up scores of the positions they lead to.
SearchAnswer made_up_search(const Position& p, const std::vector<Move>& excluded) {
  MoveList moves;
  generate_legal_moves(p, moves);
  SearchAnswer best;
  bool found = false;
  for (const Move& m : moves) {
    if (std::find(excluded.begin(), excluded.end(), m) != excluded.end()) continue;
    const Score s = -made_up(p.after(m));
    if (!found || s > best.score) best = SearchAnswer{m, s, 5};
    found = true;
  }
  return best;
}

Book build(BuildSettings settings, std::size_t positions, Book start = {}, int* steps = nullptr) {
  if (start.size() == 0) start.settings = settings;
  Expected<Builder> builder = Builder::resume(std::move(start));
  REQUIRE(builder.has_value());
  while (builder->book().size() < positions) {
    if (!builder->step(made_up_search).expanded) break;
    if (steps) ++*steps;
  }
  return builder->book();
}

const BuildSettings kSettings{1000, 12, 15, 3};

}  // namespace

TEST_CASE("book builder: every book move carries the minimax value of its position", "[book]") {
  int steps = 0;
  const Book b = build(kSettings, 120, {}, &steps);
  REQUIRE(b.size() == 120);
  REQUIRE(b.entry(0).position == Position::start());
  for (const BookEntry& e : b.entries()) {
    for (const BookMove& m : e.moves) {
      CHECK(is_legal(e.position, m.move));
      if (!m.in_book) continue;
      const BookEntry* child = b.find(e.position.after(m.move));
      REQUIRE(child);
      CHECK(m.score == backed_up(best_score(*child)));
      CHECK(child->ply <= e.ply + 1);
    }
    int outside = 0;
    for (const BookMove& m : e.moves) outside += m.in_book ? 0 : 1;
    CHECK(outside <= 1);
  }
  // The root's book moves count the steps through them: every step but the first (the root), some
  // of which reached a position already in the book by another order of moves.
  std::uint32_t expansions = 0;
  for (const BookMove& m : b.entry(0).moves) expansions += m.expansions;
  CHECK(expansions == static_cast<std::uint32_t>(steps - 1));
  CHECK(expansions >= b.size() - 1);
  CHECK(!main_line(b).empty());
}

TEST_CASE("book builder: nothing is expanded past max-ply or outside the margin", "[book]") {
  const BuildSettings shallow{1000, 2, 15, 3};
  const Book b = build(shallow, 100000);  // stops by itself: every line within the limits is done
  for (const BookEntry& e : b.entries()) {
    CHECK(e.ply <= 2);
    if (e.ply == 2)
      for (const BookMove& m : e.moves) CHECK_FALSE(m.in_book);
  }
  // Built to the end: the move left outside the book of the root, and of the positions its moves
  // within the margin lead to, gives away more than the margin.
  const auto left_out_beyond_margin = [&](const BookEntry& e) {
    for (const BookMove& m : e.moves)
      if (!m.in_book) CHECK(best_score(e) - m.score > shallow.margin);
  };
  const BookEntry& root = b.entry(0);
  left_out_beyond_margin(root);
  for (const BookMove& m : root.moves)
    if (m.in_book && best_score(root) - m.score <= shallow.margin)
      left_out_beyond_margin(*b.find(root.position.after(m.move)));
}

TEST_CASE("book builder: a resumed build is the uninterrupted one", "[book]") {
  const Book whole = build(kSettings, 90);
  Book half = build(kSettings, 35);
  const Expected<Book> saved = parse_book(serialize_book(half), "half.book");
  REQUIRE(saved.has_value());
  const Book resumed = build(kSettings, 90, *saved);
  CHECK(serialize_book(resumed) == serialize_book(whole));
}

TEST_CASE("book builder: a book without the initial position is not built on", "[book]") {
  Book other;
  other.settings = kSettings;
  const Position start = Position::start();
  MoveList moves;
  generate_legal_moves(start, moves);
  REQUIRE(other.add(BookEntry{start.after(moves[0]), 1, {}}));
  CHECK_FALSE(Builder::resume(other).has_value());
}

TEST_CASE("damas book build, info and probe: a tiny book, resumed, and clear refusals", "[book]") {
  const std::string dir = "/tmp/damas-book-build-test-" + std::to_string(getpid());
  std::string out;
  REQUIRE(test::run_command("mkdir -p " + dir, out) == 0);
  const std::string whole = dir + "/whole.book";
  const std::string resumed = dir + "/resumed.book";
  const std::string build =
      std::string(DAMAS_BINARY) + " book build --nodes 2000 --hash 4 --eval classic --out ";
  REQUIRE(test::run_command(build + whole + " --positions 30", out) == 0);
  CHECK(out.find("30 positions") != std::string::npos);
  REQUIRE(test::run_command(build + resumed + " --positions 12", out) == 0);
  REQUIRE(test::run_command(build + resumed + " --positions 30", out) == 0);
  CHECK(out.find("going on from") != std::string::npos);
  CHECK(test::run_command("cmp " + whole + " " + resumed, out) == 0);

  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " book info " + whole, out) == 0);
  CHECK(out.find("30 positions") != std::string::npos);
  CHECK(out.find("--nodes 2000") != std::string::npos);
  CHECK(out.find("main line") != std::string::npos);
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " book probe " + whole, out) == 0);
  CHECK(out.find("in the book, ply 0") != std::string::npos);
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " book probe " + whole + " --fen W:W31:B2", out) ==
          0);
  CHECK(out.find("not in the book") != std::string::npos);

  // Other settings do not go on with the file; a damaged file is not overwritten.
  CHECK(test::run_command(build + whole + " --positions 40 --margin 0.5", out) == 2);
  CHECK(out.find("give the same") != std::string::npos);
  {
    std::fstream f(whole, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(70);
    f.put('\x55');
  }
  CHECK(test::run_command(build + whole + " --positions 40", out) == 2);
  CHECK(out.find("checksum") != std::string::npos);
  CHECK(test::run_command(std::string(DAMAS_BINARY) + " book info " + whole, out) == 1);
  CHECK(out.find("checksum") != std::string::npos);
  CHECK(test::run_command(std::string(DAMAS_BINARY) + " book frobnicate", out) == 2);
  REQUIRE(test::run_command("rm -r " + dir, out) == 0);
}

TEST_CASE("book builder: a game's book grows from that game's start", "[book][russian]") {
  Book russian;
  russian.variant = Variant::Russian;
  const Book built = build(kSettings, 20, russian);
  REQUIRE(built.size() == 20);
  CHECK(built.variant == Variant::Russian);
  for (const BookEntry& e : built.entries()) CHECK(e.position.variant() == Variant::Russian);
  CHECK(built.find(Position::start(Variant::Russian)) != nullptr);
  CHECK(main_line(built) == main_line(built, Position::start(Variant::Russian)));
  CHECK_FALSE(main_line(built).empty());
}

TEST_CASE("damas book build --variant russian: the file names its game, resumed only as that game",
          "[book][russian]") {
  const std::string path = "/tmp/damas-book-russian-build-" + std::to_string(getpid()) + ".book";
  const std::string build =
      std::string(DAMAS_BINARY) + " book build --nodes 2000 --hash 4 --eval classic --out ";
  std::string out;
  REQUIRE(test::run_command(build + path + " --variant russian --positions 6", out) == 0);
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " book info " + path, out) == 0);
  CHECK(out.find("opening book for russian, version 1, 6 positions") != std::string::npos);
  const Expected<Book> read = read_book(path);
  REQUIRE(read.has_value());
  CHECK(read->variant == Variant::Russian);
  CHECK(test::run_command(build + path + " --positions 8", out) == 2);
  CHECK(out.find("is a book of russian draughts: give --variant russian to go on with it") !=
        std::string::npos);
  REQUIRE(test::run_command(build + path + " --variant russian --positions 8", out) == 0);
  CHECK(out.find("going on from") != std::string::npos);
  // probe looks the position up in the book's game, with no --variant.
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " book probe " + path, out) == 0);
  CHECK(out.find("in the book, ply 0") != std::string::npos);
  // Another game's book is not found under this one's name.
  CHECK(test::run_command(
            "DAMAS_BOOK= HOME=/nonexistent " + std::string(DAMAS_BINARY) + " book info --variant czech",
            out) == 1);
  CHECK(out.find("no opening book found for czech") != std::string::npos);
  std::remove(path.c_str());
}
