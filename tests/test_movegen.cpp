// The three move generator entry points agree, on positions from random games of each variant.
#include <catch2/catch.hpp>

#include "damas/core/movegen.h"

namespace {

struct Tally {
  int positions = 0, captures = 0, kings = 0, mixed_lengths = 0;
};

// Plays random games of `variant`, checking generate, count and has_legal_move at every position,
// and that a Brazilian capture list takes one number of pieces (the majority rule).
Tally random_games(damas::Variant variant, std::uint64_t state) {
  Tally t;
  for (int game = 0; game < 300; ++game) {
    damas::Position p = damas::Position::start(variant);
    for (int ply = 0; ply < 200; ++ply) {
      damas::MoveList moves;
      damas::generate_legal_moves(p, moves);
      REQUIRE(damas::count_legal_moves(p) == static_cast<int>(moves.size()));
      REQUIRE(damas::has_legal_move(p) == !moves.empty());
      ++t.positions;
      if (moves.empty()) break;
      const bool capture = damas::has_capture(p);
      t.captures += capture;
      t.kings += p.kings() != 0;
      bool mixed = false;
      for (const damas::Move& m : moves) {
        REQUIRE(m.is_capture() == capture);
        mixed = mixed || m.capture_count() != moves[0].capture_count();
        for (const damas::Move& other : moves) REQUIRE((&m == &other || !(m == other)));
      }
      if (variant == damas::Variant::Brazilian) REQUIRE_FALSE(mixed);
      t.mixed_lengths += mixed;
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      p = p.after(moves[static_cast<std::size_t>((state >> 33) % moves.size())]);
      REQUIRE(p.variant() == variant);
    }
  }
  return t;
}

}  // namespace

TEST_CASE("movegen: any, count and generate agree on random games", "[movegen]") {
  const Tally t = random_games(damas::Variant::Brazilian, 987654321);
  CHECK(t.positions > 10000);
  CHECK(t.captures > 1000);
  CHECK(t.kings > 1000);
}

TEST_CASE("movegen (russian): any, count and generate agree on random games", "[movegen][russian]") {
  const Tally t = random_games(damas::Variant::Russian, 123456789);
  CHECK(t.positions > 10000);
  CHECK(t.captures > 1000);
  CHECK(t.kings > 1000);
  CHECK(t.mixed_lengths > 10);  // free choice between captures of different lengths was met
}
