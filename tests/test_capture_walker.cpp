// The one capture walker (core/capture_walker.h) behind move generation and the notation's
// capture routes, and the small shared helpers of core: legal prefix, input echo, numbering names,
// score text.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "damas/core/input_echo.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"

using namespace damas;

namespace {

std::vector<Position> perft_file_positions() {
  std::ifstream in(std::string(DAMAS_SOURCE_DIR) + "/tests/data/perft-positions.txt");
  REQUIRE(in.good());
  std::vector<Position> out;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("fen: ", 0) == 0) {
      const Expected<Position> p = parse_fen(line.substr(5));
      REQUIRE(p.has_value());
      out.push_back(*p);
    }
  REQUIRE(out.size() >= 5);
  return out;
}

// The positions of the perft file and every position two plies after them: captures of men and
// kings, long, branching and crossing ones, played by the rules of `variant`.
std::vector<Position> capture_test_positions(Variant variant) {
  std::vector<Position> out;
  for (const Position& file_position : perft_file_positions()) {
    const Position root = file_position.with_variant(variant);
    out.push_back(root);
    MoveList first;
    generate_legal_moves(root, first);
    for (const Move& a : first) {
      const Position p1 = root.after(a);
      out.push_back(p1);
      MoveList second;
      generate_legal_moves(p1, second);
      for (const Move& b : second) out.push_back(p1.after(b));
    }
  }
  return out;
}

struct Cell {
  int file = 0;  // a = 0
  int rank = 0;  // 1 = 0
};
Cell cell_of(Square s) {
  const std::string name = square_name(s);
  return {name[0] - 'a', name[1] - '1'};
}

// Checks a route by board geometry alone (an oracle apart from the walker): each leg runs along
// one diagonal from the last square and jumps exactly one piece of m.captured, a man's leg is two
// squares long (until it lands on its far row, where the row crowns mid-capture) and goes forward
// where men capture forward only, no piece is jumped twice, and together the legs jump all of
// m.captured.
bool route_is_sound(const Position& p, const Move& m, const std::vector<Square>& route) {
  bool king = (p.kings() & bb(m.from)) != 0;
  const rules::Table& rules = rules::of(p.variant());
  const bool crowns_on_the_way = rules.crown_mid_capture;
  const int forward = p.side_to_move() == Color::White ? 1 : -1;
  const Bitboard empty = p.empty() | bb(m.from);
  Bitboard jumped = 0;
  Cell at = cell_of(m.from);
  for (const Square next : route) {
    const Cell to = cell_of(next);
    const int df = to.file - at.file;
    const int dr = to.rank - at.rank;
    if (df == 0 || std::abs(df) != std::abs(dr) || (!king && std::abs(df) != 2)) return false;
    if (!king && !rules.men_capture_backward && dr * forward < 0) return false;
    Bitboard between = 0;
    for (int k = 1; k < std::abs(df); ++k) {
      const int file = at.file + k * (df > 0 ? 1 : -1);
      const int rank = at.rank + k * (dr > 0 ? 1 : -1);
      const std::string name{static_cast<char>('a' + file), static_cast<char>('1' + rank)};
      const Expected<Square> sq = parse_square_name(name);
      if (!sq) return false;
      if (!(empty & bb(*sq))) between |= bb(*sq);
    }
    if (popcount(between) != 1 || !(between & m.captured) || (between & jumped)) return false;
    if (!(empty & bb(next))) return false;
    jumped |= between;
    at = to;
    king = king || (crowns_on_the_way && (bb(next) & promotion_row(p.side_to_move())));
  }
  return jumped == m.captured && !route.empty() && route.back() == m.to;
}

}  // namespace

