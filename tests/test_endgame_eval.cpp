// The lone-king endings' evaluation (eval/endgame.h) and what it is for: winning them without the
// endgame databases inside the FMJD-64 counts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "damas/core/game.h"
#include "damas/core/notation.h"
#include "damas/engine/engine.h"
#include "damas/eval/endgame.h"
#include "rules_helpers.h"

using namespace damas;
using damas::testing::fen;

TEST_CASE("endgame: a lone king against two or more pieces with a king is its own ending", "[endgame]") {
  CHECK(is_lone_king_ending(fen("W:WK1,K2,K3:BK30")));
  CHECK(is_lone_king_ending(fen("B:WK30:B5,K9")));           // either colour, either side to move
  CHECK(is_lone_king_ending(fen("W:WK1,10:BK30")));          // a king and a man
  CHECK_FALSE(is_lone_king_ending(fen("W:W9,10,11:BK30")));  // no king against it
  CHECK_FALSE(is_lone_king_ending(fen("W:WK1:BK30")));       // one piece only
  CHECK_FALSE(is_lone_king_ending(fen("W:WK1,K2:B20")));     // a man, not a king
  CHECK_FALSE(is_lone_king_ending(Position::start()));
}

TEST_CASE("endgame: three kings win only while the long diagonal is theirs", "[endgame]") {
  // The lone king holds a1-h8: a draw. White holds it and the lone king is off it: a win.
  const Score held_by_lone = evaluate_lone_king_ending(fen("W:WK1,K3,K30:BK22"));
  const Score held_by_three = evaluate_lone_king_ending(fen("W:WK1,K3,K22:BK30"));
  CHECK(std::abs(held_by_lone) < 150);
  CHECK(held_by_three > 500);
  // The same from the lone king's side, and with the colours swapped (180 degrees).
  CHECK(evaluate_lone_king_ending(fen("B:WK1,K3,K22:BK30")) < -500);
  CHECK(evaluate_lone_king_ending(fen("B:WK3,K11,K32:BK9")) ==
        evaluate_lone_king_ending(fen("W:WK24:BK1,K22,K30")));
  // Two kings against one mostly draw: they score far below three kings holding the diagonal.
  CHECK(evaluate_lone_king_ending(fen("W:WK1,K3:BK30")) < held_by_three - 300);
  CHECK(evaluate_lone_king_ending(fen("W:WK1,K2,K3,K4:BK22")) > 500);
}

// Positions of three kings against one off the long diagonal that the databases win in 19 to 23
// plies, inside the 15 moves of 7.2.4: the engine without them wins each within the count,
// against itself, at a fixed node budget (so the test is the same on every machine).
TEST_CASE("endgame: three kings against one are won inside the FMJD-64 count without databases",
          "[endgame][laws]") {
  for (const char* start : {"W:WK3,K13,K14:BK19", "W:WK8,K22,K31:BK23", "B:WK26:BK2,K20,K28"}) {
    INFO(start);
    Engine engine;
    for (const auto& [name, value] : {std::pair{"egdb-path", "none"}, std::pair{"draw-rules", "fmjd64"}})
      REQUIRE(engine.set_option(name, value));
    Game game(fen(start), DrawRules::Fmjd64);
    SearchLimits limits;
    limits.nodes = 150000;
    while (!game.over()) {
      REQUIRE(engine.set_position(game.start(), game.moves()));
      REQUIRE(game.play(engine.search(limits).best));
    }
    INFO(game.to_pdn());
    CHECK(game.result() ==
          (fen(start).side_to_move() == Color::White ? GameResult::WhiteWins : GameResult::BlackWins));
  }
}

