// One test per rule: a FEN and the exact set of legal moves, Brazilian first, then each rule where
// Russian differs (the same positions in both games where that shows the difference).
#include "rules_helpers.h"

using damas::testing::fen;
using damas::testing::legal_moves;
using damas::testing::move;
using Set = std::set<std::string>;

TEST_CASE("rule: men step one square diagonally forward only", "[rules]") {
  CHECK(legal_moves("W:W22:B1") == Set{"22-17", "22-18"});
  CHECK(legal_moves("B:W32:B9") == Set{"9-13", "9-14"});
  // A man on the edge has one step.
  CHECK(legal_moves("W:W21:B1") == Set{"21-17"});
}

TEST_CASE("rule: the start position has seven moves", "[rules]") {
  CHECK(legal_moves(damas::Position::start()) ==
        Set{"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"});
}

TEST_CASE("rule: a man captures backward, and capture is compulsory", "[rules]") {
  // d4 jumps c3 or e3 behind it; the man on c1 may not make a quiet move instead.
  CHECK(legal_moves("W:W18,30:B22,23") == Set{"18x25x22", "18x27x23"});
  // The same for Black, whose backward direction is up the board.
  CHECK(legal_moves("B:W10:B14") == Set{"14x7x10"});
}

TEST_CASE("rule: flying king quiet moves run over every empty square of a diagonal", "[rules]") {
  CHECK(legal_moves("W:WK29:B4") == Set{"29-25", "29-22", "29-18", "29-15", "29-11", "29-8"});
}

TEST_CASE("rule: a flying king captures from a distance and may land on any square beyond", "[rules]") {
  CHECK(legal_moves("W:WK29:B18") == Set{"29x15x18", "29x11x18", "29x8x18", "29x4x18"});
}

TEST_CASE("rule: maximum capture, equal lines of different pieces are both legal", "[rules]") {
  // c3 takes d4+f6 (two men) or b4+b6 (a man and a king); the single capture of d2 is shorter.
  CHECK(legal_moves("W:W22:B11,17,18,26,K9") == Set{"22x6x9x17", "22x8x11x18"});
}

TEST_CASE("rule: no preference for capturing kings among equal lines", "[rules]") {
  // From shared/rules/perft-positions.txt [majority_no_king_priority].
  CHECK(legal_moves("W:WK5,8,K13,14,K15,23,25:B3,K4,10,17,K19") ==
        Set{"13x22x17", "13x26x17", "13x31x17", "14x7x10", "14x21x17", "15x1x10", "15x6x10", "15x24x19",
            "15x28x19", "23x16x19"});
}

TEST_CASE("rule: a piece cannot be jumped twice", "[rules]") {
  // Allowed twice, the king could take c3, land beyond and take it again coming back.
  CHECK(legal_moves("W:WK29:B22") == Set{"29x18x22", "29x15x22", "29x11x22", "29x8x22", "29x4x22"});
}

TEST_CASE("rule: captured pieces stay on the board until the move ends and block the route", "[rules]") {
  // [captured_piece_blocks]: after d4 and d6 (or f4) the king cannot come back across the dead
  // piece to reach the third one; with immediate removal 3 pieces would be possible.
  CHECK(legal_moves("B:W10,K14,K18,19:B9,K29,K31") ==
        Set{"29x1x10x18", "29x6x10x18", "29x24x18x19", "29x28x18x19"});
}

TEST_CASE("rule: circular king capture ending on its own square is one move", "[rules]") {
  // Clockwise and anticlockwise routes take the same four pieces: one move 22x22, besides the
  // four other landing squares at the end of the two routes.
  CHECK(legal_moves("W:WK22:B18,19,26,27") == Set{"22x22x18x19x26x27", "22x17x18x19x26x27",
                                                  "22x13x18x19x26x27", "22x25x18x19x26x27",
                                                  "22x29x18x19x26x27"});
  // A man can loop too ([man_loop_backward]).
  CHECK(legal_moves("W:W22:B3,10,11,18,19,26,27") ==
        Set{"22x6x10x19x26x27", "22x8x11x19x26x27", "22x22x18x19x26x27"});
}

TEST_CASE("rule: two routes to the same from, to and captured set are one move", "[rules]") {
  CHECK(legal_moves("B:W14,21,22,24,25,26,27,28,29,30:B1,2,3,4,5,6,7,8,10,12,K32") == Set{"32x9x14x27"});
  // [king_landings]: three landing paths of 29x8 are one move.
  CHECK(legal_moves("B:W10,11,25,K27:B4,5,K29") ==
        Set{"29x1x10x25", "29x6x10x25", "29x8x11x25", "29x32x25x27"});
  // [same_from_to_diff_captures]: same from and to, different captured sets: four moves.
  CHECK(legal_moves("B:WK6,11,12,14,17,20:BK2") ==
        Set{"2x4x6x11x14", "2x4x6x11x17", "2x8x6x11x14", "2x8x6x11x17"});
}

