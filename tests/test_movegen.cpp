// The three move generator entry points agree, on positions from random games.
#include <catch2/catch.hpp>

#include "damas/core/movegen.h"

TEST_CASE("movegen: any, count and generate agree on random games", "[movegen]") {
  std::uint64_t state = 987654321;
  int positions = 0, captures = 0, kings = 0;
  for (int game = 0; game < 300; ++game) {
    damas::Position p = damas::Position::start();
    for (int ply = 0; ply < 200; ++ply) {
      damas::MoveList moves;
      damas::generate_legal_moves(p, moves);
      REQUIRE(damas::count_legal_moves(p) == static_cast<int>(moves.size()));
      REQUIRE(damas::has_legal_move(p) == !moves.empty());
      ++positions;
      if (moves.empty()) break;
      const bool capture = damas::has_capture(p);
      captures += capture;
      kings += p.kings() != 0;
      for (const damas::Move& m : moves) {
        REQUIRE(m.is_capture() == capture);
        REQUIRE(m.capture_count() == moves[0].capture_count());  // maximum rule: all equal
        for (const damas::Move& other : moves) REQUIRE((&m == &other || !(m == other)));
      }
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      p = p.after(moves[static_cast<std::size_t>((state >> 33) % moves.size())]);
    }
  }
  CHECK(positions > 10000);
  CHECK(captures > 1000);
  CHECK(kings > 1000);
}
