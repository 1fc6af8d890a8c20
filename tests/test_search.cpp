// Search behaviour: combinations, only moves, draws by rule, determinism, the bench signature.
#include <catch2/catch.hpp>

#include <cstdio>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"
#include "damas/search/search.h"
#include "rules_helpers.h"

using namespace damas;
using damas::testing::fen;

namespace {

Move move(const Position& p, std::string_view text) {
  Expected<Move> m = parse_hub_move(p, text);
  REQUIRE(m.has_value());
  return *m;
}

struct Analysis {
  SearchResult result;
  std::vector<SearchInfo> last_lines;  // the lines of the last completed depth, by index
};

Analysis analyze(Engine& engine, int depth) {
  Analysis a;
  SearchLimits l;
  l.depth = depth;
  a.result = engine.search(l, GoMode::Analyze, [&a](const SearchInfo& i) {
    if (a.last_lines.size() < static_cast<std::size_t>(i.multipv_index))
      a.last_lines.resize(static_cast<std::size_t>(i.multipv_index));
    a.last_lines[static_cast<std::size_t>(i.multipv_index) - 1] = i;
  });
  return a;
}

std::unique_ptr<Engine> small_engine() {
  auto e = std::make_unique<Engine>();
  REQUIRE(e->set_option("hash", "4"));
  return e;
}

}  // namespace

// White: c3 e3 b2 a1; Black: c7 c5 e5. 22-18 (c3-d4) forces 15x22 (e5xc3: b2 cannot be jumped,
// a1 is occupied, c5xd4 would land on the occupied e3); then b2 takes c3, c5 and c7 in one move
// (25x2, landing on d8) and Black has nothing left: a win in 3 plies, and the only one.
TEST_CASE("search: finds a three-ply shot and knows it is the only win", "[search]") {
  auto engine = small_engine();
  REQUIRE(engine->set_option("multipv", "2"));
  const Position p = fen("W:W22,23,25,29:B6,14,15");
  REQUIRE(engine->set_position(p));
  const Analysis a = analyze(*engine, 8);
  CHECK(a.result.best == move(p, "22-18"));
  CHECK(a.result.score == win_in(3));
  REQUIRE(a.result.pv.size() == 3);
  CHECK(a.result.pv[1] == move(p.after(a.result.pv[0]), "15x22x18"));
  REQUIRE(a.last_lines.size() == 2);
  CHECK(!is_win_score(a.last_lines[1].score));
}

// White: c7 a5 c5 h4; Black: a7 e7 b6. 6-2 crowns on d8; Black must take c5 (9x18, b6xd4);
// the new king takes e7 and d4 (2x22, d8-f6-c3); Black's last man must step a7-b6 and a5 takes
// it: Black has no piece left after 5 plies.
TEST_CASE("search: finds a five-ply combination", "[search]") {
  auto engine = small_engine();
  const Position p = fen("W:W6,13,14,20:B5,7,9");
  REQUIRE(engine->set_position(p));
  const Analysis a = analyze(*engine, 10);
  CHECK(a.result.best == move(p, "6-2"));
  CHECK(a.result.score == win_in(5));
  CHECK(a.result.pv.size() == 5);
}

// White: e7 d4 e1; Black: f8 h8 b2. Black threatens f8xe7; only e7-d8 (crowning) saves the man,
// every other move loses it and, the search says, the game.
TEST_CASE("search: finds the only move", "[search]") {
  auto engine = small_engine();
  REQUIRE(engine->set_option("multipv", "2"));
  const Position p = fen("W:W7,18,31:B3,4,25");
  REQUIRE(engine->set_position(p));
  const Analysis a = analyze(*engine, 12);
  CHECK(a.result.best == move(p, "7-2"));
  CHECK(!is_loss_score(a.result.score));
  REQUIRE(a.last_lines.size() == 2);
  CHECK(a.last_lines[1].score < a.result.score - 200);
}

