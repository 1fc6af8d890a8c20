// The PDN reader: several games, tags, numeric and algebraic moves, skipped comments and
// variations, errors naming line and move, and Game::to_pdn reading back.
#include <catch2/catch.hpp>
#include <string>

#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"

using namespace damas;

namespace {

std::string hub_moves(const PdnGame& g) {
  std::string out;
  for (const Move& m : g.moves) {
    if (!out.empty()) out += ' ';
    out += to_hub_move(m);
  }
  return out;
}

}  // namespace

TEST_CASE("pdn: several games with tags, numeric and algebraic moves", "[pdn]") {
  const std::string text =
      "[Event \"club \\\"night\\\"\"]\n[White \"Ana\"]\n[Black \"Bia\"]\n[Result \"1-1\"]\n\n"
      "1. 22-18 11-15 2. 18x11 8x15 1-1\n\n"
      "[Event \"second\"]\n[FEN \"W:Wc3:Bf6\"]\n\n1. c3-d4 f6-e5 2. d4:f6 2-0\n";
  const std::vector<PdnGameOrError> games = read_pdn(text);
  REQUIRE(games.size() == 2);
  REQUIRE(games[0].has_value());
  CHECK(games[0]->tag("Event") == "club \"night\"");
  CHECK(games[0]->tag("White") == "Ana");
  CHECK_FALSE(games[0]->tag("Site").has_value());
  CHECK(hub_moves(*games[0]) == "22-18 11-15 18x11x15 8x15x11");
  CHECK(games[0]->result == "1-1");
  CHECK(games[0]->first_line == 1);
  CHECK(games[0]->move_lines.front() == 6);
  REQUIRE(games[1].has_value());
  CHECK(games[1]->start == *parse_fen("W:W22:B11"));
  CHECK(hub_moves(*games[1]) == "22-18 11-15 18x11x15");
  CHECK(games[1]->result == "2-0");
  CHECK(games[1]->first_line == 8);
}

TEST_CASE("pdn: comments, variations, NAGs, marks and glued move numbers are skipped", "[pdn]") {
  const std::string text =
      "%escape line ignored\n"
      "{a comment (with parentheses)} 1.22-18 {why} ( 1. 21-17 {side line (x)} 9-13 (2. 17-14) ) 11-15! "
      "; rest of line ignored 99-99\n"
      "2. 18x11?? $4 8x15 *";
  const std::vector<PdnGameOrError> games = read_pdn(text);
  REQUIRE(games.size() == 1);
  INFO((games[0] ? "" : games[0].error()));
  REQUIRE(games[0].has_value());
  CHECK(hub_moves(*games[0]) == "22-18 11-15 18x11x15 8x15x11");
  CHECK(games[0]->result == "*");
}

TEST_CASE("pdn: numeric captures read in PDN's landing-square form and in Hub's captured-square form",
          "[pdn]") {
  // A white man on 30 (c1) takes 26 (d2) and 18 (d4), landing on 23 (e3) then 14 (c5).
  const Position p = *parse_fen("W:W30:B26,18");
  MoveList legal;
  generate_legal_moves(p, legal);
  REQUIRE(legal.size() == 1);
  const std::string hub = to_hub_move(legal[0]);
  CHECK(hub == "30x14x18x26");
  const std::vector<PdnGameOrError> route = read_pdn("[FEN \"W:W30:B26,18\"] 1. 30x23x14 *");
  const std::vector<PdnGameOrError> captured = read_pdn("[FEN \"W:W30:B26,18\"] 1. 30x14x18x26 *");
  REQUIRE(route.size() == 1);
  REQUIRE(captured.size() == 1);
  INFO((route[0] ? "" : route[0].error()));
  REQUIRE(route[0].has_value());
  REQUIRE(captured[0].has_value());
  CHECK(route[0]->moves == captured[0]->moves);
}

TEST_CASE("pdn: a bad game is an error naming line and move, and the next games are still read", "[pdn]") {
  const std::string text =
      "[Event \"good\"]\n1. 22-18 *\n\n"
      "[Event \"illegal\"]\n1. 22-18 11-15\n2. 18-14 *\n\n"
      "[Event \"bad fen\"]\n[FEN \"W:Wa2:Bb8\"]\n1. 22-18 *\n\n"
      "[Event \"broken tag\n1. 22-18 *\n\n"
      "[Event \"unclosed\"]\n1. 22-18 {never closed\n";
  const std::vector<PdnGameOrError> games = read_pdn(text);
  REQUIRE(games.size() == 5);
  CHECK(games[0].has_value());
  REQUIRE_FALSE(games[1].has_value());
  CHECK_THAT(games[1].error(), Catch::Contains("game 2, line 6: move 2 \"18-14\": illegal move"));
  REQUIRE_FALSE(games[2].has_value());
  CHECK_THAT(games[2].error(), Catch::Contains("line 9") && Catch::Contains("\"a2\" is a light square"));
  REQUIRE_FALSE(games[3].has_value());
  CHECK_THAT(games[3].error(), Catch::Contains("line 12: malformed tag"));
  REQUIRE_FALSE(games[4].has_value());
  CHECK_THAT(games[4].error(), Catch::Contains("line 16: comment"));
}

TEST_CASE("pdn: a game that Black starts counts its moves from 1...", "[pdn]") {
  const std::vector<PdnGameOrError> games = read_pdn("[FEN \"B:W22:B9,10\"]\n1... 9-13 2. 22-17 14-18 *");
  REQUIRE(games.size() == 1);
  REQUIRE_FALSE(games[0].has_value());
  CHECK_THAT(games[0].error(), Catch::Contains("move 2... \"14-18\""));
}

TEST_CASE("pdn: text without games gives no games, garbage gives errors, never a crash", "[pdn]") {
  CHECK(read_pdn("").empty());
  CHECK(read_pdn("  \n% only an escape line\n").empty());
  for (const std::string& text :
       std::vector<std::string>{"]", "[", "[X", "[X \"", "(", ")", "}", "{", "zz", "1.", "99x99x99x99",
                                "[FEN \"\"] 1. 22-18", std::string(5000, '('), std::string(5000, 'x')}) {
    INFO(text.substr(0, 40));
    for (const PdnGameOrError& g : read_pdn(text))
      if (!g) CHECK_THAT(g.error(), Catch::StartsWith("game 1, line 1"));
  }
  const std::vector<PdnGameOrError> only_number = read_pdn("1.");
  REQUIRE(only_number.size() == 1);
  CHECK(only_number[0].has_value());
}

TEST_CASE("pdn: Game::to_pdn reads back to the same start, moves and tags", "[pdn]") {
  std::uint64_t state = 7;
  for (const char* start : {"W:W21-32:B1-12", "B:WK18,22,25:B5,9,K30"}) {
    Game g(*parse_fen(start));
    for (int ply = 0; ply < 90 && !g.over(); ++ply) {
      MoveList moves;
      generate_legal_moves(g.current(), moves);
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      REQUIRE(g.play(moves[static_cast<std::size_t>((state >> 33) % moves.size())]).has_value());
    }
    const std::string pdn = g.to_pdn({{"Event", "round trip"}});
    const std::vector<PdnGameOrError> back = read_pdn(pdn + "\n" + pdn);
    REQUIRE(back.size() == 2);
    for (const PdnGameOrError& b : back) {
      INFO(pdn << (b ? "" : b.error()));
      REQUIRE(b.has_value());
      CHECK(b->start == g.start());
      CHECK(b->moves == g.moves());
      CHECK(b->tag("Event") == "round trip");
      CHECK(b->result == to_string(g.result()));
    }
  }
}