TEST_CASE("rule: a man passing the far row mid-capture goes on as a man", "[rules]") {
  const damas::Position p = fen("W:W5,11,19,23,32:B6,7,15,20,21,24");
  CHECK(legal_moves(p) == Set{"11x9x6x7", "19x1x6x15", "19x3x7x15"});
  const damas::Expected<damas::Move> through = damas::parse_hub_move(p, "11x9x6x7");
  REQUIRE(through.has_value());
  const damas::Position after = p.after(*through);
  CHECK((after.men(damas::Color::White) & damas::bb(damas::square_from_number(9))) != 0);
  CHECK(after.kings() == 0);
  // Black: c3 touches e1 and ends on g3 still a man ([crossing_black]).
  const damas::Position b = fen("B:W5,18,26,27,28:B1,22");
  CHECK(legal_moves(b) == Set{"22x24x26x27"});
  CHECK(b.after(*damas::parse_hub_move(b, "22x24x26x27")).kings() == 0);
}

TEST_CASE("rule: a man is crowned when a capture ends on the far row", "[rules]") {
  const damas::Position p = fen("W:W5,11,19,23,32:B6,7,15,20,21,24");
  for (const char* text : {"19x1x6x15", "19x3x7x15"}) {
    const damas::Expected<damas::Move> m = damas::parse_hub_move(p, text);
    REQUIRE(m.has_value());
    CHECK((p.after(*m).kings() & damas::bb(m->to)) != 0);
  }
}

TEST_CASE("rule: a man is crowned when a quiet step ends on the far row", "[rules]") {
  const damas::Position p = fen("W:W6:B28");
  CHECK(legal_moves(p) == Set{"6-1", "6-2"});
  const damas::Position after = p.after(*damas::parse_hub_move(p, "6-2"));
  CHECK(after.kings(damas::Color::White) == damas::bb(damas::square_from_number(2)));
  CHECK(after.reversible_plies() == 0);
}

TEST_CASE("rule: a side without pieces or without moves has no legal move", "[rules]") {
  CHECK(legal_moves("W:W:B1").empty());
  // a7 blocked by b8: no step forward and nothing to jump (beyond b8 is off the board).
  CHECK(legal_moves("W:W5:B1").empty());
  CHECK(legal_moves("B:W5:B1") == Set{"1-6"});
}

TEST_CASE("rule: the no-progress counter counts king moves and resets on captures and man moves", "[rules]") {
  damas::Position p = fen("W:WK30,21:BK3,12");
  CHECK(p.reversible_plies() == 0);
  p = p.after(*damas::parse_hub_move(p, "30-26"));
  CHECK(p.reversible_plies() == 1);
  p = p.after(*damas::parse_hub_move(p, "3-8"));
  CHECK(p.reversible_plies() == 2);
  p = p.after(*damas::parse_hub_move(p, "21-17"));  // a man move
  CHECK(p.reversible_plies() == 0);
}

TEST_CASE("position: the incremental key matches a recomputation along random games", "[rules]") {
  std::uint64_t state = 12345;
  for (int game = 0; game < 200; ++game) {
    // Every other game Russian: its captures crown by another rule.
    damas::Position p =
        damas::Position::start(game % 2 ? damas::Variant::Russian : damas::Variant::Brazilian);
    for (int ply = 0; ply < 150; ++ply) {
      damas::MoveList moves;
      damas::generate_legal_moves(p, moves);
      if (moves.empty()) break;
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      p = p.after(moves[static_cast<std::size_t>((state >> 33) % moves.size())]);
      REQUIRE(p.key() == p.compute_key());
    }
  }
}

// ---- Russian: no majority rule, crowning mid-capture ------------------------------------------

namespace {

damas::Position russian(std::string_view text) { return fen(text).with_variant(damas::Variant::Russian); }

bool king_on(const damas::Position& p, int square) {
  return (p.kings() & damas::bb(damas::square_from_number(square))) != 0;
}

}  // namespace

