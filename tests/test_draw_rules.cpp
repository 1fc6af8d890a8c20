// The FMJD-64 draw laws (draw-rules=fmjd64) as lidraughts applies them, against `seed`.
// Each test plays a short game: quiet moves chosen by a fixed rule (below), some scripted plies,
// and checks that the game ends in a draw exactly at the ply the law gives, not one ply earlier,
// while the same moves under `seed` go on.
#include <catch2/catch.hpp>
#include <functional>

#include "damas/core/draw_rules.h"
#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"
#include "damas/match/openings.h"

using namespace damas;

namespace {

using MovePredicate = std::function<bool(const Position& before, const Move& m, const Position& after)>;

bool seen(const Game& g, const Position& p) {
  for (const Position& q : g.positions())
    if (q == p) return true;
  return false;
}

// The first legal move (generation order) that `wanted` accepts; empty when none does.
std::optional<Move> pick(const Game& g, const MovePredicate& wanted) {
  MoveList moves;
  generate_legal_moves(g.current(), moves);
  for (const Move& m : moves) {
    const Position after = g.current().after(m);
    if (wanted(g.current(), m, after)) return m;
  }
  return std::nullopt;
}

enum class Step { King, Man, Crown };  // what a planned ply moves

// A quiet move: no capture, a position new to the game, no capture for either side afterwards,
// and the law that fits stays `law` (so the test measures one law). `step` says which piece.
bool quiet(const Game& g, fmjd64::Law law, Step step, const Move& m, const Position& after) {
  const Position& before = g.current();
  if (m.is_capture() || seen(g, after)) return false;
  const bool king = (before.kings() & bb(m.from)) != 0;
  const bool crowned = !king && (after.kings() & bb(m.to));
  if ((step == Step::King) != king || (step == Step::Crown) != crowned) return false;
  if (has_capture(after, Color::White) || has_capture(after, Color::Black)) return false;
  return fmjd64_law(after, fmjd64_advance(g.draw_counters(), before, after)) == &fmjd64::kLaws[law];
}

// Extends the game with quiet moves up to `plies` plies (depth-first, first moves first, backing
// out of dead ends); no ply may end it. `plan` gives the piece of each ply (1-based).
bool extend(Game& g, int plies, fmjd64::Law law, const std::function<Step(int)>& plan, long& budget) {
  const int ply = static_cast<int>(g.moves().size()) + 1;
  if (ply > plies) return true;
  if (--budget < 0) return false;
  MoveList moves;
  generate_legal_moves(g.current(), moves);
  for (const Move& m : moves) {
    if (!quiet(g, law, plan(ply), m, g.current().after(m))) continue;
    REQUIRE(g.play(m).has_value());
    if (!g.over() && extend(g, plies, law, plan, budget)) return true;
    g.undo();
  }
  return false;
}

// Plays quiet moves until the fmjd64 game has `plies` plies; the seed game follows.
void quiet_until(
    Game& fmjd, Game& seed, int plies, fmjd64::Law law,
    const std::function<Step(int)>& plan = [](int) { return Step::King; }) {
  long budget = 200000;
  INFO("from ply " << fmjd.moves().size() + 1 << " at " << to_fen(fmjd.current()));
  REQUIRE(extend(fmjd, plies, law, plan, budget));
  for (std::size_t i = seed.moves().size(); i < fmjd.moves().size(); ++i)
    REQUIRE(seed.play(fmjd.moves()[i]).has_value());
}

// The counters the fmjd64 game had after `ply` plies.
DrawCounters counters_after(const Game& g, int ply) {
  const auto& p = g.positions();
  return counters_of(DrawRules::Fmjd64, std::vector<Position>(p.begin(), p.begin() + ply + 1));
}

// Plays the move in both games (the fmjd64 one chooses, the seed one follows).
void play_both(Game& fmjd, Game& seed, const Move& m) {
  REQUIRE(fmjd.play(m).has_value());
  REQUIRE(seed.play(m).has_value());
}

// One more quiet king move, after which the fmjd64 game must be drawn by `law`.
void drawn_by_next_move(Game& fmjd, Game& seed, fmjd64::Law law) {
  const int ply = static_cast<int>(fmjd.moves().size()) + 1;
  std::optional<Move> m = pick(fmjd, [&](const Position&, const Move& mv, const Position& after) {
    return quiet(fmjd, law, Step::King, mv, after);
  });
  REQUIRE(m.has_value());
  play_both(fmjd, seed, *m);
  CHECK(fmjd.moves().size() == static_cast<std::size_t>(ply));
  CHECK(fmjd.result() == GameResult::Draw);
  CHECK(fmjd.end_reason() == GameEndReason::DrawLaw);
  REQUIRE(fmjd.draw_law() == &fmjd64::kLaws[law]);
  CHECK_FALSE(seed.over());
}

struct Games {
  Game fmjd;
  Game seed;
  explicit Games(const char* fen)
      : fmjd(*parse_fen(fen), DrawRules::Fmjd64), seed(*parse_fen(fen), DrawRules::Seed) {
    REQUIRE(parse_fen(fen).has_value());
    REQUIRE_FALSE(has_capture(fmjd.current()));
  }
};

// Plays the first move satisfying `wanted` (a scripted ply).
void scripted(Games& g, const MovePredicate& wanted) {
  const std::optional<Move> m = pick(g.fmjd, wanted);
  INFO("scripted ply " << g.fmjd.moves().size() + 1 << " at " << to_fen(g.fmjd.current()));
  REQUIRE(m.has_value());
  play_both(g.fmjd, g.seed, *m);
  REQUIRE_FALSE(g.fmjd.over());
}

// A piece given away and taken: the mover offers one piece, every reply takes exactly it and
// leaves a quiet position; the first reply is played.
void give_a_piece_away(Games& g) {
  scripted(g, [](const Position&, const Move& m, const Position& after) {
    if (m.is_capture() || !has_capture(after)) return false;
    MoveList replies;
    generate_legal_moves(after, replies);
    for (const Move& r : replies) {
      const Position taken = after.after(r);
      if (r.capture_count() != 1 || has_capture(taken, Color::White) || has_capture(taken, Color::Black))
        return false;
    }
    return true;
  });
  scripted(g, [](const Position&, const Move& m, const Position&) { return m.is_capture(); });
}

}  // namespace

