// One test per rule of the games beyond Brazilian and Russian (rules::Table rows), each on a FEN
// written in that game's own squares: Spanish and Portuguese on the mirrored board (1 = h1, White's
// near-right corner; core/game_squares.h), Pool and Czech on the FMJD board. Where a position shows
// the difference, the same position under the Brazilian rules is checked too.
#include <random>

#include "rules_helpers.h"

using damas::Variant;
using damas::testing::fen;
using damas::testing::legal_moves;
using damas::testing::move;
using Set = std::set<std::string>;

namespace {

bool king_on(const damas::Position& p, int square) {
  return (p.kings() & damas::bb(damas::game_square(p.variant(), square))) != 0;
}

}  // namespace

// ---- Spanish (and Portuguese, the same moves) ---------------------------------------------------

TEST_CASE("rule (spanish): White's men start on 1-12 of the mirrored board and step forward",
          "[rules][games]") {
  const damas::Position start = damas::Position::start(Variant::Spanish);
  CHECK(damas::to_fen(start) == "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32");
  // 9 is h3 on the edge: one step; the others two.
  CHECK(legal_moves(start) == Set{"9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"});
  CHECK(damas::square_name(damas::game_square(Variant::Spanish, 1), Variant::Spanish) == "h1");
  CHECK(damas::square_name(damas::game_square(Variant::Spanish, 32), Variant::Spanish) == "a8");
}

TEST_CASE("rule (spanish): men capture forward only", "[rules][games]") {
  // e4 (14) has a black man behind it on f3 (10), g2 (5) empty: no capture, quiet steps only.
  CHECK(legal_moves(fen("W:W14:B10,29", Variant::Spanish)) == Set{"14-18", "14-19"});
  // Black's men the same way: from f5 (18) the white man on e6 (22) behind is safe.
  CHECK(legal_moves(fen("B:W22:B18", Variant::Spanish)) == Set{"18-13", "18-14"});
}

TEST_CASE("rule (spanish): the longest capture is compulsory", "[rules][games]") {
  // f3 (10) takes e4 and d5 (two) or g4 alone: only the two.
  CHECK(legal_moves(fen("W:W10:B13,14,23", Variant::Spanish)) == Set{"10x28x14x23"});
}

TEST_CASE("rule (spanish): among lines taking as many pieces, the one taking the most kings",
          "[rules][games]") {
  // f3 (10) takes e4 (14) or g4 (13), one piece each: both with men, only the king with a king.
  CHECK(legal_moves(fen("W:W10:B13,14", Variant::Spanish)) == Set{"10x17x13", "10x19x14"});
  CHECK(legal_moves(fen("W:W10:BK13,14", Variant::Spanish)) == Set{"10x17x13"});
  // The count comes first: two men beat one king.
  CHECK(legal_moves(fen("W:W10:BK13,14,23", Variant::Spanish)) == Set{"10x28x14x23"});
  // Brazilian, the same squares: no preference for the king.
  CHECK(legal_moves(fen("W:W10:BK13,14", Variant::Spanish).with_variant(Variant::Brazilian)).size() == 2);
}

TEST_CASE("rule (spanish): a man reaching the far row by a capture is crowned and stops", "[rules][games]") {
  // e6 (22) takes d7 (27), lands on c8 (31): a king that could take b7 (28) next, but the move ends.
  const damas::Position p = fen("W:W22:B27,28", Variant::Spanish);
  CHECK(legal_moves(p) == Set{"22x31x27"});
  CHECK(king_on(p.after(move(p, "22x31x27")), 31));
  // Russian rules on the same squares: crowned on the way, it goes on as a king.
  CHECK(legal_moves(p.with_variant(Variant::Russian)).size() == 1);
  CHECK(legal_moves(p.with_variant(Variant::Russian)) != legal_moves(p));
}

TEST_CASE("rule (spanish): flying kings move and capture from a distance", "[rules][games]") {
  // The king on h1 (1) runs the rio; it takes d5 (19) from afar and lands on any square beyond.
  CHECK(legal_moves(fen("W:WK1:B19", Variant::Spanish)) == Set{"1x23x19", "1x28x19", "1x32x19"});
}

