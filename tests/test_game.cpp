// The game referee: legality, threefold repetition, the 80-ply rule, no legal move.
#include <catch2/catch.hpp>

#include "damas/core/game.h"
#include "damas/core/notation.h"

using namespace damas;

namespace {
Move move(const Game& g, const char* text) {
  const Expected<Move> m = parse_hub_move(g.current(), text);
  INFO(text);
  REQUIRE(m.has_value());
  return *m;
}
}  // namespace

TEST_CASE("game: an illegal move is refused and changes nothing", "[game]") {
  Game g;
  const Move bad{0, square_from_number(21), square_from_number(18)};
  CHECK_FALSE(g.play(bad).has_value());
  CHECK(g.moves().empty());
  CHECK(g.play(move(g, "22-18")).has_value());
  CHECK(g.moves().size() == 1);
  CHECK(g.result() == GameResult::Ongoing);
}

TEST_CASE("game: threefold repetition is a draw", "[game]") {
  Game g(*parse_fen("W:WK29:BK1"));
  const char* cycle[] = {"29-25", "1-5", "25-29", "5-1"};
  for (int round = 0; round < 2; ++round) {
    CHECK(g.result() == GameResult::Ongoing);
    for (const char* m : cycle) REQUIRE(g.play(move(g, m)).has_value());
  }
  CHECK(g.repetitions() == 3);
  CHECK(g.result() == GameResult::Draw);
  CHECK(g.end_reason() == GameEndReason::Repetition);
  g.undo(1);
  CHECK(g.result() == GameResult::Ongoing);
}

TEST_CASE("game: 80 plies without capture or man move is a draw", "[game]") {
  const Position p = *parse_fen("W:WK29:BK1");
  Game g(Position::from_pieces(p.pieces(Color::White), p.pieces(Color::Black), p.kings(), Color::White, 79));
  CHECK(g.result() == GameResult::Ongoing);
  REQUIRE(g.play(move(g, "29-25")).has_value());
  CHECK(g.end_reason() == GameEndReason::NoProgress);
  CHECK(g.result() == GameResult::Draw);
}

TEST_CASE("game: the side without a legal move has lost", "[game]") {
  Game g(*parse_fen("W:W18:B22"));
  REQUIRE(g.play(move(g, "18x25x22")).has_value());
  CHECK(g.end_reason() == GameEndReason::NoLegalMove);
  CHECK(g.result() == GameResult::WhiteWins);
  Game blocked(*parse_fen("W:W5:B1"));
  CHECK(blocked.result() == GameResult::BlackWins);
}

TEST_CASE("game: PDN lists the moves and the result", "[game]") {
  Game g(*parse_fen("W:W18:B22"));
  REQUIRE(g.play(move(g, "18x25x22")).has_value());
  const std::string pdn = g.to_pdn({{"White", "a"}, {"Black", "b"}});
  CHECK_THAT(pdn, Catch::Contains("[White \"a\"]"));
  CHECK_THAT(pdn, Catch::Contains("[FEN \"W:W18:B22\"]"));
  CHECK_THAT(pdn, Catch::Contains("1. 18x25 2-0"));  // PDN: from and landing square
}

TEST_CASE("game: a Result tag overrides the result by the rules", "[game]") {
  Game g;
  REQUIRE(g.play(*parse_hub_move(g.current(), "22-18")).has_value());
  const std::string pdn = g.to_pdn({{"Result", "0-2"}});
  CHECK_THAT(pdn, Catch::Contains("[Result \"0-2\"]"));
  CHECK_THAT(pdn, Catch::EndsWith("1. 22-18 0-2\n"));
  CHECK_THAT(g.to_pdn(), Catch::EndsWith("1. 22-18 *\n"));
}
