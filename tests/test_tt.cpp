// The transposition table: round trips, key checks, resizing, sharing between threads.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "damas/core/notation.h"
#include "damas/engine/engine.h"
#include "damas/search/tt.h"

using namespace damas;

TEST_CASE("tt: an entry comes back only for its own key", "[tt]") {
  TranspositionTable tt(1);
  const Move m{bb(square_from_number(18)), square_from_number(22), square_from_number(15)};
  const Key key = 0x123456789ABCDEFULL;
  tt.store(key, TTEntry{MoveTag::of(m), -345, 17, 9, Bound::Lower});
  const std::optional<TTEntry> e = tt.probe(key);
  REQUIRE(e.has_value());
  CHECK(e->move.matches(m));
  CHECK(e->score == -345);
  CHECK(e->eval == 17);
  CHECK(e->depth == 9);
  CHECK(e->bound == Bound::Lower);
  CHECK(!tt.probe(key ^ 1).has_value());

  const Move other{0, square_from_number(22), square_from_number(18)};
  CHECK(!e->move.matches(other));
  CHECK(!MoveTag{}.matches(m));
}

TEST_CASE("tt: mate scores are stored relative to the node", "[tt]") {
  CHECK(score_from_tt(score_to_tt(win_in(9), 4), 4) == win_in(9));
  CHECK(score_from_tt(score_to_tt(win_in(9), 4), 2) == win_in(7));
  CHECK(score_from_tt(score_to_tt(loss_in(6), 3), 5) == loss_in(8));
  CHECK(score_to_tt(123, 40) == 123);
}

TEST_CASE("tt: clear and resize forget everything", "[tt]") {
  TranspositionTable tt(2);
  for (Key k = 1; k < 1000; ++k) tt.store(k * 0x9E3779B97F4A7C15ULL, TTEntry{{}, 1, 0, 3, Bound::Exact});
  CHECK(tt.probe(5 * 0x9E3779B97F4A7C15ULL).has_value());
  tt.clear();
  CHECK(!tt.probe(5 * 0x9E3779B97F4A7C15ULL).has_value());
  tt.store(77, TTEntry{{}, 1, 0, 3, Bound::Exact});
  tt.resize(3);
  CHECK(tt.size_mib() == 3);
  CHECK(!tt.probe(77).has_value());
  tt.store(77, TTEntry{{}, 1, 0, 3, Bound::Exact});
  CHECK(tt.probe(77).has_value());
}

// Writers race on the same buckets; a reader must never see an entry under a wrong key.
TEST_CASE("tt: concurrent writers never produce an entry for the wrong key", "[tt]") {
  TranspositionTable tt(1);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&tt, &wrong, t] {
      for (int i = 0; i < 200000; ++i) {
        const Key key = static_cast<Key>((i % 5000) + 1) * 0xD6E8FEB86659FD93ULL;
        // The stored score is a function of the key, so any hit can be checked.
        const Score expected = static_cast<Score>(key % 2000);
        if (i % 2 == t % 2) tt.store(key, TTEntry{{}, expected, 0, t + 1, Bound::Exact});
        else if (const auto e = tt.probe(key); e && e->score != expected) ++wrong;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  CHECK(wrong == 0);
}

TEST_CASE("tt: resizing and new_game between searches are safe", "[tt][engine]") {
  Engine engine;
  SearchLimits l;
  l.depth = 7;
  for (const char* mib : {"1", "7", "2", "2"}) {
    REQUIRE(engine.set_option("hash", mib));
    const SearchResult r = engine.search(l);
    CHECK(r.depth == 7);
    engine.new_game();
  }
  // After new_game a search repeats itself exactly (nothing left over in the table).
  const std::uint64_t first = engine.search(l).nodes;
  engine.new_game();
  CHECK(engine.search(l).nodes == first);
}
