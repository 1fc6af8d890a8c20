// The Engine facade: life cycle of searches (go/stop/wait/done), positions, options.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/engine/engine.h"
#include "rules_helpers.h"

using namespace damas;
using damas::testing::fen;

namespace {

SearchLimits depth_limit(int d) {
  SearchLimits l;
  l.depth = d;
  return l;
}

}  // namespace

TEST_CASE("engine: a depth-limited search returns a legal move and its line", "[engine]") {
  Engine engine;
  REQUIRE(engine.set_option("hash", "4"));
  std::vector<SearchInfo> infos;
  const SearchResult r =
      engine.search(depth_limit(6), GoMode::Think, [&infos](const SearchInfo& i) { infos.push_back(i); });
  CHECK(is_legal(Position::start(), r.best));
  CHECK(r.depth == 6);
  REQUIRE(!r.pv.empty());
  CHECK(r.pv.front() == r.best);
  REQUIRE(r.pv.size() >= 2);
  CHECK(r.ponder == r.pv[1]);
  CHECK(is_legal(Position::start().after(r.best), r.ponder));
  // One report per completed iteration at least, depths increasing up to 6.
  REQUIRE(!infos.empty());
  CHECK(infos.back().depth == 6);
  for (std::size_t i = 1; i < infos.size(); ++i) CHECK(infos[i].depth >= infos[i - 1].depth);
  CHECK(!engine.searching());
}

TEST_CASE("engine: every go gets exactly one done, also when stopped at once", "[engine]") {
  Engine engine;
  REQUIRE(engine.set_option("hash", "2"));
  std::atomic<int> done{0};
  std::mutex m;
  std::vector<Move> bests;
  const int kSearches = 20;
  for (int i = 0; i < kSearches; ++i) {
    engine.go(SearchLimits{}, i % 3 == 0 ? GoMode::Analyze : GoMode::Think, {}, [&](const SearchResult& r) {
      std::lock_guard lock(m);
      bests.push_back(r.best);
      ++done;
    });
    engine.stop();
    engine.stop();
  }
  engine.wait();
  CHECK(done == kSearches);
  for (const Move& b : bests) CHECK(is_legal(Position::start(), b));

  // go while a search runs: the first is superseded, both answer.
  done = 0;
  engine.go(SearchLimits{}, GoMode::Analyze, {}, [&](const SearchResult&) { ++done; });
  engine.go(depth_limit(3), GoMode::Think, {}, [&](const SearchResult&) { ++done; });
  engine.wait();
  CHECK(done == 2);
}

TEST_CASE("engine: limits end the search on their own", "[engine]") {
  Engine engine;
  REQUIRE(engine.set_option("hash", "2"));
  SECTION("move time") {
    SearchLimits l;
    l.move_time = 0.05;
    CHECK(is_legal(Position::start(), engine.search(l).best));
  }
  SECTION("clock with increment, even with no time left") {
    SearchLimits l;
    l.time = -0.5;
    l.increment = 0.1;
    CHECK(is_legal(Position::start(), engine.search(l).best));
  }
  SECTION("moves in time") {
    SearchLimits l;
    l.time = 0.3;
    l.moves_to_go = 5;
    CHECK(is_legal(Position::start(), engine.search(l).best));
  }
  SECTION("nodes") {
    SearchLimits l;
    l.nodes = 5000;
    const SearchResult r = engine.search(l);
    CHECK(is_legal(Position::start(), r.best));
    CHECK(r.nodes < 5000 + 2000);
  }
}

TEST_CASE("engine: a single legal move is answered without searching", "[engine]") {
  Engine engine;
  // White man on 22 must take 18 (the only capture).
  const Position p = fen("W:W22:B18,1");
  REQUIRE(count_legal_moves(p) == 1);
  REQUIRE(engine.set_position(p));
  std::vector<SearchInfo> infos;
  const SearchResult r =
      engine.search(SearchLimits{}, GoMode::Think, [&infos](const SearchInfo& i) { infos.push_back(i); });
  CHECK(is_legal(p, r.best));
  CHECK(r.nodes == 0);
  CHECK(r.depth == 0);
  REQUIRE(infos.size() == 1);
  CHECK(infos[0].pv == std::vector<Move>{r.best});
}

