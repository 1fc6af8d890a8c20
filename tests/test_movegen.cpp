// The three move generator entry points agree, on positions from random games of each variant.
#include <catch2/catch.hpp>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"

namespace {

struct Tally {
  int positions = 0, captures = 0, kings = 0, mixed_lengths = 0, king_captures = 0;
};

// Plays random games of `variant`, checking generate, count and has_legal_move at every position,
// and the capture choice of the variant's row: under the majority rule a capture list takes one
// number of pieces (and of kings, when kings count next), under kings-first it moves kings only
// when a king can capture.
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
      const auto kings_taken = [&](const damas::Move& m) { return damas::popcount(m.captured & p.kings()); };
      const auto by_king = [&](const damas::Move& m) { return (p.kings() & damas::bb(m.from)) != 0; };
      bool mixed = false, mixed_kings = false, mixed_movers = false;
      for (const damas::Move& m : moves) {
        REQUIRE(m.is_capture() == capture);
        mixed = mixed || m.capture_count() != moves[0].capture_count();
        mixed_kings = mixed_kings || kings_taken(m) != kings_taken(moves[0]);
        mixed_movers = mixed_movers || by_king(m) != by_king(moves[0]);
        for (const damas::Move& other : moves) REQUIRE((&m == &other || !(m == other)));
      }
      const damas::rules::CaptureChoice choice = damas::rules::of(variant).choice;
      if (damas::rules::is_majority(choice)) REQUIRE_FALSE(mixed);
      if (choice == damas::rules::CaptureChoice::MajorityKings) REQUIRE_FALSE(mixed_kings);
      // A king captures whenever one can: a list with a king's capture has no man's.
      if (choice == damas::rules::CaptureChoice::KingsFirst && capture && mixed_movers) {
        std::string texts;
        for (const damas::Move& m : moves) texts += " " + damas::to_hub_move(p, m);
        FAIL("a king's and a man's capture side by side in " << damas::to_fen(p) << ":" << texts);
      }
      t.mixed_lengths += mixed;
      t.king_captures += capture && by_king(moves[0]);
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      p = p.after(moves[static_cast<std::size_t>((state >> 33) % moves.size())]);
      REQUIRE(p.variant() == variant);
    }
  }
  return t;
}

}  // namespace

TEST_CASE("movegen: any, count and generate agree on random games of every variant", "[movegen]") {
  std::uint64_t seed = 987654321;
  for (const damas::Variant variant : damas::kVariants) {
    INFO(damas::to_string(variant));
    const Tally t = random_games(variant, seed++);
    CHECK(t.positions > 10000);
    CHECK(t.captures > 1000);
    CHECK(t.kings > 1000);
    CHECK(t.king_captures > 100);
    // Where the choice is free, captures of different lengths were met side by side.
    if (!damas::rules::is_majority(damas::rules::of(variant).choice)) CHECK(t.mixed_lengths > 10);
  }
}