namespace {

// Every legal capture of the positions has routes, distinct and each sound by geometry; a man's
// capture ends as a king exactly when a route lands on its far row (where the row crowns
// mid-capture) or ends there; elsewhere a man passing the far row goes on as a man.
void check_routes(Variant variant) {
  INFO(to_string(variant));
  const bool crown_mid_capture = rules::of(variant).crown_mid_capture;
  std::size_t captures = 0;
  std::size_t several_routes = 0;
  std::size_t crowned_on_the_way = 0;
  std::size_t passed_as_man = 0;
  for (const Position& p : capture_test_positions(variant)) {
    MoveList list;
    generate_legal_moves(p, list);
    const Bitboard far_row = promotion_row(p.side_to_move());
    for (const Move& m : list) {
      const std::vector<std::vector<Square>> routes = capture_routes(p, m);
      if (!m.is_capture()) {
        CHECK(routes.empty());
        continue;
      }
      ++captures;
      INFO(to_fen(p) << " " << to_hub_move(m));
      REQUIRE_FALSE(routes.empty());
      const std::set<std::vector<Square>> distinct(routes.begin(), routes.end());
      CHECK(distinct.size() == routes.size());
      for (const std::vector<Square>& r : routes) CHECK(route_is_sound(p, m, r));
      if (routes.size() > 1) ++several_routes;
      if (p.kings() & bb(m.from)) continue;
      for (const std::vector<Square>& r : routes) {
        bool crossed = false;
        for (const Square s : r) crossed = crossed || (bb(s) & far_row);
        const bool crowns = crown_mid_capture ? crossed : (bb(m.to) & far_row) != 0;
        CHECK(((p.after(m).kings() & bb(m.to)) != 0) == crowns);
        crowned_on_the_way += crossed && !(bb(m.to) & far_row) && crowns;
        passed_as_man += crossed && !(bb(m.to) & far_row) && !crowns;
      }
    }
  }
  CHECK(captures > 100);      // the majority rules keep fewer of the sequences (Spanish: 129)
  CHECK(several_routes > 0);  // the set has captures reached along more than one route
  // A man met the far row mid-capture and went on: as a king where the row crowns mid-capture,
  // as a man where men capture backward (Pool); where men capture forward only it never can.
  if (crown_mid_capture) CHECK(crowned_on_the_way > 0);
  else if (rules::of(variant).men_capture_backward) CHECK(passed_as_man > 0);
  else CHECK(passed_as_man == 0);
}

}  // namespace

TEST_CASE("capture walker: routes of every variant are sound, and crown as generation does",
          "[notation][movegen]") {
  for (const Variant variant : kVariants) check_routes(variant);
}

TEST_CASE("legal prefix: a line is cut before its first move that is not legal where played", "[movegen]") {
  const Position start = Position::start();
  const Expected<Move> a = parse_hub_move(start, "22-18");
  REQUIRE(a.has_value());
  const Position after_a = start.after(*a);
  const Expected<Move> b = parse_hub_move(after_a, "11-15");
  REQUIRE(b.has_value());
  CHECK(legal_prefix(start, {*a, *b}) == std::vector<Move>{*a, *b});
  CHECK(legal_prefix(start, {*a, *a, *b}) == std::vector<Move>{*a});  // 22-18 twice: not legal for Black
  CHECK(legal_prefix(start, {*b, *a}).empty());
  CHECK(legal_prefix(start, {}).empty());
  CHECK(is_legal(start, *a));
  CHECK_FALSE(is_legal(start, *b));
  CHECK_FALSE(is_legal(start, kNullMove));
}

TEST_CASE("input echo: short, printable, and free of double quotes", "[notation]") {
  CHECK(echo_input("22-18") == "22-18");
  CHECK(echo_input("say \"hi\"") == "say 'hi'");
  CHECK(echo_input(std::string("a\tb\x01\x7f\xc3", 6)) == "a?b???");
  const std::string long_text(100, 'x');
  CHECK(echo_input(long_text) == std::string(40, 'x') + "...");
  CHECK(echo_input("") == "");
}

TEST_CASE("numbering names: standard and a1, nothing else", "[notation]") {
  CHECK(parse_numbering("standard") == Numbering::Standard);
  CHECK(parse_numbering("a1") == Numbering::A1);
  CHECK_FALSE(parse_numbering("A1").has_value());
  CHECK_FALSE(parse_numbering("").has_value());
}

TEST_CASE("score text: the side to move's and White's view", "[notation]") {
  CHECK(score_text(35) == "+0.35");
  CHECK(score_text(-120) == "-1.20");
  CHECK(score_text(kScoreWin - 7) == "win in 7");
  CHECK(score_text(-(kScoreWin - 7)) == "loss in 7");
  CHECK(white_score_text(35) == "+0.35");
  CHECK(white_score_text(kScoreWin - 7) == "White wins in 7 plies");
  CHECK(white_score_text(-(kScoreWin - 7)) == "Black wins in 7 plies");
}