TEST_CASE("rule (russian): a man crowned mid-capture goes on capturing as a king", "[rules][russian]") {
  // f6 takes e7 and lands on d8: crowned at once, it takes c7 as a flying king and lands on b6 or a5.
  const damas::Position p = russian("W:W11:B6,7");
  CHECK(legal_moves(p) == Set{"11x9x6x7", "11x13x6x7"});
  // The move ends off the far row, a king all the same.
  CHECK(king_on(p.after(move(p, "11x9x6x7")), 9));
  // A victim at a distance only a king can reach: d8 sees b6 across the empty c7.
  const damas::Position far = russian("W:W11:B7,9");
  CHECK(legal_moves(far) == Set{"11x13x7x9"});
  CHECK(king_on(far.after(move(far, "11x13x7x9")), 13));
  // Black, the mirror: c3 takes d2, is crowned on e1 and takes f2 from there.
  const damas::Position b = russian("B:W26,27:B22");
  CHECK(legal_moves(b) == Set{"22x24x26x27", "22x20x26x27"});
  CHECK(king_on(b.after(move(b, "22x24x26x27")), 24));
}

TEST_CASE("rule (russian): capture is compulsory, but a short capture may be chosen over a long one",
          "[rules][russian]") {
  // c3 takes d4 and f6 (two men) or d2 alone: both are legal, no quiet move is.
  CHECK(legal_moves(russian("W:W22:B11,18,26")) == Set{"22x8x11x18", "22x31x26"});
  // A king is one piece like a man, and a king's capture is not preferred either.
  CHECK(legal_moves(russian("W:W22:BK11,18,26")) == Set{"22x8x11x18", "22x31x26"});
}

TEST_CASE("rule (russian): a capture sequence once begun is finished", "[rules][russian]") {
  // c3 cannot stop on e5 after d4 while f6 can still be taken.
  const damas::Position p = russian("W:W22:B11,18,26");
  CHECK_FALSE(damas::parse_hub_move(p, "22x15x18").has_value());
  // A king that takes c3 must land on d4, the one square from which it can go on (over c5).
  CHECK(legal_moves(russian("W:WK29:B14,22")) == Set{"29x9x14x22", "29x5x14x22"});
}

TEST_CASE("rule (russian): a king lands on any square beyond when it cannot go on", "[rules][russian]") {
  CHECK(legal_moves(russian("W:WK29:B18")) == Set{"29x15x18", "29x11x18", "29x8x18", "29x4x18"});
  // After the last piece of a longer sequence too: d4 then c5, landing on b6 or a7.
  CHECK(legal_moves(russian("W:WK29:B14,22")) == Set{"29x9x14x22", "29x5x14x22"});
}

TEST_CASE("rule (russian): pieces stay until the move ends and none is jumped twice", "[rules][russian]") {
  // The Turkish strike as in Brazilian: the king cannot take c3 again on the way back.
  CHECK(legal_moves(russian("W:WK29:B22")) == Set{"29x18x22", "29x15x22", "29x11x22", "29x8x22", "29x4x22"});
  // The same four men in a loop: one move back to its square, whichever way round.
  CHECK(legal_moves(russian("W:WK22:B18,19,26,27")) == Set{"22x22x18x19x26x27", "22x17x18x19x26x27",
                                                           "22x13x18x19x26x27", "22x25x18x19x26x27",
                                                           "22x29x18x19x26x27"});
}

TEST_CASE("rule (brazilian): the majority rule and crowning only at the end, on the Russian positions",
          "[rules]") {
  // Passing d8 the man goes on as a man: it cannot reach a5, nor take b6 across c7.
  const damas::Position p = fen("W:W11:B6,7");
  CHECK(legal_moves(p) == Set{"11x9x6x7"});
  CHECK_FALSE(king_on(p.after(move(p, "11x9x6x7")), 9));
  CHECK(legal_moves("W:W11:B7,9") == Set{"11x2x7"});
  CHECK(legal_moves("B:W26,27:B22") == Set{"22x24x26x27"});
  // The longer capture is compulsory.
  CHECK(legal_moves("W:W22:B11,18,26") == Set{"22x8x11x18"});
}

TEST_CASE("variant: names, keys and the position's rules", "[rules][russian]") {
  CHECK(damas::parse_variant("russian") == damas::Variant::Russian);
  CHECK(damas::parse_variant("brazilian") == damas::Variant::Brazilian);
  CHECK_FALSE(damas::parse_variant("Russian").has_value());
  CHECK(damas::Position::start().variant() == damas::Variant::Brazilian);
  const damas::Position r = damas::Position::start(damas::Variant::Russian);
  CHECK(r.variant() == damas::Variant::Russian);
  CHECK(r.key() == r.compute_key());
  CHECK(r.key() != damas::Position::start().key());  // a Brazilian table never answers a Russian game
  CHECK(r.with_variant(damas::Variant::Brazilian) == damas::Position::start());
  CHECK(r.after(move(r, "22-18")).variant() == damas::Variant::Russian);
}