TEST_CASE("fmjd64 7.2.4: three kings against a lone king are drawn after 15 moves", "[draw_rules]") {
  Games g("W:WK1,K2,K3:BK13");
  quiet_until(g.fmjd, g.seed, 29, fmjd64::kThreeKingsVsLoneKing);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kThreeKingsVsLoneKing);
  CHECK(g.fmjd.moves().size() == 30);
  CHECK(g.fmjd.end_description() == "FMJD-64 7.2.4: three or more kings against a lone king");
}

TEST_CASE("fmjd64 7.2.5: 15 moves of kings only, kings on both sides, are a draw", "[draw_rules]") {
  Games g("W:WK1,29,30,31:BK32,2,3,4");
  quiet_until(g.fmjd, g.seed, 29, fmjd64::kOnlyKingsMoved);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kOnlyKingsMoved);
  CHECK(g.fmjd.moves().size() == 30);
}

TEST_CASE("fmjd64 7.2.6: a 4- or 5-piece ending with kings on both sides is drawn after 30 moves",
          "[draw_rules]") {
  Games g("W:WK1,K2:BK31,K32");
  quiet_until(g.fmjd, g.seed, 59, fmjd64::kFourFivePieces);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kFourFivePieces);
  CHECK(g.fmjd.moves().size() == 60);
}

TEST_CASE("fmjd64 7.2.6: a 6- or 7-piece ending is drawn after 60 moves, man moves do not restart it",
          "[draw_rules]") {
  Games g("W:WK1,K2,29:BK31,K32,4");
  // Man moves at plies 40 and 80: they restart seed's 80-ply count, not this law's.
  quiet_until(g.fmjd, g.seed, 119, fmjd64::kSixSevenPieces,
              [](int ply) { return ply == 40 || ply == 80 ? Step::Man : Step::King; });
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kSixSevenPieces);
  CHECK(g.fmjd.moves().size() == 120);
}