TEST_CASE("rule (portuguese): the Spanish moves on the same board, a game of its own", "[rules][games]") {
  CHECK(damas::Position::start(Variant::Portuguese).key() != damas::Position::start(Variant::Spanish).key());
  // Every position of random Spanish games has the same legal moves under the Portuguese row.
  std::mt19937 rng(7);
  int positions = 0;
  for (int game = 0; game < 20; ++game) {
    damas::Position p = damas::Position::start(Variant::Spanish);
    for (int ply = 0; ply < 120; ++ply) {
      damas::MoveList spanish, portuguese;
      damas::generate_legal_moves(p, spanish);
      damas::generate_legal_moves(p.with_variant(Variant::Portuguese), portuguese);
      REQUIRE(spanish.size() == portuguese.size());
      for (const damas::Move& m : spanish) REQUIRE(portuguese.contains(m));
      ++positions;
      if (spanish.empty()) break;
      p = p.after(spanish[static_cast<std::size_t>(rng() % spanish.size())]);
    }
  }
  CHECK(positions > 1000);
}

// ---- Pool ----------------------------------------------------------------------------------------

TEST_CASE("rule (pool): men capture backward", "[rules][games]") {
  CHECK(legal_moves(fen("W:W18,30:B22,23", Variant::Pool)) == Set{"18x25x22", "18x27x23"});
}

TEST_CASE("rule (pool): any capture may be chosen, a sequence once begun is finished", "[rules][games]") {
  // c3 takes d4 and f6 (two men) or d2 alone: both legal, no quiet move; no stop on e5 halfway.
  const damas::Position p = fen("W:W22:B11,18,26", Variant::Pool);
  CHECK(legal_moves(p) == Set{"22x8x11x18", "22x31x26"});
  CHECK_FALSE(damas::parse_hub_move(p, "22x15x18").has_value());
  // A king's capture is not preferred either.
  CHECK(legal_moves(fen("W:W22:BK11,18,26", Variant::Pool)) == Set{"22x8x11x18", "22x31x26"});
}

TEST_CASE("rule (pool): a man passing the far row mid-capture goes on as a man", "[rules][games]") {
  // f6 takes e7, lands on d8 and, still a man, takes c7 backward to b6: not crowned.
  const damas::Position p = fen("W:W11:B6,7", Variant::Pool);
  CHECK(legal_moves(p) == Set{"11x9x6x7"});
  CHECK_FALSE(king_on(p.after(move(p, "11x9x6x7")), 9));
  // A man cannot take b6 across the empty c7 as a king would.
  CHECK(legal_moves(fen("W:W11:B7,9", Variant::Pool)) == Set{"11x2x7"});
  // Ending on the far row, it is crowned.
  const damas::Position q = fen("W:W11:B7", Variant::Pool);
  CHECK(king_on(q.after(move(q, "11x2x7")), 2));
}

TEST_CASE("rule (pool): a king that can take again lands where it can", "[rules][games]") {
  CHECK(legal_moves(fen("W:WK29:B14,22", Variant::Pool)) == Set{"29x9x14x22", "29x5x14x22"});
}

// ---- Czech ---------------------------------------------------------------------------------------

TEST_CASE("rule (czech): men capture forward only", "[rules][games]") {
  // d4 (18) has black men behind it on c3 and e3: no capture.
  CHECK(legal_moves(fen("W:W18:B22,23", Variant::Czech)) == Set{"18-14", "18-15"});
}

TEST_CASE("rule (czech): a king must capture when a king can", "[rules][games]") {
  // The man on c3 could take b4 or d4; the king on g1 takes d4 and then b4, and only it may.
  const damas::Position p = fen("W:W22,K32:B17,18", Variant::Czech);
  CHECK(legal_moves(p) == Set{"32x21x17x18"});
  // Russian, free choice, the same squares: the man's captures too.
  CHECK(legal_moves(p.with_variant(Variant::Russian)) == Set{"32x21x17x18", "22x13x17", "22x15x18"});
}

TEST_CASE("rule (czech): otherwise any capture may be chosen", "[rules][games]") {
  // c3 takes d4 then f6 (two) or b4 (one): both legal; Brazilian keeps only the two.
  CHECK(legal_moves(fen("W:W22:B11,17,18", Variant::Czech)) == Set{"22x8x11x18", "22x13x17"});
  CHECK(legal_moves(fen("W:W22:B11,17,18")) == Set{"22x8x11x18"});
}

TEST_CASE("rule (czech): a man crowned by a capture stops on the far row", "[rules][games]") {
  const damas::Position p = fen("W:W11:B6,7", Variant::Czech);
  CHECK(legal_moves(p) == Set{"11x2x7"});
  CHECK(king_on(p.after(move(p, "11x2x7")), 2));
}