TEST_CASE("search: the side without a legal move has lost, mates carry their distance", "[search]") {
  auto engine = small_engine();
  // c3xd4 takes Black's last piece: Black cannot move after one ply.
  const Position p = fen("W:W22:B18");
  REQUIRE(engine->set_position(p));
  const Analysis a = analyze(*engine, 4);
  CHECK(a.result.best == move(p, "22x15x18"));
  CHECK(a.result.score == win_in(1));
}

namespace {

// Kings on 29, 30 and 31 of the side to move against a king on 4, after `reversible` plies without
// a capture or a man move.
Position three_kings_against_one(Color to_move, int reversible) {
  const Bitboard kings = bb(square_from_number(29)) | bb(square_from_number(30)) | bb(square_from_number(31));
  const Bitboard lone = bb(square_from_number(4));
  const Bitboard white = to_move == Color::White ? kings : lone;
  const Bitboard black = to_move == Color::White ? lone : kings;
  return Position::from_pieces(white, black, white | black, to_move, reversible);
}

}  // namespace

TEST_CASE("search: the 80-ply rule scores a draw", "[search]") {
  auto engine = small_engine();
  // Three white kings against one: winning on material, but every white move is the 80th
  // reversible ply (no capture is possible).
  const Position fresh = three_kings_against_one(Color::White, 0);
  const Position worn = three_kings_against_one(Color::White, 79);
  REQUIRE(!has_capture(fresh));
  REQUIRE(engine->set_position(fresh));
  CHECK(analyze(*engine, 6).result.score > 0);
  REQUIRE(engine->set_position(worn));
  CHECK(analyze(*engine, 6).result.score == kScoreDraw);
}

TEST_CASE("search: repeating a position of the game history scores a draw", "[search]") {
  auto engine = small_engine();
  // White's lone king is worse off; going back to a1 repeats the position before 1-5.
  const Position start = fen("B:WK29:BK1,3,12");
  Expected<std::vector<Move>> moves = parse_move_list(start, "1-5 29-25 5-1");
  REQUIRE(moves.has_value());
  REQUIRE(engine->set_position(start, *moves));
  const Analysis with_history = analyze(*engine, 10);
  CHECK(with_history.result.score == kScoreDraw);
  CHECK(with_history.result.best == move(engine->position(), "25-29"));

  REQUIRE(engine->set_position(engine->position()));  // same root, no history
  const Analysis without = analyze(*engine, 10);
  CHECK(without.result.score < 0);
}

TEST_CASE("search: one thread gives the same node counts every run", "[search]") {
  auto engine = small_engine();
  Expected<std::vector<Move>> moves = parse_move_list(Position::start(), "22-18 11-15 18x11 8x15");
  REQUIRE(moves.has_value());
  REQUIRE(engine->set_position(Position::start(), *moves));
  std::vector<std::uint64_t> counts;
  for (int run = 0; run < 2; ++run) {
    engine->new_game();
    counts.push_back(analyze(*engine, 9).result.nodes);
  }
  CHECK(counts[0] == counts[1]);
  CHECK(counts[0] > 1000);
}

TEST_CASE("search: several threads find a legal move and the shot", "[search]") {
  auto engine = small_engine();
  REQUIRE(engine->set_option("threads", "3"));
  const Position p = fen("W:W22,23,25,29:B6,14,15");
  REQUIRE(engine->set_position(p));
  const Analysis a = analyze(*engine, 9);
  CHECK(a.result.best == move(p, "22-18"));
  CHECK(a.result.score == win_in(3));
}