TEST_CASE("endgame: the ending weights file is written and read back, and a damaged one is refused",
          "[endgame][format]") {
  const std::span<const unsigned char> builtin = builtin_ending_weights_file();
  const std::vector<unsigned char> bytes = ending_weights_to_bytes(builtin_ending_weights());
  REQUIRE(std::vector<unsigned char>(builtin.begin(), builtin.end()) == bytes);  // the writer's own layout
  const Expected<EndingWeights> back = parse_ending_weights(bytes);
  REQUIRE(back.has_value());
  for (std::size_t b = 0; b < kEndingBuckets; ++b) {
    CHECK(back->buckets[b].w1 == builtin_ending_weights().buckets[b].w1);
    CHECK(back->buckets[b].b3 == builtin_ending_weights().buckets[b].b3);
  }

  const auto refused = [](std::vector<unsigned char> damaged, const std::string& why) {
    const Expected<EndingWeights> w = parse_ending_weights(damaged, "f.dnn");
    REQUIRE_FALSE(w.has_value());
    CHECK_THAT(w.error(), Catch::Contains("f.dnn") && Catch::Contains(why));
  };
  std::vector<unsigned char> damaged = bytes;
  damaged[1000] ^= 0x10;
  refused(damaged, "checksum");
  refused(std::vector<unsigned char>(bytes.begin(), bytes.end() - 3), "truncated");
  refused(std::vector<unsigned char>(bytes.begin(), bytes.begin() + 20), "not a damas ending-weights file");
  damaged = bytes;
  damaged[8] = 9;
  refused(damaged, "version 9");
  damaged = bytes;
  damaged[16] = 64;
  refused(damaged, "network shape");
  damaged = bytes;
  damaged[24] = 3;  // buckets
  refused(damaged, "network shape");
  damaged = bytes;
  damaged[28] = 1;
  refused(damaged, "reserved");
  damaged = bytes;
  damaged[5] = 'N';  // the learned evaluation's magic: not this network
  refused(damaged, "not a damas ending-weights file");
}

TEST_CASE("endgame: each ending has the network of its material", "[endgame]") {
  CHECK(ending_bucket(fen("W:WK1,K3:BK30")) == 0);
  CHECK(ending_bucket(fen("B:W9,K1:BK30")) == 0);
  CHECK(ending_bucket(fen("W:WK1:BK30,K4,K5")) == 1);  // three kings, Black strong
  CHECK(ending_bucket(fen("W:WK1,K3,10:BK30")) == 2);
  CHECK(ending_bucket(fen("W:WK1,9,10:BK30")) == 2);
  CHECK(ending_bucket(fen("W:WK1,K3,K5,K7:BK30")) == 3);
  CHECK(ending_bucket(fen("W:WK1,9,10,11,12:BK30")) == 3);
}

TEST_CASE("endgame: the ending network sees the strong side's pieces from the lone king", "[endgame]") {
  std::array<int, 2 * rules::kMenPerSide + 1> f{};
  // White strong to move: kings on 1 and 3, a man on 10, the lone king on 30.
  REQUIRE(ending_features(fen("W:WK1,K3,10:BK30"), f) == 4);
  CHECK(f[0] == ((0 * 2 + 0) * 32 + 29) * 32 + 9);
  CHECK(f[1] == ((0 * 2 + 1) * 32 + 29) * 32 + 0);
  CHECK(f[2] == ((0 * 2 + 1) * 32 + 29) * 32 + 2);
  CHECK(f[3] == 4096 + 29);
  // The same position rotated, colours swapped and Black (now strong) to move: the same inputs.
  std::array<int, 2 * rules::kMenPerSide + 1> g{};
  REQUIRE(ending_features(fen("B:WK3:BK32,K30,23"), g) == 4);
  std::sort(f.begin(), f.begin() + 4);
  std::sort(g.begin(), g.begin() + 4);
  CHECK(f == g);
  // The lone king to move.
  REQUIRE(ending_features(fen("B:WK1,K3,10:BK30"), f) == 4);
  CHECK(f[3] == 4096 + 32 + 29);
  // Colour-symmetric by construction: the rotated position with the colours swapped scores the same.
  CHECK(evaluate_ending_network(fen("B:WK1,K3,K22:BK30"), builtin_ending_weights()) ==
        evaluate_ending_network(fen("W:WK3:BK32,K30,K11"), builtin_ending_weights()));
  // The side to move's score: the strong side's, negated when the lone king moves.
  CHECK(evaluate_ending_network(fen("W:WK1,K3,K22:BK30"), builtin_ending_weights()) > 500);
  CHECK(evaluate_ending_network(fen("B:WK1,K3,K22:BK30"), builtin_ending_weights()) < -500);
}
