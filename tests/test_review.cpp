// Game review (review/review.h) and `damas analyze --pdn`: evaluations, ?!, ? and ?? with the best
// line, the summary, bad games reported with file, line and move while the others are analysed,
// the annotated PDN through Game::to_pdn read back (strictly); `analyze --board`; the review one
// position at a time, the graph values, the per-side counts; the SVG graph (review/graph.h) and `analyze
// --pdn --plot` on a 10-game file, each SVG read by a strict XML reader; puzzles (review/puzzles.h) and
// `damas puzzles`, their PDN read by the strict PDN reader.
#include <bit>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "command_helpers.h"
#include "damas/core/pdn.h"
#include "damas/review/graph.h"
#include "damas/review/puzzles.h"
#include "damas/review/review.h"
#include "strict_pdn.h"
#include "xml_reader.h"

using namespace damas;

namespace {

// White's 3... 9-13? allows the shot 24-20; White's 4. 17-14?? misses it and gives a man away.
constexpr const char* kBlunderGame =
    "[Event \"test\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n\n"
    "1. 22-18 11-15 2. 18x11 8x15 3. 21-17 9-13 4. 17-14 10x17 5. 25-21 *\n";

PdnGame read_one(const std::string& text) {
  std::vector<PdnGameOrError> games = read_pdn(text);
  REQUIRE(games.size() == 1);
  REQUIRE(games[0].has_value());
  return *games[0];
}

review::ReviewConfig at_depth(int d) {
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

std::string output_of(const std::string& command) {
  std::string out;
  test::run_command(command, out);
  return out;
}

// The marks (?!, ?, ??) written after the moves of an annotated PDN game.
int marks_in(const std::string& pdn) {
  static const std::regex mark(R"([0-9a-h](\?\?|\?!|\?)\s\{)");
  return static_cast<int>(
      std::distance(std::sregex_iterator(pdn.begin(), pdn.end(), mark), std::sregex_iterator()));
}

int marked(const review::GameReview& r) {
  return static_cast<int>(std::count_if(r.plies.begin(), r.plies.end(), [](const review::PlyReview& p) {
    return p.mark != review::Mark::None;
  }));
}

// The points of the evaluation path of an SVG graph ("M x,y L x,y ...").
std::size_t path_points(const std::string& d) {
  return static_cast<std::size_t>(std::count(d.begin(), d.end(), ','));
}

// Checks one graph: well-formed, an svg root, one point per position, one dot per mark.
void check_graph(const std::string& svg, std::size_t positions, int marks) {
  const Expected<xml::Element> doc = xml::read(svg);
  INFO(svg.substr(0, 400) << (doc ? "" : doc.error()));
  REQUIRE(doc.has_value());
  CHECK(doc->name == "svg");
  CHECK(doc->attributes.count("viewBox") == 1);
  std::vector<const xml::Element*> paths;
  doc->collect("path", paths);
  const auto evaluation = std::find_if(paths.begin(), paths.end(), [](const xml::Element* e) {
    return e->attributes.count("class") && e->attributes.at("class") == "evaluation";
  });
  REQUIRE(evaluation != paths.end());
  CHECK(path_points((*evaluation)->attributes.at("d")) == positions);
  std::vector<const xml::Element*> circles;
  doc->collect("circle", circles);
  CHECK(static_cast<int>(circles.size()) == marks);
  for (const xml::Element* c : circles) {
    const double y = std::stod(c->attributes.at("cy"));
    CHECK(y >= 30.0);  // inside the plot: the values are clamped
    CHECK(y <= 230.0);
  }
}

}  // namespace

TEST_CASE("review: graph values are men clamped at 3, won and lost scores on the edge", "[review]") {
  CHECK(review::graph_value(50) == Approx(0.5));
  CHECK(review::graph_value(-120) == Approx(-1.2));
  CHECK(review::graph_value(450) == Approx(review::kGraphLimit));
  CHECK(review::graph_value(-450) == Approx(-review::kGraphLimit));
  CHECK(review::graph_value(win_in(9)) == Approx(review::kGraphLimit));
  CHECK(review::graph_value(loss_in(4)) == Approx(-review::kGraphLimit));
}

TEST_CASE("review: one position at a time gives the review of the whole game", "[review]") {
  const PdnGame pdn = read_one(kBlunderGame);
  Engine engine;
  const review::GameReview whole = review::review_game(engine, pdn, at_depth(5));
  engine.new_game();
  review::Reviewer reviewer(pdn, at_depth(5));
  REQUIRE(reviewer.total() == pdn.moves.size() + 1);
  std::size_t steps = 0;
  while (!reviewer.finished()) {
    reviewer.step(engine);
    ++steps;
    CHECK(reviewer.done() == steps);
  }
  const review::GameReview stepped = reviewer.result();
  CHECK(steps == pdn.moves.size() + 1);
  REQUIRE(stepped.plies.size() == whole.plies.size());
  CHECK(stepped.evals == whole.evals);
  for (std::size_t i = 0; i < whole.plies.size(); ++i) CHECK(stepped.plies[i].mark == whole.plies[i].mark);
  CHECK(stepped.annotated_pdn == whole.annotated_pdn);
}

TEST_CASE("review: the blunder is marked, counted for its side, and the average loss is per move",
          "[review]") {
  Engine engine;
  const review::GameReview r = review::review_game(engine, read_one(kBlunderGame), at_depth(6));
  REQUIRE(r.plies.size() == 9);
  REQUIRE(r.evals.size() == 10);
  CHECK(r.plies[6].mark == review::Mark::Blunder);  // 4. 17-14??
  CHECK(r.white.moves == 5);
  CHECK(r.black.moves == 4);
  CHECK(r.white.blunders >= 1);
  for (const Color side : {Color::White, Color::Black}) {
    const review::SideSummary& s = side == Color::White ? r.white : r.black;
    int counted = 0;
    Score total = 0;
    for (std::size_t i = 0; i < r.plies.size(); ++i) {
      if (r.game.positions()[i].side_to_move() != side) continue;
      counted += r.plies[i].mark != review::Mark::None;
      total += r.plies[i].loss;
    }
    CHECK(s.inaccuracies + s.mistakes + s.blunders == counted);
    CHECK(s.average_loss == Approx(total / 100.0 / s.moves));
  }
  CHECK(marks_in(r.annotated_pdn) == marked(r));
}

TEST_CASE("review: margins must be positive and growing", "[review]") {
  review::ReviewConfig c;
  CHECK(review::check_margins(c).has_value());
  c.margin = 10;  // below the inaccuracy margin
  CHECK_FALSE(review::check_margins(c).has_value());
  c = {};
  c.inaccuracy_margin = 0;
  CHECK_FALSE(review::check_margins(c).has_value());
}

TEST_CASE("review: the SVG graph is well-formed, one point per position and one dot per mark", "[review]") {
  Engine engine;
  const review::GameReview r = review::review_game(engine, read_one(kBlunderGame), at_depth(5));
  const std::string svg = review::graph_svg(r, "Alice <&> Bob \"test\"");
  check_graph(svg, r.evals.size(), marked(r));
  CHECK_THAT(svg, Catch::Contains("Alice &lt;&amp;&gt; Bob &quot;test&quot;"));
  CHECK_THAT(svg, Catch::Contains(std::string(review::mark_style(review::Mark::Blunder).colour)));
}

TEST_CASE("analyze --pdn --plot: one SVG per game of a 10-game file, each read as XML", "[review]") {
  const std::string pdn = std::string(DAMAS_SOURCE_DIR) + "/tests/data/review-10-games.pdn";
  const std::string dir = "/tmp/damas-review-plots";
  std::filesystem::remove_all(dir);
  const std::string annotated = "/tmp/damas-review-10.pdn";
  std::string out;
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " analyze --pdn " + pdn + " --depth 3 --out " +
                                annotated + " --plot " + dir,
                            out) == 0);
  const Expected<std::vector<strict_pdn::Game>> games = strict_pdn::read(slurp(annotated));
  INFO(out << (games ? "" : games.error()));
  REQUIRE(games.has_value());
  REQUIRE(games->size() == 10);
  // Each annotated game's text, to count its marks.
  const std::string text = slurp(annotated);
  std::vector<std::string> game_texts;
  for (std::size_t at = text.find("[Event"); at != std::string::npos;) {
    const std::size_t next = text.find("[Event", at + 1);
    game_texts.push_back(text.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  REQUIRE(game_texts.size() == 10);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files += entry.path().extension() == ".svg";
  CHECK(files == 10);
  for (std::size_t k = 0; k < 10; ++k) {
    const std::string svg_path = dir + "/review-10-games-" + std::to_string(k + 1) + ".svg";
    INFO(svg_path);
    REQUIRE(std::filesystem::exists(svg_path));
    check_graph(slurp(svg_path), (*games)[k].moves.size() + 1, marks_in(game_texts[k]));
  }
}

TEST_CASE("analyze --plot: a directory that cannot be made is a clear error", "[review]") {
  std::string out;
  CHECK(test::run_command(std::string(DAMAS_BINARY) + " analyze --pdn " + DAMAS_SOURCE_DIR +
                              "/tests/data/review-10-games.pdn --depth 1 --plot /proc/damas-no-such-dir",
                          out) == 2);
  CHECK_THAT(out, Catch::Contains("cannot make the directory /proc/damas-no-such-dir"));
}

const std::string kGeneration2Weights = std::string(DAMAS_SOURCE_DIR) + "/trainer/weights/gen2.dnn";

TEST_CASE("puzzles: the missed shot of a game becomes a puzzle whose solution wins a piece", "[review]") {
  const PdnGame pdn = read_one(kBlunderGame);
  Engine engine;
  // The game's shot was found with generation 2's weights: the finder is tested with them.
  REQUIRE(engine.set_option("eval-file", kGeneration2Weights));
  const review::GameReview r = review::review_game(engine, pdn, at_depth(6));
  review::PuzzleConfig config;
  config.limits.depth = 6;
  const std::vector<review::Puzzle> puzzles = review::find_puzzles(engine, r, pdn, config, "test.pdn", 1);
  REQUIRE_FALSE(puzzles.empty());
  const review::Puzzle& p = puzzles.front();
  CHECK(p.start == r.game.positions()[6]);  // before 4. 17-14??
  REQUIRE(p.solution.size() % 2 == 1);      // ends with the solver's move
  CHECK(p.solution.front() == r.plies[6].best);
  Position end = p.start;
  for (const Move& m : p.solution) end = end.after(m);
  const auto balance = [](const Position& q) {
    return std::popcount(q.pieces(Color::White)) - std::popcount(q.pieces(Color::Black));
  };
  CHECK(balance(end) >= balance(p.start) + 1);
  CHECK_THAT(p.source, Catch::Contains("test.pdn, game 1: 4. 17-14??"));

  const std::string text = review::puzzle_pdn(p, 7);
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(text);
  INFO(text << (strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  REQUIRE(strict->size() == 1);
  CHECK(strict->front().start == p.start);
  CHECK(strict->front().moves == p.solution);
  CHECK(strict->front().tag("Event") == "damas puzzle 7");
  CHECK(strict->front().tag("White") == "Alice");
  CHECK(strict->front().tag("PuzzleSource") == p.source);
}

TEST_CASE("puzzles: a game without a mistake gives none", "[review]") {
  const PdnGame pdn = read_one("1. 22-18 11-15 2. 18x11 8x15 *\n");
  Engine engine;
  const review::GameReview r = review::review_game(engine, pdn, at_depth(5));
  review::PuzzleConfig config;
  config.limits.depth = 5;
  CHECK(review::find_puzzles(engine, r, pdn, config, "x.pdn", 1).empty());
}

TEST_CASE("damas puzzles: a standard PDN file of puzzles, bad input is a clear error", "[review]") {
  const std::string in = "/tmp/damas-puzzles-test.pdn";
  const std::string out_file = "/tmp/damas-puzzles-test-out.pdn";
  {
    std::ofstream f(in);
    f << kBlunderGame << "\n[Event \"bad\"]\n\n1. 22-18 11-15 2. 23-19 *\n";
  }
  std::string out;
  CHECK(test::run_command(std::string(DAMAS_BINARY) + " puzzles --pdn " + in + " --depth 6 --eval-file " +
                              kGeneration2Weights + " --out " + out_file,
                          out) == 0);
  CHECK_THAT(out, Catch::Contains("game 2, line 9"));
  CHECK_THAT(out, Catch::Contains("puzzles from 1 games in " + out_file));
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(slurp(out_file));
  INFO(slurp(out_file) << (strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  REQUIRE_FALSE(strict->empty());
  CHECK_THAT(strict->front().tag("PuzzleSource").value_or(""), Catch::Contains("game 1"));

  CHECK(test::run_command(std::string(DAMAS_BINARY) + " puzzles --pdn " + in, out) == 2);
  CHECK_THAT(out, Catch::Contains("--pdn and --out are needed"));
  CHECK(test::run_command(
            std::string(DAMAS_BINARY) + " puzzles --pdn /tmp/damas-no-such.pdn --out " + out_file, out) == 1);
  CHECK_THAT(out, Catch::Contains("/tmp/damas-no-such.pdn"));
}

TEST_CASE("the shipped puzzle set is standard PDN, each puzzle with its source", "[review]") {
  const std::string text = slurp(std::string(DAMAS_SOURCE_DIR) + "/web/board/puzzles.pdn");
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(text);
  INFO((strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  CHECK(strict->size() >= 5);
  for (const strict_pdn::Game& g : *strict) {
    CHECK(g.tag("PuzzleSource").has_value());
    CHECK(g.moves.size() % 2 == 1);  // the solver moves first and last
  }
}

TEST_CASE("analysis: a move giving a man away is marked with the best move and its line", "[analysis]") {
  Engine engine;
  const review::GameReview a = review::review_game(engine, read_one(kBlunderGame), at_depth(6));
  REQUIRE(a.plies.size() == 9);
  const review::PlyReview& blunder = a.plies[6];  // 4. 17-14
  CHECK(to_hub_move(blunder.played) == "17-14");
  CHECK(blunder.loss >= 50);
  CHECK(blunder.mark != review::Mark::None);
  CHECK_FALSE(blunder.best == blunder.played);
  CHECK(blunder.eval_after < -50);  // White's view: a man down
  CHECK_THAT(a.annotated_pdn,
             Catch::Contains("17-14" + std::string(review::mark_style(blunder.mark).nag) + " {"));
  const Position before_blunder = a.game.positions()[6];
  CHECK_THAT(a.annotated_pdn, Catch::Contains("best " + to_pdn_move(before_blunder, blunder.best)));
  CHECK_THAT(a.summary,
             Catch::Contains("4. 17-14" + std::string(review::mark_style(blunder.mark).nag) + " loses"));
  // The opening moves are not errors.
  CHECK(a.plies[0].mark == review::Mark::None);
  CHECK(a.plies[1].mark == review::Mark::None);
}

TEST_CASE("analysis: every move gets its evaluation and the annotated PDN reads back", "[analysis]") {
  Engine engine;
  const PdnGame source = read_one(kBlunderGame);
  const review::GameReview a = review::review_game(engine, source, at_depth(4));
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
    review::ReviewConfig config = at_depth(4);
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
      review::review_game(engine, read_one("[DrawRules \"fmjd64\"]\n\n1. 22-18 *\n"), at_depth(2));
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

TEST_CASE("analyze --pdn: a bad game is reported with file, line and move, the others are analysed",
          "[analysis]") {
  const std::string in = "/tmp/damas-analysis-test.pdn";
  const std::string out = "/tmp/damas-analysis-test-annotated.pdn";
  {
    std::ofstream f(in);
    f << kBlunderGame << "\n[Event \"bad\"]\n\n1. 22-18 11-15 2. 23-19 *\n\n"
      << "[Event \"third\"]\n\n1. 22-18 11-15 *\n";
  }
  const std::string text =
      output_of(std::string(DAMAS_BINARY) + " analyze --pdn " + in + " --depth 3 --out " + out);
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
  CHECK_THAT(output_of(bin + " analyze --depth 1 --board"), Catch::Contains("8  . b . b . b . b"));
  CHECK_THAT(output_of(bin + " analyze --depth 1"), !Catch::Contains("8  . b . b . b . b"));
  CHECK_THAT(output_of(bin + " analyze --depth 1 --board no"), !Catch::Contains("8  . b . b . b . b"));
}