TEST_CASE("engine: set_position checks every move and keeps the history", "[engine]") {
  Engine engine;
  const Position start = Position::start();
  Expected<std::vector<Move>> moves = parse_move_list(start, "22-18 11-15 18x11");
  REQUIRE(moves.has_value());
  REQUIRE(engine.set_position(start, *moves));
  CHECK(engine.history().size() == 4);
  CHECK(engine.history().front() == start);
  const Position root = engine.position();

  std::vector<Move> bad = *moves;
  bad.push_back(bad.front());  // 22-18 is not legal for Black here
  const Status s = engine.set_position(start, bad);
  CHECK(!s.has_value());
  CHECK(!s.error().empty());
  CHECK(engine.position() == root);
  CHECK(engine.history().size() == 4);
}

TEST_CASE("engine: options are validated and refused during a search", "[engine]") {
  Engine engine;
  CHECK(!engine.set_option("threads", "0").has_value());
  CHECK(!engine.set_option("no-such-option", "1").has_value());
  CHECK(!engine.set_option("eval-file", "/no/such/file").has_value());
  CHECK(engine.options().get("eval-file").empty());
  CHECK(engine.set_option("hash", "3").has_value());
  CHECK(engine.options().get_int("hash") == 3);

  std::atomic<bool> done{false};
  engine.go(SearchLimits{}, GoMode::Analyze, {}, [&done](const SearchResult&) { done = true; });
  CHECK(!engine.set_option("hash", "5").has_value());
  CHECK(!engine.set_position(Position::start()).has_value());
  engine.new_game();  // ignored during a search, must not race
  engine.stop();
  engine.wait();
  CHECK(done);
  CHECK(engine.set_option("hash", "5").has_value());
}

TEST_CASE("engine: pondering waits for ponder_hit, then plays on the clock", "[engine]") {
  Engine engine;
  REQUIRE(engine.set_option("hash", "2"));
  std::atomic<bool> done{false};
  SearchResult result;
  SearchLimits l;
  l.move_time = 0.02;
  engine.go(l, GoMode::Ponder, {}, [&](const SearchResult& r) {
    result = r;
    done = true;
  });
  engine.ponder_hit();
  engine.wait();
  CHECK(done);
  CHECK(is_legal(Position::start(), result.best));
}

TEST_CASE("engine: a position without legal moves still gets its done, with no move", "[engine]") {
  Engine engine;
  REQUIRE(engine.set_option("hash", "1"));
  // White's only man is blocked by two black men it cannot take (landing squares occupied).
  const Position p = fen("W:W29:B25,21,22");
  REQUIRE(!has_legal_move(p));
  REQUIRE(engine.set_position(p));
  int done = 0;
  SearchResult result;
  engine.go(SearchLimits{}, GoMode::Think, {}, [&](const SearchResult& r) {
    result = r;
    ++done;
  });
  engine.wait();
  CHECK(done == 1);
  CHECK(result.best.is_null());
}

TEST_CASE("engine: levels cap the depth, full strength does not", "[engine]") {
  for (const auto& [level, cap] : {std::pair<const char*, int>{"beginner", 2}, {"easy", 4}, {"medium", 8}}) {
    Engine engine;
    REQUIRE(engine.set_option("hash", "1"));
    REQUIRE(engine.set_option("level", level));
    SearchLimits l;
    l.depth = 30;
    const SearchResult r = engine.search(l);
    CHECK(r.depth >= 1);
    CHECK(r.depth <= cap);
    CHECK(is_legal(Position::start(), r.best));
  }
  Engine engine;
  REQUIRE(engine.set_option("hash", "1"));
  CHECK(engine.search(depth_limit(10)).depth == 10);
}

TEST_CASE("engine: a fixed seed makes a weak level repeat its choices", "[engine]") {
  std::vector<Move> first;
  for (int run = 0; run < 2; ++run) {
    Engine engine;
    REQUIRE(engine.set_option("hash", "1"));
    REQUIRE(engine.set_option("level", "beginner"));
    REQUIRE(engine.set_option("seed", "12345"));
    std::vector<Move> played;
    std::vector<Move> moves;
    for (int ply = 0; ply < 10; ++ply) {
      REQUIRE(engine.set_position(Position::start(), moves));
      if (!has_legal_move(engine.position())) break;
      const SearchResult r = engine.search(SearchLimits{});
      REQUIRE(is_legal(engine.position(), r.best));
      moves.push_back(r.best);
    }
    if (run == 0) first = moves;
    else CHECK(moves == first);
  }
}