// Lazy SMP may play a helper thread's move; the last line a GUI saw must be the move played.
TEST_CASE("search: with two threads the last info line shows the move played", "[search]") {
  // Middlegames of bench/bench-positions.txt, where the best move changes with depth.
  for (const char* text :
       {"W:W17,18,21,23,25,27,28,29,31,32:B1,2,3,4,5,7,8,9,10,11",
        "W:W17,20,21,22,23,24,27,29,30,31,32:B1,2,3,4,5,6,8,10,11,15,16",
        "W:W13,14,20,25,27,29,31,32:B1,2,3,4,5,11,15,16", "W:W13,17,20,22,27,29,32:B4,6,9,10,11,15,16",
        "W:W19,21,22,24,26,28,29,30:B1,2,3,5,7,10,11,12,13", "W:W22,23,24,29,30,32:B1,3,4,6,8,9,11,14",
        "W:W17,19,20,22,23,24,25,31:B4,8,10,11,12,13,14,16", "W:W12,21,23,25,26,28,31:B3,5,7,8,10,13,14"}) {
    const Position p = fen(text);
    for (const char* skip : {"true", "false"}) {
      for (const char* deepest : {"true", "false"}) {
        for (const std::uint64_t nodes : {20000, 60000, 200000}) {
          auto engine = small_engine();
          REQUIRE(engine->set_option("threads", "2"));
          REQUIRE(engine->set_option(std::string(option::kSmpSkipDepths), skip));
          REQUIRE(engine->set_option(std::string(option::kSmpDeepestThread), deepest));
          REQUIRE(engine->set_position(p));
          SearchLimits l;
          l.nodes = nodes;
          SearchInfo last;
          const SearchResult r = engine->search(l, GoMode::Think, [&last](const SearchInfo& i) { last = i; });
          MoveList legal;
          generate_legal_moves(p, legal);
          CHECK(legal.contains(r.best));
          REQUIRE(!last.pv.empty());
          CHECK(last.pv.front() == r.best);
          CHECK(r.depth >= 1);
        }
      }
    }
  }
  auto engine = small_engine();
  CHECK(!engine->set_option(std::string(option::kSmpSkipDepths), "sometimes").has_value());
}

namespace {

// A search to `depth` with the engine options given (name, value), on a fresh small engine.
SearchResult search_with(std::initializer_list<std::pair<std::string_view, const char*>> settings,
                         int depth) {
  auto engine = small_engine();
  for (const auto& [name, value] : settings)
    REQUIRE(engine->set_option(std::string(name), value).has_value());
  SearchLimits limits;
  limits.depth = depth;
  return engine->search(limits);
}

// A search switch that is off by default, refuses a non-boolean value and, switched on, changes the
// tree (nodes) but still completes the depth asked, the same way every run.
void check_tree_switch(std::string_view name) {
  const SearchResult off = search_with({{name, "false"}}, 10);
  const SearchResult on = search_with({{name, "true"}}, 10);
  CHECK(on.nodes != off.nodes);
  CHECK(!on.best.is_null());
  CHECK(on.depth == 10);
  CHECK(search_with({{name, "true"}}, 10).nodes == on.nodes);
  auto engine = small_engine();
  CHECK(!engine->options().get_bool(name));
  CHECK(!engine->set_option(std::string(name), "sometimes").has_value());
}

}  // namespace

TEST_CASE("search: lmr-divisor sets the reductions: fewer nodes when smaller, the default as before",
          "[search]") {
  const auto plain = search_with({}, 10).nodes;
  CHECK(search_with({{option::kLmrDivisor, "180"}}, 10).nodes == plain);
  CHECK(search_with({{option::kLmrDivisor, "120"}}, 10).nodes < plain);
  CHECK(search_with({{option::kLmrDivisor, "300"}}, 10).nodes > plain);
  auto engine = small_engine();
  CHECK(!engine->set_option(std::string(option::kLmrDivisor), "10").has_value());
  CHECK(!engine->set_option(std::string(option::kLmrDivisor), "1.8").has_value());
}

TEST_CASE("search: aspiration-delta sets the root window, the default as before", "[search]") {
  const auto nodes_with = [](const char* delta) {
    const SearchResult r = search_with({{option::kAspirationDelta, delta}}, 10);
    CHECK(r.depth == 10);
    CHECK(!r.best.is_null());
    return r.nodes;
  };
  const auto plain = search_with({}, 10).nodes;
  CHECK(nodes_with("25") == plain);
  CHECK(nodes_with("5") != plain);
  CHECK(nodes_with("400") != plain);
  auto engine = small_engine();
  CHECK(engine->options().get_int(option::kAspirationDelta) == 25);
  CHECK(!engine->set_option(std::string(option::kAspirationDelta), "4").has_value());
  CHECK(!engine->set_option(std::string(option::kAspirationDelta), "401").has_value());
  CHECK(!engine->set_option(std::string(option::kAspirationDelta), "wide").has_value());
}