TEST_CASE("fmjd64 7.2.7: a lone king holding the long diagonal against three pieces draws after 5 moves",
          "[draw_rules]") {
  Games g("W:WK1,K2,K3:BK29");
  quiet_until(g.fmjd, g.seed, 9, fmjd64::kLongDiagonalWaiting);
  CHECK(g.fmjd.draw_counters().lone_king_diagonal[index(Color::Black)] == 9);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kLongDiagonal);
  CHECK(g.fmjd.moves().size() == 10);
  CHECK(g.fmjd.end_description() == "FMJD-64 7.2.7: 5 moves of the lone king on the long diagonal");
}

TEST_CASE("fmjd64 7.2.7: off the long diagonal the three-kings law (15 moves) applies instead",
          "[draw_rules]") {
  Games g("W:WK1,K2,K3:BK29");
  quiet_until(g.fmjd, g.seed, 5, fmjd64::kLongDiagonalWaiting);
  // The lone king leaves the diagonal: 7.2.4 counts on from the same start.
  quiet_until(g.fmjd, g.seed, 29, fmjd64::kThreeKingsVsLoneKing);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kThreeKingsVsLoneKing);
  CHECK(g.fmjd.moves().size() == 30);
}

TEST_CASE("fmjd64 7.2.8: two pieces with a king against a lone king are drawn after 5 moves",
          "[draw_rules]") {
  Games g("W:WK1,K2:BK30");
  quiet_until(g.fmjd, g.seed, 9, fmjd64::kTwoVsLoneKing);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kTwoVsLoneKing);
  CHECK(g.fmjd.moves().size() == 10);
}

TEST_CASE("fmjd64 reset: a man move restarts 7.2.5", "[draw_rules]") {
  Games g("W:WK1,29,30,31:BK32,2,3,4");
  quiet_until(g.fmjd, g.seed, 40, fmjd64::kOnlyKingsMoved,
              [](int ply) { return ply == 11 ? Step::Man : Step::King; });
  CHECK(counters_after(g.fmjd, 10).plies == 10);
  CHECK(counters_after(g.fmjd, 11).plies == 0);  // ply 30 would have ended the game otherwise
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kOnlyKingsMoved);
  CHECK(g.fmjd.moves().size() == 41);
}

TEST_CASE("fmjd64 reset: a capture restarts 7.2.6", "[draw_rules]") {
  // Six kings (60 moves); Black gives a king away at ply 20, White takes it: five pieces, 30 moves
  // from the capture.
  Games g("W:WK1,K2,K3:BK30,K31,K32");
  quiet_until(g.fmjd, g.seed, 19, fmjd64::kSixSevenPieces);
  give_a_piece_away(g);  // plies 20 and 21
  CHECK(g.fmjd.draw_counters().plies == 0);
  quiet_until(g.fmjd, g.seed, 80, fmjd64::kFourFivePieces);  // ply 60 would have ended it
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kFourFivePieces);
  CHECK(g.fmjd.moves().size() == 81);
}

TEST_CASE("fmjd64 reset: a promotion restarts 7.2.6", "[draw_rules]") {
  Games g("W:WK1,13:BK31,K32");
  // White's man walks to the far row at plies 21, 23, 25 (crowned at 25): the steps do not
  // restart the count, the crowning does.
  quiet_until(g.fmjd, g.seed, 84, fmjd64::kFourFivePieces, [](int ply) {
    return ply == 21 || ply == 23 ? Step::Man : ply == 25 ? Step::Crown : Step::King;
  });
  CHECK(counters_after(g.fmjd, 23).plies == 23);
  CHECK(counters_after(g.fmjd, 24).plies == 24);
  CHECK(counters_after(g.fmjd, 25).plies == 0);
  CHECK(popcount(g.fmjd.positions()[25].kings(Color::White)) == 2);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kFourFivePieces);
  CHECK(g.fmjd.moves().size() == 85);
}

