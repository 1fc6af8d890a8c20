// The lone-king endings' evaluation (eval/endgame.h) and what it is for: winning them without the
// endgame databases inside the FMJD-64 counts.
#include <catch2/catch.hpp>

#include "damas/core/game.h"
#include "damas/core/notation.h"
#include "damas/engine/engine.h"
#include "damas/eval/endgame.h"
#include "rules_helpers.h"

using namespace damas;
using damas::testing::fen;

TEST_CASE("endgame: a lone king against two or more pieces with a king is its own ending", "[endgame]") {
  CHECK(is_lone_king_ending(fen("W:WK1,K2,K3:BK30")));
  CHECK(is_lone_king_ending(fen("B:WK30:B5,K9")));           // either colour, either side to move
  CHECK(is_lone_king_ending(fen("W:WK1,10:BK30")));          // a king and a man
  CHECK_FALSE(is_lone_king_ending(fen("W:W9,10,11:BK30")));  // no king against it
  CHECK_FALSE(is_lone_king_ending(fen("W:WK1:BK30")));       // one piece only
  CHECK_FALSE(is_lone_king_ending(fen("W:WK1,K2:B30")));     // a man, not a king
  CHECK_FALSE(is_lone_king_ending(Position::start()));
}

TEST_CASE("endgame: three kings win only while the long diagonal is theirs", "[endgame]") {
  // The lone king holds a1-h8: a draw. White holds it and the lone king is off it: a win.
  const Score held_by_lone = evaluate_lone_king_ending(fen("W:WK1,K3,K30:BK22"));
  const Score held_by_three = evaluate_lone_king_ending(fen("W:WK1,K3,K22:BK30"));
  CHECK(std::abs(held_by_lone) < 150);
  CHECK(held_by_three > 500);
  // The same from the lone king's side, and with the colours swapped (180 degrees).
  CHECK(evaluate_lone_king_ending(fen("B:WK1,K3,K22:BK30")) < -500);
  CHECK(evaluate_lone_king_ending(fen("B:WK3,K11,K32:BK9")) ==
        evaluate_lone_king_ending(fen("W:WK24:BK1,K22,K30")));
  // Two kings against one draw; four win anyway.
  CHECK(std::abs(evaluate_lone_king_ending(fen("W:WK1,K3:BK30"))) < 150);
  CHECK(evaluate_lone_king_ending(fen("W:WK1,K2,K3,K4:BK22")) > 500);
}

// Positions of three kings against one off the long diagonal that the databases win in 19 to 23
// plies, inside the 15 moves of 7.2.4: the engine without them wins each within the count,
// against itself, at a fixed node budget (so the test is the same on every machine).
TEST_CASE("endgame: three kings against one are won inside the FMJD-64 count without databases",
          "[endgame][laws]") {
  for (const char* start : {"W:WK3,K13,K14:BK19", "W:WK8,K22,K31:BK23", "B:WK26:BK2,K20,K28"}) {
    INFO(start);
    Engine engine;
    for (const auto& [name, value] : {std::pair{"egdb-path", "none"}, std::pair{"draw-rules", "fmjd64"}})
      REQUIRE(engine.set_option(name, value));
    Game game(fen(start), DrawRules::Fmjd64);
    SearchLimits limits;
    limits.nodes = 150000;
    while (!game.over()) {
      REQUIRE(engine.set_position(game.start(), game.moves()));
      REQUIRE(game.play(engine.search(limits).best));
    }
    INFO(game.to_pdn());
    CHECK(game.result() ==
          (fen(start).side_to_move() == Color::White ? GameResult::WhiteWins : GameResult::BlackWins));
  }
}
