// FEN, Hub position strings, move strings: round trips and errors.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"

using namespace damas;

namespace {

std::vector<Position> random_positions(int count) {
  std::vector<Position> out;
  std::uint64_t state = 42;
  while (static_cast<int>(out.size()) < count) {
    Position p = Position::start();
    for (int ply = 0; ply < 120; ++ply) {
      MoveList moves;
      generate_legal_moves(p, moves);
      if (moves.empty()) break;
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      p = p.after(moves[static_cast<std::size_t>((state >> 33) % moves.size())]);
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("notation: start FEN, ranges and kings", "[notation]") {
  const Expected<Position> p = parse_fen(kStartFen);
  REQUIRE(p.has_value());
  CHECK(*p == Position::start());
  CHECK(to_fen(Position::start()) == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
  const Expected<Position> k = parse_fen("B:WK5,18:BK29,1-2");
  REQUIRE(k.has_value());
  CHECK(k->side_to_move() == Color::Black);
  CHECK(popcount(k->kings()) == 2);
  CHECK(to_fen(*k) == "B:WK5,18:B1,2,K29");  // squares ascending, kings marked
  CHECK(parse_fen("W:W:B1").has_value());    // a side without pieces has lost, but is valid
  CHECK(parse_fen("W:B1:W").has_value());    // fields in either order
  CHECK(parse_fen("  W:W21-32:B1-12  ").has_value());
}

TEST_CASE("notation: FEN and Hub position strings round-trip", "[notation]") {
  for (const Position& p : random_positions(2000)) {
    const Expected<Position> f = parse_fen(to_fen(p));
    REQUIRE(f.has_value());
    CHECK(*f == p);
    const Expected<Position> h = parse_hub_position(to_hub_position(p));
    REQUIRE(h.has_value());
    CHECK(*h == p);
  }
}

TEST_CASE("notation: malformed FENs are errors with a reason", "[notation]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "empty"},
      {"X:W21:B1", "side"},
      {"W:W33:B1", "square"},
      {"W:W0:B1", "square"},
      {"W:W21,21:B1", "twice"},
      {"W:W21:B21", "twice"},
      {"W:W1:B9", "crowned"},    // white man on its crowning row
      {"W:W21:B30", "crowned"},  // black man on its crowning row
      {"W:W13-32:B1", "12"},     // 20 white pieces
      {"W:W21-:B1", "range"},
      {"W:W5-3:B1", "range"},
      {"W:Wabc:B1", "square"},
      {"W:X21:B1", "W or B"},
      {"W:W21:W22", "same colour"},
      {"W:W21:B1:W3", "too many"},
      {"W::B1", "empty"},
      {"W:WK:B1", "square"},
      {"W:W99999999999999999999:B1", "square"},
      {std::string(100000, 'W'), "side"},
  };
  for (const auto& [text, reason] : bad) {
    const Expected<Position> p = parse_fen(text);
    INFO(text.substr(0, 60));
    REQUIRE_FALSE(p.has_value());
    CHECK_THAT(p.error(), Catch::Contains(reason));
  }
}

TEST_CASE("notation: FENs with algebraic squares (lidraughts, pydraughts ballots) read like numeric ones",
          "[notation]") {
  // Ballot I-1 of the FMJD-64 Brazilian table, as pydraughts' ballot file and our .txt write it.
  const Expected<Position> alg =
      parse_fen("B:Wa1,c3,e3,g3,b4,c1,e1,g1,b2,d2,f2,h2:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8");
  const Expected<Position> num =
      parse_fen("B:W29,22,23,24,17,30,31,32,25,26,27,28:B9,10,11,12,5,6,7,8,1,2,3,4");
  REQUIRE(alg.has_value());
  REQUIRE(num.has_value());
  CHECK(*alg == *num);
  const Expected<Position> kings = parse_fen("W:WKd4,c3:BKh8,b6");
  REQUIRE(kings.has_value());
  CHECK(to_fen(*kings) == "W:WK18,22:BK4,9");
  CHECK(to_fen(*kings, FenStyle::Algebraic) == "W:WKd4,c3:BKh8,b6");
}

TEST_CASE("notation: FEN output in algebraic style reads back to the same position", "[notation]") {
  CHECK(to_fen(Position::start(), FenStyle::Algebraic) ==
        "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6");
  for (const Position& p : random_positions(500)) {
    const Expected<Position> f = parse_fen(to_fen(p, FenStyle::Algebraic));
    REQUIRE(f.has_value());
    CHECK(*f == p);
  }
}

TEST_CASE("notation: bad algebraic FEN squares are errors naming the token", "[notation]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"W:Wa2:Bb8", "\"a2\" is a light square"},
      {"W:Wi9:Bb8", "\"i9\""},
      {"W:Wc3,c3:Bb8", "\"c3\" is used twice"},
      {"W:Wc3:Bc3", "\"c3\" is used twice"},
      {"W:Wb8:Bd6", "crowned"},
      {"W:Wc33:Bb8", "\"c33\""},
      {"W:WKz:Bb8", "\"z\""},
  };
  for (const auto& [text, reason] : bad) {
    const Expected<Position> p = parse_fen(text);
    INFO(text);
    REQUIRE_FALSE(p.has_value());
    CHECK_THAT(p.error(), Catch::Contains(reason));
  }
}

TEST_CASE("notation: malformed Hub position strings are errors", "[notation]") {
  CHECK_FALSE(parse_hub_position("").has_value());
  CHECK_FALSE(parse_hub_position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwww").has_value());   // 32 chars
  CHECK_FALSE(parse_hub_position("Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").has_value());  // side
  CHECK_FALSE(parse_hub_position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx").has_value());  // letter
  CHECK_FALSE(parse_hub_position("Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").has_value());  // man on row 8
  const Expected<Position> start = parse_hub_position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
  REQUIRE(start.has_value());
  CHECK(*start == Position::start());
  // HUB.md section 9: white men a1, c1, black man h8, black king b8.
  const Expected<Position> p = parse_hub_position("WBeebeeeeeeeeeeeeeeeeeeeeeeeewwee");
  REQUIRE(p.has_value());
  CHECK(to_fen(*p) == "W:W29,30:BK1,4");
}

TEST_CASE("notation: Hub moves are written with captures ascending and read in any order", "[notation]") {
  const Position p = *parse_fen("W:WK22:B18,19,26,27");
  const Expected<Move> m = parse_hub_move(p, "22x13x27x18x26x19");
  REQUIRE(m.has_value());
  CHECK(to_hub_move(*m) == "22x13x18x19x26x27");
  CHECK(parse_hub_move(p, "22x22x18x19x26x27").has_value());  // circular: from == to
  // Missing captured squares: accepted only when from and to name one move.
  CHECK(parse_hub_move(p, "22x17").has_value());
  const Position amb = *parse_fen("B:WK6,11,12,14,17,20:BK2");
  const Expected<Move> ambiguous = parse_hub_move(amb, "2x4");
  REQUIRE_FALSE(ambiguous.has_value());
  CHECK_THAT(ambiguous.error(), Catch::Contains("ambiguous"));
}

TEST_CASE("notation: malformed or illegal Hub moves are errors", "[notation]") {
  const Position start = Position::start();
  for (const char* text : {"", "-", "x", "22", "22-", "-18", "22-18-14", "22x18-14", "22-33", "0-4", "22--18",
                           "a-b", "22-18 ", "99999999999999999999-1", "22x18x", "22xx18", "1-5", "22-17x3"}) {
    INFO(text);
    const Expected<Move> m = parse_hub_move(start, text);
    if (std::string(text) == "22-18 ") {
      CHECK(m.has_value());  // surrounding blanks are trimmed
      continue;
    }
    CHECK_FALSE(m.has_value());
  }
  CHECK_THAT(parse_hub_move(start, "21-18").error(), Catch::Contains("illegal"));
  // A quiet move while a capture is compulsory.
  const Position capture = *parse_fen("W:W18,30:B22,23");
  CHECK_FALSE(parse_hub_move(capture, "30-26").has_value());
  // A capture missing one of its captured squares.
  const Position loop = *parse_fen("W:WK22:B18,19,26,27");
  CHECK_FALSE(parse_hub_move(loop, "22x22x18x19x26").has_value());
  CHECK_FALSE(parse_hub_move(loop, "22x22x18x19x26x27x27").has_value());
}

TEST_CASE("notation: a1 numbering converts both ways", "[notation]") {
  CHECK(to_numbering(1, Numbering::A1) == 29);  // b8
  CHECK(to_numbering(29, Numbering::A1) == 1);  // a1
  CHECK(to_numbering(32, Numbering::A1) == 4);  // g1
  CHECK(to_numbering(4, Numbering::A1) == 32);  // h8
  for (int n = 1; n <= 32; ++n) CHECK(from_numbering(to_numbering(n, Numbering::A1), Numbering::A1) == n);
}

TEST_CASE("notation: the pydraughts game of HUB.md section 13 in a1 numbering", "[notation]") {
  const Position start = *parse_hub_position("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
  std::vector<Move> played;
  const Expected<std::vector<Move>> moves =
      parse_move_list(start, "10-14 23-19 14x23x19 28x19x23 6-10 24-20 12-16 31-28", Numbering::A1, &played);
  REQUIRE(moves.has_value());
  Position p = start;
  for (const Move& m : *moves) p = p.after(m);
  CHECK(to_hub_position(p) == "Wbbebbbbbbbeeeebbeeewwwwewewwwwww");
  const Expected<Move> double_capture = parse_hub_move(p, "16x14x19x20", Numbering::A1);
  REQUIRE(double_capture.has_value());
  CHECK(to_hub_move(*double_capture, Numbering::A1) == "16x14x19x20");
  CHECK(to_algebraic(p, *double_capture) == "h4:d4");
  // Algebraic equivalents given there: c3-d4 f6-e5 d4xf6 g7xe5.
  CHECK(to_algebraic(start, (*moves)[0]) == "c3-d4");
}

TEST_CASE("notation: an illegal move in a list keeps the legal prefix", "[notation]") {
  std::vector<Move> played;
  const Expected<std::vector<Move>> moves =
      parse_move_list(Position::start(), "22-18 9-13 18-9 11-15", Numbering::Standard, &played);
  REQUIRE_FALSE(moves.has_value());
  CHECK_THAT(moves.error(), Catch::Contains("move 3"));
  CHECK(played.size() == 2);
}

TEST_CASE("notation: algebraic moves, with landing squares only where needed", "[notation]") {
  const Position start = Position::start();
  const Expected<Move> m = parse_algebraic(start, "c3-d4");
  REQUIRE(m.has_value());
  CHECK(to_hub_move(*m) == "22-18");
  CHECK_FALSE(parse_algebraic(start, "c3-c4").has_value());
  CHECK_FALSE(parse_algebraic(start, "c3-e5").has_value());
  CHECK_FALSE(parse_algebraic(start, "z9-d4").has_value());
  // Same from and to, different captured sets: the route tells them apart.
  const Position p = *parse_fen("B:WK6,11,12,14,17,20:BK2");
  MoveList list;
  generate_legal_moves(p, list);
  for (const Move& legal : list) {
    const std::string text = to_algebraic(p, legal);
    INFO(text);
    CHECK(text.size() > 5);  // has intermediate squares
    const Expected<Move> back = parse_algebraic(p, text);
    REQUIRE(back.has_value());
    CHECK(*back == legal);
  }
  CHECK_FALSE(parse_algebraic(p, "d8:h8").has_value());  // ambiguous without a route
}

TEST_CASE("notation: every legal move round-trips through every notation", "[notation]") {
  for (const Position& p : random_positions(1500)) {
    MoveList list;
    generate_legal_moves(p, list);
    for (const Move& m : list) {
      for (Numbering n : {Numbering::Standard, Numbering::A1}) {
        const Expected<Move> back = parse_hub_move(p, to_hub_move(m, n), n);
        REQUIRE(back.has_value());
        CHECK(*back == m);
      }
      const Expected<Move> alg = parse_algebraic(p, to_algebraic(p, m));
      INFO(to_fen(p) << " " << to_algebraic(p, m));
      REQUIRE(alg.has_value());
      CHECK(*alg == m);
    }
  }
}

TEST_CASE("notation: square names", "[notation]") {
  CHECK(square_name(square_from_number(1)) == "b8");
  CHECK(square_name(square_from_number(5)) == "a7");
  CHECK(square_name(square_from_number(29)) == "a1");
  CHECK(square_name(square_from_number(32)) == "g1");
  for (int n = 1; n <= 32; ++n)
    CHECK(*parse_square_name(square_name(square_from_number(n))) == square_from_number(n));
  CHECK_FALSE(parse_square_name("a2").has_value());  // light square
  CHECK_FALSE(parse_square_name("i1").has_value());
}

TEST_CASE("notation: lidraughts' FENs with their :H0:F1 counters read like the plain ones",
          "[notation][russian]") {
  // Russian's initial FEN as lidraughts writes it; the counters follow both piece fields.
  const Expected<Position> start =
      parse_fen("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12:H0:F1");
  REQUIRE(start.has_value());
  CHECK(*start == Position::start());
  CHECK(start->with_variant(Variant::Russian) == Position::start(Variant::Russian));
  CHECK(parse_fen("B:WK3,30:BK5:H12:F40").value() == parse_fen("B:WK3,30:BK5").value());
  // Counters where piece fields belong, or not counters at all, are refused as before.
  for (const char* bad : {"W:H0:F1", "W:W21:B1:H", "W:W21:B1:Hx", "W:W21:B1:X0"}) {
    INFO(bad);
    CHECK_FALSE(parse_fen(bad).has_value());
  }
  // What damas writes is unchanged: no counters.
  CHECK(to_fen(*start) == to_fen(Position::start()));
  CHECK(to_fen(*start).find(":H") == std::string::npos);
}

TEST_CASE("notation: parse_decimal reads 1 to max_digits digits and nothing else", "[notation]") {
  CHECK(parse_decimal("0", 2) == 0);
  CHECK(parse_decimal("32", 2) == 32);
  CHECK(parse_decimal("007", 3) == 7);
  CHECK(parse_decimal("123", 2) == -1);  // too long
  CHECK(parse_decimal("", 2) == -1);
  CHECK(parse_decimal("-1", 4) == -1);
  CHECK(parse_decimal("+1", 4) == -1);
  CHECK(parse_decimal("1 ", 4) == -1);
  CHECK(parse_decimal("1a", 4) == -1);
}