TEST_CASE("engine: the done callback may set up and start the next search", "[engine]") {
  Engine engine;
  REQUIRE(engine.set_option("hash", "1"));
  std::vector<Move> moves;
  std::atomic<int> dones{0};
  std::atomic<bool> refused{false};
  DoneCallback next;
  next = [&](const SearchResult& r) {
    ++dones;
    if (r.best.is_null()) return;
    moves.push_back(r.best);
    if (moves.size() >= 4) return;
    if (!engine.set_position(Position::start(), moves)) refused = true;
    engine.go(depth_limit(3), GoMode::Think, {}, next);
  };
  engine.go(depth_limit(3), GoMode::Think, {}, next);
  // wait() returns only when nothing is queued or running any more.
  while (dones < 4) engine.wait();
  engine.wait();
  CHECK(!refused);
  CHECK(dones == 4);
  CHECK(engine.history().size() == 4);
}

TEST_CASE("engine: a ponder search ignores the clock until ponder_hit", "[engine]") {
  Engine engine;
  REQUIRE(engine.set_option("hash", "1"));
  SearchLimits l;
  l.move_time = 0.001;  // long spent if the clock were running
  std::atomic<int> done{0};
  engine.go(l, GoMode::Ponder, {}, [&done](const SearchResult&) { ++done; });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(engine.searching());
  CHECK(done == 0);
  engine.ponder_hit();
  engine.wait();
  CHECK(done == 1);
}

TEST_CASE("engine: a table larger than the machine's memory is refused, not allocated", "[engine]") {
  const std::int64_t ram_mib =
      static_cast<std::int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE) / (1024 * 1024);
  if (ram_mib <= 0 || ram_mib / 2 >= 16384) {
    WARN("machine memory unknown or too large for the refusal check");
    return;
  }
  Engine engine;
  REQUIRE(engine.set_option("hash", "2"));
  const Status s = engine.set_option("hash", "16384");
  REQUIRE(!s.has_value());
  CHECK(s.error().find("memory") != std::string::npos);
  CHECK(engine.options().get_int("hash") == 2);
  CHECK(is_legal(Position::start(), engine.search(depth_limit(4)).best));
}

TEST_CASE("engine: the multipv and level of one search travel with it and change no option", "[engine]") {
  Engine engine;
  REQUIRE(engine.set_option("hash", "1"));
  int lines = 0;
  const InfoCallback count_lines = [&lines](const SearchInfo& info) {
    lines = std::max(lines, info.multipv_index);
  };
  const GoParams three_lines{.limits = depth_limit(6), .mode = GoMode::Analyze, .multipv = 3};
  engine.search(three_lines, count_lines);
  CHECK(lines == 3);
  CHECK(engine.options().get_int("multipv") == 1);
  lines = 0;
  engine.search(depth_limit(6), GoMode::Analyze, count_lines);
  CHECK(lines == 1);

  const GoParams beginner{.limits = depth_limit(30), .level = level_params("beginner")};
  const SearchResult weak = engine.search(beginner);
  CHECK(weak.depth >= 1);
  CHECK(weak.depth <= 2);
  CHECK(engine.options().get("level") == "full");
  CHECK(engine.search(depth_limit(8)).depth == 8);
}

TEST_CASE("engine: the draw laws of one search act as the option would, and change no option", "[engine]") {
  // Two kings against one: FMJD-64 7.2.8 draws it within the horizon, the seed's 80 plies do not.
  const Position ending = fen("W:WK1,K2:BK30");
  const auto nodes = [&ending](Engine& engine, const GoParams& params) {
    REQUIRE(engine.set_option("hash", "1"));
    REQUIRE(engine.set_position(ending));
    return engine.search(params).nodes;
  };
  Engine by_option;
  REQUIRE(by_option.set_option("draw-rules", "fmjd64"));
  Engine by_search;
  Engine seed;
  const GoParams depth8{.limits = depth_limit(8), .mode = GoMode::Analyze};
  GoParams fmjd64_depth8 = depth8;
  fmjd64_depth8.draw_rules = DrawRules::Fmjd64;
  const std::uint64_t fmjd64 = nodes(by_option, depth8);
  CHECK(nodes(by_search, fmjd64_depth8) == fmjd64);
  CHECK(by_search.options().get("draw-rules") == "game");
  CHECK(nodes(seed, depth8) != fmjd64);
}

TEST_CASE("engine: excluded root moves are left out of the search", "[engine]") {
  Engine engine;
  GoParams params;
  params.limits = depth_limit(5);
  params.mode = GoMode::Analyze;
  const Move best = engine.search(params).best;
  REQUIRE(!best.is_null());
  params.excluded = {best};
  const SearchResult other = engine.search(params);
  CHECK(!other.best.is_null());
  CHECK(other.best != best);
  CHECK(is_legal(Position::start(), other.best));
  MoveList all;
  generate_legal_moves(Position::start(), all);
  params.excluded.assign(all.begin(), all.end());
  CHECK(engine.search(params).best.is_null());
}
