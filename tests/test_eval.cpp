#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <random>
#include <vector>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/eval/eval.h"
#include "eval_test_helpers.h"

using namespace damas;
using damas::test::colour_flip;
using damas::test::random_quiet_positions;

namespace {

Position fen(const char* text) {
  const Expected<Position> p = parse_fen(text);
  REQUIRE(p.has_value());
  return *p;
}

}  // namespace

TEST_CASE("evaluation is colour-symmetric", "[eval]") {
  const EvalWeights w;
  const std::vector<Position> positions = random_quiet_positions(20240601, 300);
  REQUIRE(positions.size() > 5000);
  int with_kings = 0;
  int nonzero = 0;
  for (const Position& p : positions) {
    const Position q = colour_flip(p);
    INFO(to_fen(p) << " vs " << to_fen(q));
    REQUIRE(evaluate(p, w) == evaluate(q, w));
    with_kings += p.kings() != 0;
    nonzero += evaluate(p, w) != 0;
  }
  CHECK(with_kings > 1000);  // the sample does cover king positions
  CHECK(static_cast<std::size_t>(nonzero) > positions.size() / 2);
}

TEST_CASE("evaluation never returns a mate score and is zero at the start", "[eval]") {
  const EvalWeights w;
  CHECK(evaluate(Position::start(), w) == 0);
  for (const Position& p : random_quiet_positions(7, 100)) {
    const Score s = evaluate(p, w);
    CHECK_FALSE(is_win_score(s));
    CHECK_FALSE(is_loss_score(s));
  }
  // Even the largest material edge stays far from mate scores.
  const Position crushing = fen("W:WK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12:B28");
  CHECK(evaluate(crushing, w) > 2000);
  CHECK_FALSE(is_win_score(evaluate(crushing, w)));
}

TEST_CASE("evaluation is from the side to move's point of view", "[eval]") {
  const EvalWeights w;
  const Position white_up = fen("W:W21-32:B1-11");
  const Position black_to_move = fen("B:W21-32:B1-11");
  CHECK(evaluate(white_up, w) > 50);
  CHECK(evaluate(black_to_move, w) < -50);
}

TEST_CASE("a king is worth several men", "[eval]") {
  const EvalWeights w;
  CHECK(w.king >= 2 * w.man);
  // King against two men, both sides far from anything.
  const Score king_side = evaluate(fen("W:WK29:B3,4"), w);
  CHECK(king_side > 0);
}

TEST_CASE("runaway men are recognised", "[eval]") {
  EvalWeights with;
  EvalWeights without = with;
  without.runaway = 0;
  // White man on d6 (10), two rows from crowning; the black man on h2 (28) moves away from it
  // and is itself held by the man on g1 (32).
  const Position free_man = fen("W:W10,32:B28");
  CHECK(evaluate(free_man, with) - evaluate(free_man, without) == with.runaway - with.runaway_per_row);
  // A black man on d8 (2) stands in its way: no bonus.
  const Position stopped = fen("W:W10:B2");
  CHECK(evaluate(stopped, with) == evaluate(stopped, without));
  // A black king can always come back: no bonus either.
  const Position king_defends = fen("W:W10:BK28");
  CHECK(evaluate(king_defends, with) == evaluate(king_defends, without));
}

TEST_CASE("kings on the long diagonal score", "[eval]") {
  const EvalWeights w;
  // Same material, White's king on d4 (18, long diagonal) or on c5's neighbour b4 (17).
  const Score on = evaluate(fen("W:WK22,31:BK3,6"), w);
  const Score off = evaluate(fen("W:WK21,31:BK3,6"), w);
  CHECK(on > off);
}

TEST_CASE("men stepping into a capture count as trapped", "[eval]") {
  EvalWeights w;
  EvalWeights no_trap = w;
  no_trap.trapped_man = 0;
  // White man on a5 (13): its only step b6 (9) is met by the black man on c7 (6) taking b6x a5.
  const Position p = fen("B:W13,30:B6,2");
  CHECK(evaluate(p, w) - evaluate(p, no_trap) == w.trapped_man);
}

TEST_CASE("a lone king is hard to beat", "[eval]") {
  const EvalWeights w;
  EvalWeights no_draw = w;
  no_draw.lone_king_divisor = 1;
  const Position two_kings = fen("W:WK1,K2:BK30");
  CHECK(evaluate(two_kings, w) < evaluate(two_kings, no_draw));
  CHECK(evaluate(two_kings, w) > 0);
  // Three kings against a king off the long diagonal: a win, no scaling.
  const Position three = fen("W:WK1,K2,K3:BK30");
  CHECK(evaluate(three, w) == evaluate(three, no_draw));
}

TEST_CASE("weights round-trip through text and files", "[eval]") {
  EvalWeights w;
  w.king = 287;
  w.runaway = 111;
  const Expected<EvalWeights> back = parse_weights(weights_to_text(w));
  REQUIRE(back.has_value());
  CHECK(weights_to_text(*back) == weights_to_text(w));
  CHECK(back->king == 287);

  const std::string path = "test_eval_weights.txt";
  {
    std::ofstream out(path);
    out << "# comment\nking 250  # trailing\n\nback_row 9\n";
  }
  const Expected<EvalWeights> loaded = load_weights(path);
  std::remove(path.c_str());
  REQUIRE(loaded.has_value());
  CHECK(loaded->king == 250);
  CHECK(loaded->back_row == 9);
  CHECK(loaded->man == EvalWeights{}.man);  // unnamed weights keep their defaults
}

TEST_CASE("bad weights input is an error, never a guess", "[eval]") {
  CHECK_FALSE(parse_weights("kingg 300\n").has_value());
  CHECK_FALSE(parse_weights("king\n").has_value());
  CHECK_FALSE(parse_weights("king 3x0\n").has_value());
  CHECK_FALSE(parse_weights("king 300 400\n").has_value());
  CHECK_FALSE(parse_weights("king 99999999999999999999\n").has_value());
  CHECK_FALSE(parse_weights("lone_king_divisor 0\n").has_value());
  CHECK_FALSE(load_weights("/nonexistent/damas/weights.txt").has_value());
  const Expected<EvalWeights> e = parse_weights("man 100\nbogus 1\n", "f.txt");
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error().find("f.txt:2") != std::string::npos);
}
