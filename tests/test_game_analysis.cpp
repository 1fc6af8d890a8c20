// `damas analyze --pdn`: evaluations, ? and ?? with the best line, the summary, bad games
// reported with file, line and move while the others are analysed; the annotated PDN through
// Game::to_pdn reads back; `analyze --board`.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "damas/core/game.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/review/review.h"
#include "strict_pdn.h"

using namespace damas;

namespace {

// White's 4. 17-14 gives a man away (10x17), every other move is fair.
constexpr const char* kBlunderGame =
    "[Event \"test\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n\n"
    "1. 22-18 11-15 2. 18x11 8x15 3. 21-17 9-13 4. 17-14 10x17 5. 25-21 *\n";

PdnGame read_one(const std::string& text) {
  std::vector<PdnGameOrError> games = read_pdn(text);
  REQUIRE(games.size() == 1);
  REQUIRE(games[0].has_value());
  return *games[0];
}

review::ReviewConfig depth(int d) {
  review::ReviewConfig c;
  c.limits.depth = d;
  return c;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string run(const std::string& command) {
  const std::string out = "/tmp/damas-analysis-test.out";
  std::system((command + " > " + out + " 2>&1").c_str());
  return slurp(out);
}

}  // namespace

TEST_CASE("analysis: a move giving a man away is marked with the best move and its line", "[analysis]") {
  Engine engine;
  const review::GameReview a = review::review_game(engine, read_one(kBlunderGame), depth(6));
  REQUIRE(a.plies.size() == 9);
  const review::PlyReview& blunder = a.plies[6];  // 4. 17-14
  CHECK(to_hub_move(blunder.played) == "17-14");
  CHECK(blunder.loss >= 50);
  CHECK(blunder.mark != review::Mark::None);
  CHECK_FALSE(blunder.best == blunder.played);
  CHECK(blunder.eval_after < -50);  // White's view: a man down
  CHECK_THAT(a.annotated_pdn, Catch::Contains("17-14" + std::string(review::mark_nag(blunder.mark)) + " {"));
  const Position before_blunder = a.game.positions()[6];
  CHECK_THAT(a.annotated_pdn, Catch::Contains("best " + to_pdn_move(before_blunder, blunder.best)));
  CHECK_THAT(a.summary, Catch::Contains("4. 17-14" + std::string(review::mark_nag(blunder.mark)) + " loses"));
  // The opening moves are not errors.
  CHECK(a.plies[0].mark == review::Mark::None);
  CHECK(a.plies[1].mark == review::Mark::None);
}

TEST_CASE("analysis: every move gets its evaluation and the annotated PDN reads back", "[analysis]") {
  Engine engine;
  const PdnGame source = read_one(kBlunderGame);
  const review::GameReview a = review::review_game(engine, source, depth(4));
  const PdnGame back = read_one(a.annotated_pdn);
  CHECK(back.moves == source.moves);
  CHECK(back.tag("White") == "Alice");
  CHECK(back.tag("Annotator").has_value());
  CHECK(back.tag("DrawRules") == "seed");
  std::size_t comments = 0;
  for (std::size_t at = a.annotated_pdn.find('{'); at != std::string::npos;
       at = a.annotated_pdn.find('{', at + 1))
    ++comments;
  CHECK(comments == source.moves.size());
}

TEST_CASE("analysis: the annotated PDN is standard, in numeric or algebraic squares", "[analysis]") {
  Engine engine;
  const PdnGame source = read_one(kBlunderGame);
  for (const PdnSquares squares : {PdnSquares::Numeric, PdnSquares::Algebraic}) {
    review::ReviewConfig config = depth(4);
    config.squares = squares;
    const review::GameReview a = review::review_game(engine, source, config);
    const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(a.annotated_pdn);
    INFO(a.annotated_pdn << (strict ? "" : strict.error()));
    REQUIRE(strict.has_value());
    REQUIRE(strict->size() == 1);
    CHECK(strict->front().moves == source.moves);
    CHECK(strict->front().result == "*");
    CHECK_THAT(a.annotated_pdn, Catch::Contains(squares == PdnSquares::Algebraic ? "1. c3-d4" : "1. 22-18"));
  }
}

TEST_CASE("analysis: a game's DrawRules tag chooses the referee's laws", "[analysis]") {
  Engine engine;
  const review::GameReview a =
      review::review_game(engine, read_one("[DrawRules \"fmjd64\"]\n\n1. 22-18 *\n"), depth(2));
  CHECK(a.game.draw_rules() == DrawRules::Fmjd64);
  CHECK_THAT(a.annotated_pdn, Catch::Contains("[DrawRules \"fmjd64\"]"));
}

TEST_CASE("pdn writer: per-move marks and comments, braces kept out of comments", "[analysis]") {
  Game g;
  REQUIRE(g.play(*parse_hub_move(g.current(), "22-18")).has_value());
  REQUIRE(g.play(*parse_hub_move(g.current(), "11-15")).has_value());
  const std::string pdn = g.to_pdn({}, {{"?", "a {b}"}, {"", ""}});
  CHECK_THAT(pdn, Catch::Contains("1. 22-18? {a (b)} 1... 11-15 *"));
}

TEST_CASE("analyze --pdn: a bad game is reported with file, line and move; the others are analysed",
          "[analysis]") {
  const std::string in = "/tmp/damas-analysis-test.pdn";
  const std::string out = "/tmp/damas-analysis-test-annotated.pdn";
  {
    std::ofstream f(in);
    f << kBlunderGame << "\n[Event \"bad\"]\n\n1. 22-18 11-15 2. 23-19 *\n\n"
      << "[Event \"third\"]\n\n1. 22-18 11-15 *\n";
  }
  const std::string text =
      run(std::string(DAMAS_BINARY) + " analyze --pdn " + in + " --depth 3 --out " + out);
  CHECK_THAT(text, Catch::Contains(in + ": game 2, line 9: move 2 \"23-19\""));
  CHECK_THAT(text, Catch::Contains("game 1 (line 1)"));
  CHECK_THAT(text, Catch::Contains("game 3 (line 11)"));
  const std::vector<PdnGameOrError> annotated = read_pdn(slurp(out));
  REQUIRE(annotated.size() == 2);
  CHECK(annotated[0].has_value());
  CHECK(annotated[1].has_value());
  CHECK(annotated[1]->tag("Event") == "third");
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(slurp(out));
  INFO((strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  CHECK(strict->size() == 2);
}

TEST_CASE("analyze: the board is shown on request and left out in a pipe by default", "[analysis]") {
  const std::string bin = DAMAS_BINARY;
  CHECK_THAT(run(bin + " analyze --depth 1 --board"), Catch::Contains("8  . b . b . b . b"));
  CHECK_THAT(run(bin + " analyze --depth 1"), !Catch::Contains("8  . b . b . b . b"));
  CHECK_THAT(run(bin + " analyze --depth 1 --board no"), !Catch::Contains("8  . b . b . b . b"));
}