TEST_CASE("search: threat-extension changes the tree, not the depth completed", "[search]") {
  check_tree_switch(option::kThreatExtension);
}

TEST_CASE("search: time-use is an engine option, 100 percent by default", "[search]") {
  auto engine = small_engine();
  CHECK(engine->options().get_int(option::kTimeUse) == 100);
  CHECK(engine->set_option(std::string(option::kTimeUse), "150").has_value());
  CHECK(engine->options().get_int(option::kTimeUse) == 150);
  CHECK(!engine->set_option(std::string(option::kTimeUse), "49").has_value());
  CHECK(!engine->set_option(std::string(option::kTimeUse), "301").has_value());
  CHECK(!engine->set_option(std::string(option::kTimeUse), "1.5").has_value());
}

TEST_CASE("search: weak levels stay legal and reasonable", "[search]") {
  for (const char* level : {"beginner", "easy", "medium", "hard"}) {
    auto engine = small_engine();
    REQUIRE(engine->set_option("level", level));
    REQUIRE(engine->set_option("seed", "7"));
    const Position p = fen("W:W22,23,25,29:B6,14,15");
    REQUIRE(engine->set_position(p));
    SearchLimits l;
    l.move_time = 5;
    const SearchResult r = engine->search(l);
    MoveList legal;
    generate_legal_moves(p, legal);
    CHECK(legal.contains(r.best));
    CHECK(r.best == move(p, "22-18"));  // a found win is never given away
  }
}

namespace {

// Runs `damas bench` and returns the "nodes" line's number (0 on failure).
std::uint64_t bench_nodes(int depth, const std::string& extra = "") {
  const std::string command =
      std::string(DAMAS_BINARY) + " bench --depth " + std::to_string(depth) + " " + extra + " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return 0;
  char line[256];
  std::uint64_t nodes = 0;
  while (std::fgets(line, sizeof line, pipe)) {
    unsigned long long n = 0;
    if (std::sscanf(line, "nodes %llu", &n) == 1) nodes = n;
  }
  pclose(pipe);
  return nodes;
}

}  // namespace

TEST_CASE("bench: the node signature is the same every run", "[search][bench]") {
  const std::uint64_t first = bench_nodes(5);
  const std::uint64_t second = bench_nodes(5);
  CHECK(first > 0);
  CHECK(first == second);
}

TEST_CASE("bench: the selective-search switches reach the search from the command line", "[search][bench]") {
  const std::uint64_t defaults = bench_nodes(6);
  CHECK(defaults > 0);
  CHECK(bench_nodes(6, "--lmr=true --probcut true") == defaults);
  CHECK(bench_nodes(6, "--lmr=false") > defaults);
  CHECK(bench_nodes(6, "--probcut=false") != defaults);
  CHECK(bench_nodes(6, "--lmr=maybe") == 0);  // refused: no result line
}

// The SearchTuning switches are engine options, so `damas selfplay --a "lmr=false"` can measure
// each one; their defaults are the tuning the engine plays with.
TEST_CASE("search: each selective-search switch is an option that changes the search", "[search][options]") {
  const SearchTuning defaults;
  const std::vector<std::pair<std::string_view, bool>> switches = {
      {option::kLmr, defaults.lmr},
      {option::kProbCut, defaults.probcut},
      {option::kThreatExtension, defaults.threat_extension},
  };
  const auto depth8_nodes = [](Engine& engine) {
    engine.new_game();
    return analyze(engine, 8).result.nodes;
  };
  auto engine = small_engine();
  const std::uint64_t baseline = depth8_nodes(*engine);
  REQUIRE(baseline > 1000);
  for (const auto& [name, on] : switches) {
    INFO("option " << name);
    const OptionSpec* spec = find_option(name);
    REQUIRE(spec != nullptr);
    CHECK(spec->type == OptionType::Bool);
    CHECK(spec->default_value == OptionValue{on});
    CHECK(engine->options().get_bool(name) == on);
    CHECK_FALSE(engine->set_option(name, "maybe").has_value());
    CHECK_FALSE(engine->set_option(name, "1").has_value());
    CHECK(engine->options().get_bool(name) == on);

    REQUIRE(engine->set_option(name, on ? "false" : "true").has_value());
    const std::uint64_t flipped = depth8_nodes(*engine);
    CHECK(flipped != baseline);
    if (name == option::kLmr) CHECK(flipped > baseline);
    REQUIRE(engine->set_option(name, on ? "true" : "false").has_value());
    CHECK(depth8_nodes(*engine) == baseline);
  }
}

