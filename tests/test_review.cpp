// Game review (review/review.h): the review one position at a time, the graph values, the
// per-side counts; the SVG graph (review/graph.h) and `analyze --pdn --plot` on a 10-game file,
// each SVG read by a strict XML reader; puzzles (review/puzzles.h) and `damas puzzles`, their
// PDN read by the strict PDN reader.
#include <bit>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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

// Runs a command line; its exit status, the output in `out`.
int run(const std::string& command, std::string& out) {
  const std::string file = "/tmp/damas-review-test.out";
  const int status = std::system((command + " > " + file + " 2>&1").c_str());
  out = slurp(file);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
  CHECK_THAT(svg, Catch::Contains(std::string(review::mark_colour(review::Mark::Blunder))));
}

TEST_CASE("analyze --pdn --plot: one SVG per game of a 10-game file, each read as XML", "[review]") {
  const std::string pdn = std::string(DAMAS_SOURCE_DIR) + "/tests/data/review-10-games.pdn";
  const std::string dir = "/tmp/damas-review-plots";
  std::filesystem::remove_all(dir);
  const std::string annotated = "/tmp/damas-review-10.pdn";
  std::string out;
  REQUIRE(run(std::string(DAMAS_BINARY) + " analyze --pdn " + pdn + " --depth 3 --out " + annotated +
                  " --plot " + dir,
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
  CHECK(run(std::string(DAMAS_BINARY) + " analyze --pdn " + DAMAS_SOURCE_DIR +
                "/tests/data/review-10-games.pdn --depth 1 --plot /proc/damas-no-such-dir",
            out) == 2);
  CHECK_THAT(out, Catch::Contains("cannot make the directory /proc/damas-no-such-dir"));
}

TEST_CASE("puzzles: the missed shot of a game becomes a puzzle whose solution wins a piece", "[review]") {
  const PdnGame pdn = read_one(kBlunderGame);
  Engine engine;
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

TEST_CASE("damas puzzles: a standard PDN file of puzzles; bad input is a clear error", "[review]") {
  const std::string in = "/tmp/damas-puzzles-test.pdn";
  const std::string out_file = "/tmp/damas-puzzles-test-out.pdn";
  {
    std::ofstream f(in);
    f << kBlunderGame << "\n[Event \"bad\"]\n\n1. 22-18 11-15 2. 23-19 *\n";
  }
  std::string out;
  CHECK(run(std::string(DAMAS_BINARY) + " puzzles --pdn " + in + " --depth 6 --out " + out_file, out) == 0);
  CHECK_THAT(out, Catch::Contains("game 2, line 9"));
  CHECK_THAT(out, Catch::Contains("puzzles from 1 games in " + out_file));
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(slurp(out_file));
  INFO(slurp(out_file) << (strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  REQUIRE_FALSE(strict->empty());
  CHECK_THAT(strict->front().tag("PuzzleSource").value_or(""), Catch::Contains("game 1"));

  CHECK(run(std::string(DAMAS_BINARY) + " puzzles --pdn " + in, out) == 2);
  CHECK_THAT(out, Catch::Contains("--pdn and --out are needed"));
  CHECK(run(std::string(DAMAS_BINARY) + " puzzles --pdn /tmp/damas-no-such.pdn --out " + out_file, out) == 1);
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
