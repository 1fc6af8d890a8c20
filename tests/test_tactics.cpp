#include <catch2/catch.hpp>

#include "damas/cli/tactics.h"
#include "damas/core/movegen.h"

using namespace damas;

namespace {
std::string suite_path() { return std::string(DAMAS_SOURCE_DIR) + "/bench/tactics.txt"; }
}  // namespace

TEST_CASE("the tactical suite is well formed", "[tactics]") {
  const Expected<std::vector<TacticsPosition>> suite = load_tactics(suite_path());
  REQUIRE(suite.has_value());
  CHECK(suite->size() >= 25);
  for (const TacticsPosition& t : *suite) {
    INFO(t.fen);
    REQUIRE(t.solutions.size() == 1);
    const Move m = t.solutions.front();
    // A combination starts with a quiet move that leaves the opponent a compulsory capture.
    CHECK_FALSE(has_capture(t.position));
    CHECK_FALSE(m.is_capture());
    CHECK(has_capture(t.position.after(m)));
  }
}

TEST_CASE("tactics lines are parsed strictly", "[tactics]") {
  CHECK(parse_tactics("W:W21:B1 | 21-17 | quiet\n").has_value());
  CHECK_FALSE(parse_tactics("W:W21:B1 | 21-18 | not a legal move\n").has_value());
  CHECK_FALSE(parse_tactics("W:W21:B1 21-17\n").has_value());
  CHECK_FALSE(parse_tactics("W:W21:B99 | 21-17 | bad square\n").has_value());
  CHECK_FALSE(parse_tactics("W:W21:B1 |  | no move\n").has_value());
  CHECK_FALSE(parse_tactics("# only a comment\n").has_value());
  const Expected<std::vector<TacticsPosition>> two =
      parse_tactics("W:W21:B1 | 21-17 | a\nB:W21:B1 | 1-5,1-6 | b\n");
  REQUIRE(two.has_value());
  CHECK((*two)[1].solutions.size() == 2);
  CHECK((*two)[1].line == 2);
}

TEST_CASE("the engine solves an easy combination and the prover confirms it", "[tactics]") {
  // 30-26 forces 21x23 (two men), then 27x4 takes three and crowns.
  const Expected<std::vector<TacticsPosition>> t =
      parse_tactics("W:W25,27,28,30,31,32:B1,2,3,5,8,15,20,21 | 30-26 | combination\n");
  REQUIRE(t.has_value());
  Engine engine;
  REQUIRE(engine.set_option("hash", "1"));
  SearchLimits limits;
  limits.depth = 6;
  CHECK(attempt(engine, t->front(), limits).solved);
  const std::vector<RootScore> scores = score_root_moves(engine, t->front().position, 6);
  REQUIRE(scores.size() >= 2);
  CHECK(scores.front().move == t->front().solutions.front());
  CHECK(scores.front().score >= kMan);
  CHECK(scores[1].score < scores.front().score - kMan);
}

TEST_CASE("the engine solves the tactical suite", "[tactics][deep]") {
  const Expected<std::vector<TacticsPosition>> suite = load_tactics(suite_path());
  REQUIRE(suite.has_value());
  Engine engine;
  SearchLimits limits;
  limits.nodes = 100000;
  int solved = 0;
  for (const TacticsPosition& t : *suite) solved += attempt(engine, t, limits).solved;
  CHECK(solved == static_cast<int>(suite->size()));
}