namespace {

// One search of `p` under the FMJD-64 laws with the counter at `plies`, on the given table.
SearchResult fmjd64_search(const Position& p, int plies, TranspositionTable& tt, int depth) {
  SearchRequest r;
  r.root = p;
  r.draw_rules = DrawRules::Fmjd64;
  r.root_draw.plies = static_cast<std::uint16_t>(plies);
  r.limits.depth = depth;
  r.mode = GoMode::Analyze;
  r.learned = std::make_shared<const LearnedWeights>(builtin_learned_weights());
  SearchControl control;
  return run_search(r, tt, control, {});
}

}  // namespace

// Three kings against a king, 7.2.4: 15 moves. White wins in 5 plies with no capture on the way
// to restart the count, so with 4 plies left there is no win (at best a king given away for a
// fresh count of two kings against one). One table serves all the searches: a score stored under
// one counter must not answer another.
TEST_CASE("search: a stored score is not reused where the draw-law counter differs", "[search][laws]") {
  const Position p = fen("W:WK2,K5,K6:BK28");
  TranspositionTable tt(4);
  CHECK(fmjd64_search(p, 0, tt, 9).score == win_in(5));
  CHECK(fmjd64_search(p, 26, tt, 9).score < kMan);
  CHECK(fmjd64_search(p, 0, tt, 9).score == win_in(5));
  CHECK(fmjd64_search(p, 26, tt, 9).score < kMan);
}

TEST_CASE("search: the counter of a law in reach is part of the table key, not far from the limit",
          "[search][laws]") {
  const Position kings = fen("W:WK2,K5,K6:BK28");
  DrawCounters fresh, later;
  later.plies = 22;  // 7.2.4 ends the game in 8 plies
  CHECK(search_key(kings, DrawRules::Fmjd64, fresh) != search_key(kings, DrawRules::Fmjd64, later));
  CHECK(search_key(kings, DrawRules::Fmjd64, later) != kings.key());
  CHECK(search_key(kings, DrawRules::Fmjd64, fresh) == kings.key());  // 30 plies from its limit
  // The start position: no law fits, the key is the position's.
  CHECK(search_key(Position::start(), DrawRules::Fmjd64, later) == Position::start().key());
  // Seed laws: the 80-ply count is keyed once within the horizon of the limit.
  const Position early = Position::from_pieces(kings.pieces(Color::White), kings.pieces(Color::Black),
                                               kings.kings(), Color::White, 3);
  const Position late = Position::from_pieces(kings.pieces(Color::White), kings.pieces(Color::Black),
                                              kings.kings(), Color::White, 72);
  CHECK(search_key(early, DrawRules::Seed, {}) == early.key());
  CHECK(search_key(late, DrawRules::Seed, {}) != late.key());
}

// Issue 40's example (ballot 7-IX): at the game-speed budget 22-17 walked into 19-23 and a shot
// of seven men, because ProbCut cut the forced capture sequence; bench/safety.md.
TEST_CASE("search: ProbCut is not tried where a capture is pending (the 7-IX shot)", "[search]") {
  const Position p = fen("W:W20,21,22,25,26,27,28,30,31,32:B1,2,3,6,7,9,10,11,12,19");
  Engine engine;
  REQUIRE(engine.set_option(option::kBook, "false"));
  REQUIRE(engine.set_position(p));
  SearchLimits limits;
  limits.nodes = 800'000;  // one move at 5+0.05 (match/safety_check.h)
  const SearchResult r = engine.search(limits, GoMode::Think);
  CHECK(to_hub_move(r.best) != "22-17");
  CHECK(r.score > -kMan);
}
