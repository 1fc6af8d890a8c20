// The opening book file (book/book_file.h): what is written is read back the same, and a
// truncated, damaged, foreign or impossible file is refused with an error that says why.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "damas/book/book_file.h"
#include "damas/core/binary_io.h"
#include "damas/core/notation.h"
#include "rules_helpers.h"

using namespace damas;
using namespace damas::book;
using damas::testing::move;

namespace {

BookMove scored(const Position& p, const char* text, Score score, int depth, std::uint32_t expansions,
                bool in_book) {
  return BookMove{move(p, text), score, depth, expansions, in_book};
}

// The initial position with two moves in the book and one searched outside it.
Book small_book() {
  Book book;
  book.settings = BuildSettings{20000, 16, 30, 4};
  const Position start = Position::start();
  const Position a = start.after(move(start, "22-18"));
  const Position b = start.after(move(start, "21-17"));
  REQUIRE(book.add(BookEntry{start,
                             0,
                             {scored(start, "22-18", 5, 12, 2, true), scored(start, "21-17", -3, 11, 1, true),
                              scored(start, "23-19", 2, 10, 0, false)}}));
  REQUIRE(book.add(BookEntry{a, 1, {scored(a, "11-15", -5, 11, 0, false)}}));
  REQUIRE(book.add(BookEntry{b, 1, {scored(b, "9-13", 3, 10, 0, false)}}));
  return book;
}

// The checksum of bytes changed on purpose, so that the check after it is what refuses them.
void fix_checksum(std::vector<unsigned char>& bytes) {
  const std::uint64_t head = fnv1a64(bytes.data(), 56);
  put_le(&bytes[56], fnv1a64(bytes.data() + 64, bytes.size() - 64, head), 8);
}

std::string refusal(const std::vector<unsigned char>& bytes) {
  const Expected<Book> read = parse_book(bytes, "test.book");
  REQUIRE_FALSE(read.has_value());
  CHECK(read.error().rfind("test.book: ", 0) == 0);
  return read.error();
}

bool says(const std::string& error, const char* what) {
  INFO(error);
  return error.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("book file: what is written is read back the same", "[book]") {
  const Book book = small_book();
  const std::vector<unsigned char> bytes = serialize_book(book);
  CHECK(bytes.size() == kBookHeaderBytes + 3 * kBookPositionBytes + 5 * kBookMoveBytes);
  const Expected<Book> read = parse_book(bytes, "test.book");
  REQUIRE(read.has_value());
  CHECK(read->settings == book.settings);
  CHECK(read->entries() == book.entries());
  CHECK(serialize_book(*read) == bytes);

  const std::string path = "/tmp/damas-book-file-test-" + std::to_string(getpid()) + ".book";
  REQUIRE(write_book(path, book));
  const Expected<Book> from_disk = read_book(path);
  REQUIRE(from_disk.has_value());
  CHECK(from_disk->entries() == book.entries());
  std::remove(path.c_str());
}

TEST_CASE("book file: positions are found by key and checked whole", "[book]") {
  const Book book = small_book();
  const Position start = Position::start();
  REQUIRE(book.find(start));
  CHECK(book.find(start)->moves.size() == 3);
  CHECK(best_score(*book.find(start)) == 5);
  CHECK(book.index_of(start.after(move(start, "21-17"))) == std::optional<std::size_t>{2});
  CHECK_FALSE(book.find(start.after(move(start, "24-20"))));
  Book twice = small_book();
  CHECK_FALSE(twice.add(BookEntry{start, 0, {}}).has_value());
}

TEST_CASE("book file: a truncated, damaged or foreign file is refused with the reason", "[book]") {
  const std::vector<unsigned char> good = serialize_book(small_book());

  std::vector<unsigned char> cut = good;
  cut.pop_back();
  CHECK(says(refusal(cut), "truncated"));
  cut.resize(40);
  CHECK(says(refusal(cut), "truncated"));
  CHECK(says(refusal({}), "truncated"));

  std::vector<unsigned char> damaged = good;
  damaged[kBookHeaderBytes + 20] ^= 0x10;  // a byte of the first move
  CHECK(says(refusal(damaged), "checksum"));

  std::vector<unsigned char> foreign = good;
  std::memcpy(&foreign[12], "international\0\0\0", 16);
  fix_checksum(foreign);
  CHECK(says(refusal(foreign), "a book for \"international\", a game this damas does not play"));

  std::vector<unsigned char> trailing = good;  // "brazilian" and then a byte that is not padding
  trailing[12 + 10] = 'x';
  fix_checksum(trailing);
  CHECK(says(refusal(trailing), "a game this damas does not play"));

  std::vector<unsigned char> newer = good;
  put_le(&newer[8], 2, 4);
  fix_checksum(newer);
  CHECK(says(refusal(newer), "book version 2, this damas reads version 1"));

  std::vector<unsigned char> other = good;
  other[0] = 'X';
  CHECK(says(refusal(other), "not a damas opening book"));

  std::vector<unsigned char> miscounted = good;
  put_le(&miscounted[32], 4, 4);  // four moves where there are five, one move's bytes too many
  CHECK(says(refusal(miscounted), "does not match"));
}

TEST_CASE("book file: a book is of one game, named in its header, its moves legal by that game's rules",
          "[book]") {
  // Russian lets a capture take fewer pieces than another one; Brazilian takes the most.
  const Position p = testing::fen("W:W22:B17,18,10,11", Variant::Russian);
  Book russian;
  russian.variant = Variant::Russian;
  russian.settings = BuildSettings{1000, 10, 30, 3};
  REQUIRE(russian.add(BookEntry{p, 0, {scored(p, "22x13", 100, 9, 0, false)}}));
  const std::vector<unsigned char> bytes = serialize_book(russian);
  CHECK(std::memcmp(&bytes[12], "russian\0\0\0\0\0\0\0\0\0", 16) == 0);
  const Expected<Book> read = parse_book(bytes, "test.book");
  REQUIRE(read.has_value());
  CHECK(read->variant == Variant::Russian);
  REQUIRE(read->find(p) != nullptr);  // its positions are of its game
  CHECK(read->find(p.with_variant(Variant::Brazilian)) == nullptr);
  CHECK(serialize_book(*read) == bytes);
  // A position of another game is not added.
  const Expected<std::size_t> foreign = russian.add(BookEntry{Position::start(), 0, {}});
  REQUIRE_FALSE(foreign.has_value());
  CHECK(foreign.error() == "a position of brazilian draughts in a book of russian");

  std::vector<unsigned char> as_brazilian = bytes;  // the same moves read by Brazilian rules
  std::memcpy(&as_brazilian[12], "brazilian\0\0\0\0\0\0\0", 16);
  fix_checksum(as_brazilian);
  CHECK(says(refusal(as_brazilian), "move 22x13x17 is not legal"));
}

TEST_CASE("book file: impossible contents are refused even with a good checksum", "[book]") {
  const Position start = Position::start();
  Book illegal;
  REQUIRE(illegal.add(BookEntry{start, 0, {BookMove{move(start.after(move(start, "22-18")), "11-15")}}}));
  CHECK(says(refusal(serialize_book(illegal)), "position 0: move 11-15 is not legal"));

  Book twice;
  REQUIRE(twice.add(BookEntry{start, 0, {BookMove{move(start, "22-18")}, BookMove{move(start, "22-18")}}}));
  CHECK(says(refusal(serialize_book(twice)), "move 22-18 twice"));

  Book orphan;
  REQUIRE(orphan.add(BookEntry{start, 0, {scored(start, "22-18", 0, 1, 1, true)}}));
  CHECK(says(refusal(serialize_book(orphan)), "its position is missing"));

  std::vector<unsigned char> overlap = serialize_book(small_book());
  put_le(&overlap[kBookHeaderBytes + 4], 1u << 20, 4);  // a black piece on square 21, White's too
  fix_checksum(overlap);
  CHECK(says(refusal(overlap), "position 0: pieces overlap"));
}

TEST_CASE("book file: moves that come back to a position are refused", "[book]") {
  // Two kings each way: White and Black move their kings out and back, four positions in a cycle.
  const Expected<Position> p0 = parse_fen("W:WK32:BK1");
  REQUIRE(p0.has_value());
  const Position p1 = p0->after(move(*p0, "32-28"));
  const Position p2 = p1.after(move(p1, "1-5"));
  const Position p3 = p2.after(move(p2, "28-32"));
  REQUIRE(p3.after(move(p3, "5-1")) == *p0);
  Book cycle;
  REQUIRE(cycle.add(BookEntry{*p0, 0, {scored(*p0, "32-28", 0, 1, 1, true)}}));
  REQUIRE(cycle.add(BookEntry{p1, 1, {scored(p1, "1-5", 0, 1, 1, true)}}));
  REQUIRE(cycle.add(BookEntry{p2, 2, {scored(p2, "28-32", 0, 1, 1, true)}}));
  REQUIRE(cycle.add(BookEntry{p3, 3, {scored(p3, "5-1", 0, 1, 1, true)}}));
  CHECK(says(refusal(serialize_book(cycle)), "come back to position"));
}

TEST_CASE("book file: a missing path or a directory is an error naming it", "[book]") {
  const Expected<Book> missing = read_book("/tmp/damas-no-such-book.book");
  REQUIRE_FALSE(missing.has_value());
  CHECK(says(missing.error(), "/tmp/damas-no-such-book.book"));
  const Expected<Book> directory = read_book("/tmp");
  REQUIRE_FALSE(directory.has_value());
  CHECK(says(directory.error(), "not a regular file"));
}