TEST_CASE("fmjd64 reset: the capture that makes a 7.2.8 ending restarts the count", "[draw_rules]") {
  // Two kings each (4 pieces, 7.2.6); Black gives a king away at ply 20: 7.2.8 counts from the
  // capture, though the count (21) is already past its 10 plies.
  Games g("W:WK1,K2:BK31,K32");
  quiet_until(g.fmjd, g.seed, 19, fmjd64::kFourFivePieces);
  give_a_piece_away(g);  // plies 20 and 21
  CHECK(g.fmjd.draw_counters().plies == 0);
  quiet_until(g.fmjd, g.seed, 30, fmjd64::kTwoVsLoneKing);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kTwoVsLoneKing);
  CHECK(g.fmjd.moves().size() == 31);
}

TEST_CASE("fmjd64 reset: a first king restarts 7.2.8", "[draw_rules]") {
  // Black's last man is crowned at ply 1: its first king starts 7.2.8's count at 0, so the draw
  // comes at ply 11, not 10.
  Games g("B:WK1,K2:B26");
  scripted(g, [](const Position&, const Move&, const Position& after) {
    return popcount(after.kings(Color::Black)) == 1 && !has_capture(after, Color::White) &&
           !has_capture(after, Color::Black);
  });
  CHECK(g.fmjd.draw_counters().plies == 0);
  quiet_until(g.fmjd, g.seed, 10, fmjd64::kTwoVsLoneKing);
  drawn_by_next_move(g.fmjd, g.seed, fmjd64::kTwoVsLoneKing);
  CHECK(g.fmjd.moves().size() == 11);
}

TEST_CASE("fmjd64: threefold repetition still draws", "[draw_rules]") {
  Game g(*parse_fen("W:WK29:BK1"), DrawRules::Fmjd64);
  const char* cycle[] = {"29-25", "1-5", "25-29", "5-1"};
  for (int i = 0; i < 8; ++i) {
    REQUIRE_FALSE(g.over());
    REQUIRE(g.play(*parse_hub_move(g.current(), cycle[i % 4])).has_value());
  }
  CHECK(g.end_reason() == GameEndReason::Repetition);
}

TEST_CASE("fmjd64: the PDN records the draw laws played", "[draw_rules]") {
  CHECK_THAT(Game(Position::start(), DrawRules::Fmjd64).to_pdn(), Catch::Contains("[DrawRules \"fmjd64\"]"));
  CHECK_THAT(Game().to_pdn(), Catch::Contains("[DrawRules \"seed\"]"));
}

TEST_CASE("draw-rules is an engine option with the game's own laws as default", "[draw_rules]") {
  Options o;
  CHECK(o.get(option::kDrawRules) == "game");
  CHECK(o.set(option::kDrawRules, "fmjd64").has_value());
  CHECK_FALSE(o.set(option::kDrawRules, "fide").has_value());
  CHECK(o.get(option::kDrawRules) == "fmjd64");
}

TEST_CASE("search: under fmjd64 a 7.2.8 ending two plies from its limit scores as a draw", "[draw_rules]") {
  // The 7.2.8 game above after 8 plies: White moves, Black moves, drawn.
  Games g("W:WK1,K2:BK30");
  quiet_until(g.fmjd, g.seed, 8, fmjd64::kTwoVsLoneKing);
  SearchLimits limits;
  limits.depth = 6;
  Engine fmjd;
  REQUIRE(fmjd.set_option(option::kDrawRules, "fmjd64").has_value());
  REQUIRE(fmjd.set_position(g.fmjd.start(), g.fmjd.moves()).has_value());
  const SearchResult by_fmjd = fmjd.search(limits, GoMode::Analyze);
  CHECK(by_fmjd.score == kScoreDraw);
  CHECK(by_fmjd.pv.size() <= 2);  // the game ends after two plies
  // The seed's 80-ply count is far away: its search plays on past those two plies, a tree many
  // times larger (its PV may still be short: these positions all score as a draw, so no move
  // beats the first).
  Engine seed;
  REQUIRE(seed.set_position(g.fmjd.start(), g.fmjd.moves()).has_value());
  const SearchResult by_seed = seed.search(limits, GoMode::Analyze);
  INFO("nodes: fmjd64 " << by_fmjd.nodes << ", seed " << by_seed.nodes);
  CHECK(by_seed.nodes > 10 * by_fmjd.nodes);
}

