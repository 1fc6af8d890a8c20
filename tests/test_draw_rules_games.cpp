// Each game's own draw laws: the rules table names them (`draw-rules=game`), and the Portuguese
// federation's two (core/draw_rules.h, portuguese::kLaws) count as its rule 3.2.1 says.
#include <catch2/catch.hpp>

#include "damas/core/draw_rules.h"
#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"

using namespace damas;

namespace {

Position portuguese_fen(std::string_view fen) {
  const Expected<Position> p = parse_fen(fen, Variant::Portuguese);
  INFO(fen << (p ? "" : ": " + p.error()));
  REQUIRE(p.has_value());
  return *p;
}

// The counters after `plies` plies that keep the position as it is (a king going and coming back
// changes neither material nor men, which is all the laws read).
DrawCounters after_plies(const Position& p, DrawCounters c, int plies) {
  for (int i = 0; i < plies; ++i) c = advance_counters(DrawRules::Portuguese, c, p, p);
  return c;
}

}  // namespace

TEST_CASE("draw laws: each game names its own, and draw-rules=game follows it", "[draw_rules]") {
  CHECK(parse_draw_rules("game", Variant::Brazilian) == DrawRules::Seed);
  CHECK(parse_draw_rules("game", Variant::Russian) == DrawRules::Fmjd64);
  CHECK(parse_draw_rules("game", Variant::Portuguese) == DrawRules::Portuguese);
  CHECK(parse_draw_rules("game", Variant::Spanish) == DrawRules::Seed);
  CHECK(parse_draw_rules("fmjd64", Variant::Portuguese) == DrawRules::Fmjd64);
  CHECK_FALSE(parse_draw_rules("game").has_value());  // a set, not a choice, where no game is known
  CHECK_FALSE(parse_draw_rules("fide", Variant::Brazilian).has_value());
  for (const std::string& name : draw_rules_names())
    CHECK(parse_draw_rules(name, Variant::Brazilian).has_value());
}

TEST_CASE("law (portuguese 3.2.1 a): 20 moves of kings without a capture or a man move draw",
          "[draw_rules]") {
  // Two kings and a man against two kings: the kings move, the man stays.
  const Position p = portuguese_fen("W:WK1,K3,9:BK30,K32");
  const DrawCounters c39 = after_plies(p, {}, 39);
  CHECK_FALSE(drawn_by_law(p, DrawRules::Portuguese, c39));
  CHECK(plies_left_by_law(p, DrawRules::Portuguese, c39) == 1);
  const DrawCounters c40 = after_plies(p, c39, 1);
  CHECK(drawn_by_law(p, DrawRules::Portuguese, c40));
  CHECK(law_in_force(p, DrawRules::Portuguese, c40) == &portuguese::kLaws[portuguese::kKingMoves]);
  // The seed laws count the position's own 80 plies, not these counters.
  CHECK_FALSE(drawn_by_law(p, DrawRules::Seed, c40));
}

TEST_CASE("law (portuguese 3.2.1 a): a man move or a capture starts the 20 moves again", "[draw_rules]") {
  const Position p = portuguese_fen("W:WK1,K3,9:BK30,K32");
  const DrawCounters c39 = after_plies(p, {}, 39);
  const Position man_moved = p.after(*parse_hub_move(p, "9-13"));
  CHECK(advance_counters(DrawRules::Portuguese, c39, p, man_moved).plies == 0);
  // A capture: the king on 1 takes nothing here, so take one from a position that has it.
  const Position q = portuguese_fen("W:WK1,9:BK10,K32");
  MoveList captures;
  generate_legal_moves(q, captures);
  REQUIRE(!captures.empty());
  REQUIRE(captures[0].is_capture());
  CHECK(advance_counters(DrawRules::Portuguese, after_plies(q, {}, 30), q, q.after(captures[0])).plies == 0);
}