TEST_CASE("fmjd64 lidraughts H: the count a FEN carries is the laws' count at its start", "[draw_rules]") {
  const std::string fen = "W:WK1,K2:BK30:H8:F40";
  CHECK(fen_draw_plies(fen) == 8);
  CHECK(fen_draw_plies("W:WK1,K2:BK30") == 0);
  CHECK(fen_draw_plies("W:WK1,K2:BK30:F40:H3") == 3);
  CHECK(fen_draw_plies("\"W:WK1,K2:BK30:H5:F40\"") == 5);  // as a PDN FEN tag quotes it
  CHECK(fen_draw_plies("W:WK1,K2:BK30:F40") == 0);
  const Position start = parse_fen(fen, Variant::Russian).value();
  Game fmjd(start, DrawRules::Fmjd64, fen_draw_plies(fen));
  Game seed(start, DrawRules::Seed, fen_draw_plies(fen));
  CHECK(fmjd.draw_counters().plies == 8);
  CHECK(seed.draw_counters().plies == 0);  // the seed laws count the position's own plies
  // 7.2.8 draws after 10 plies: two more from H8.
  for (int ply = 1; ply <= 2; ++ply) {
    CHECK_FALSE(fmjd.over());
    const std::optional<Move> m = pick(fmjd, [&](const Position&, const Move& move, const Position& after) {
      return quiet(fmjd, fmjd64::kTwoVsLoneKing, Step::King, move, after);
    });
    REQUIRE(m);
    REQUIRE(fmjd.play(*m));
    REQUIRE(seed.play(*m));
  }
  CHECK(fmjd.end_reason() == GameEndReason::DrawLaw);
  CHECK_FALSE(seed.over());
  // A count already at the limit is a drawn game.
  CHECK(Game(start, DrawRules::Fmjd64, fen_draw_plies("W:WK1,K2:BK30:H10:F40")).end_reason() ==
        GameEndReason::DrawLaw);
  CHECK_FALSE(Game(start, DrawRules::Fmjd64, 0).over());
}

TEST_CASE("fmjd64 lidraughts H: the search and the referees start from the FEN's count", "[draw_rules]") {
  const std::string fen = "W:WK1,K2:BK30:H8:F40";
  const Position start = parse_fen(fen, Variant::Russian).value();
  SearchLimits limits;
  limits.depth = 6;
  Engine counted;
  REQUIRE(counted.set_option(option::kVariant, "russian"));  // its laws are fmjd64
  REQUIRE(counted.set_position(start, {}, fen_draw_plies(fen)));
  const SearchResult drawn = counted.search(limits, GoMode::Analyze);
  CHECK(drawn.score == kScoreDraw);
  CHECK(drawn.pv.size() <= 2);
  Engine fresh;
  REQUIRE(fresh.set_option(option::kVariant, "russian"));
  REQUIRE(fresh.set_position(start));
  const SearchResult open = fresh.search(limits, GoMode::Analyze);
  INFO("nodes: H8 " << drawn.nodes << ", no count " << open.nodes);
  CHECK(open.nodes > 10 * drawn.nodes);

  // An openings file and a PDN FEN tag keep the count for the match and selfplay referees.
  const Expected<std::vector<Opening>> openings =
      parse_openings(fen + " | H8\n", "test", OpeningFormat::Auto, Variant::Russian);
  REQUIRE(openings.has_value());
  CHECK(openings->front().start_plies == 8);
  const std::vector<PdnGameOrError> games =
      read_pdn("[GameType \"25\"]\n[FEN \"" + fen + "\"]\n\n*\n", Variant::Russian);
  REQUIRE(games.size() == 1);
  REQUIRE(games.front().has_value());
  CHECK(games.front()->start_plies == 8);
}