TEST_CASE("law (portuguese 3.2.1 b): three kings against a lone king draw 12 moves after taking the rio",
          "[draw_rules]") {
  // Off the rio (the long diagonal 1-32: 1 5 10 14 19 23 28 32) the count has not started.
  const Position off = portuguese_fen("W:WK2,K3,K4:BK30");
  CHECK(after_plies(off, {}, 30).rio == 0);
  // The king from 2 steps onto 5, the rio: the count starts with that ply.
  const Position on = off.after(*parse_hub_move(off, "2-5"));
  const DrawCounters started = advance_counters(DrawRules::Portuguese, {}, off, on);
  CHECK(started.rio == 1);
  // Twelve moves each later, a draw; one ply earlier, not yet.
  const DrawCounters c23 = after_plies(on, started, 23);
  CHECK_FALSE(drawn_by_law(on, DrawRules::Portuguese, c23));
  CHECK(plies_left_by_law(on, DrawRules::Portuguese, c23) == 1);
  const DrawCounters c24 = after_plies(on, c23, 1);
  CHECK(drawn_by_law(on, DrawRules::Portuguese, c24));
  CHECK(law_in_force(on, DrawRules::Portuguese, c24) == &portuguese::kLaws[portuguese::kForcada]);
  CHECK(c24.plies < 40);  // drawn before the 20-move law would be
}

TEST_CASE("law (portuguese 3.2.1 b): the count belongs to three kings against one, and ends with it",
          "[draw_rules]") {
  const Position kings = portuguese_fen("W:WK5,K3,K4:BK30");
  const DrawCounters going =
      after_plies(kings, advance_counters(DrawRules::Portuguese, {}, kings, kings), 10);
  CHECK(going.rio == 11);
  // A man on the board: no forcada.
  const Position with_man = portuguese_fen("W:WK5,K3,4:BK30");
  CHECK(advance_counters(DrawRules::Portuguese, going, kings, with_man).rio == 0);
  // Four kings against one: no forcada either.
  const Position four = portuguese_fen("W:WK5,K3,K4,K2:BK30");
  CHECK(advance_counters(DrawRules::Portuguese, {}, four, four).rio == 0);
}

TEST_CASE("law (portuguese): a game refereed by its own laws ends by the forcada", "[draw_rules]") {
  // White's three kings hold the rio from the start; Black's king shuttles. 24 plies later the
  // game is drawn unless White has won; the referee stops it there.
  Game g(portuguese_fen("W:WK5,K3,K4:BK30"), DrawRules::Portuguese);
  int plies = 0;
  while (!g.over() && plies < 60) {
    MoveList moves;
    generate_legal_moves(g.current(), moves);
    // The first quiet move to a new position that keeps the lone king alive; White's king on the
    // rio (5) stays there.
    const Move* chosen = nullptr;
    for (const Move& m : moves) {
      const Position after = g.current().after(m);
      if (m.from == game_square(Variant::Portuguese, 5)) continue;
      bool seen = false;
      for (const Position& q : g.positions()) seen = seen || q == after;
      if (!m.is_capture() && !seen && !has_capture(after) && popcount(after.occupied()) == 4) {
        chosen = &m;
        break;
      }
    }
    if (!chosen) break;
    REQUIRE(g.play(*chosen).has_value());
    ++plies;
  }
  INFO(g.to_pdn({}));
  REQUIRE(g.over());
  CHECK(g.end_reason() == GameEndReason::DrawLaw);
  CHECK(g.draw_law() == &portuguese::kLaws[portuguese::kForcada]);
  CHECK(g.end_description() ==
        "Portuguese rule 3.2.1 b: three kings against a lone king, 12 moves from taking the rio");
  // The count started on the first ply that left a white king on the rio, 24 plies before the end.
  const std::vector<Position>& positions = g.positions();
  std::size_t started = 0;
  while (started < positions.size() &&
         counters_of(DrawRules::Portuguese, {positions.begin(), positions.begin() + started + 1}).rio != 1)
    ++started;
  CHECK(started + 24 == g.moves().size());
  CHECK_THAT(g.to_pdn({}), Catch::Contains("[DrawRules \"portuguese\"]") &&
                               Catch::Contains("[GameType \"28,W,8,8,N1,1\"]"));
}
