// The PDN reader: several games, tags, numeric and algebraic moves, skipped comments and
// variations, errors naming line and move, files in the forms other programs write; the PDN
// writer (to_pdn_move, Game::to_pdn) checked by a strict PDN 3.0 reader (strict_pdn.h).
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "strict_pdn.h"

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

namespace {

// A game of random legal moves from `fen` (the same for a seed).
Game random_game(const char* fen, std::uint64_t& state, int plies = 90,
                 Variant variant = Variant::Brazilian) {
  Game g(*parse_fen(fen, variant));
  for (int ply = 0; ply < plies && !g.over(); ++ply) {
    MoveList moves;
    generate_legal_moves(g.current(), moves);
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    REQUIRE(g.play(moves[static_cast<std::size_t>((state >> 33) % moves.size())]).has_value());
  }
  return g;
}

// The one text of m in PDN (numeric squares) and in the squares of the algebraic form.
std::string pdn_of(const char* fen, const char* hub_move, PdnSquares squares = PdnSquares::Numeric) {
  const Position p = *parse_fen(fen);
  const Expected<Move> m = parse_hub_move(p, hub_move);
  REQUIRE(m.has_value());
  return to_pdn_move(p, *m, squares);
}

}  // namespace

TEST_CASE("pdn: Game::to_pdn reads back to the same start, moves and tags", "[pdn]") {
  std::uint64_t state = 7;
  for (const char* start : {"W:W21-32:B1-12", "B:WK18,22,25:B5,9,K30"}) {
    const Game g = random_game(start, state);
    for (const PdnSquares squares : {PdnSquares::Numeric, PdnSquares::Algebraic}) {
      const std::string pdn = g.to_pdn({{"Event", "round trip"}}, {}, squares);
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
}

TEST_CASE("pdn writer: a move is from-to, a capture from x to with no captured squares", "[pdn]") {
  CHECK(pdn_of(kStartFen.data(), "22-18") == "22-18");
  CHECK(pdn_of(kStartFen.data(), "22-18", PdnSquares::Algebraic) == "c3-d4");
  // c1 takes d2 and d4 (Hub form 30x14x18x26): one capture from 30 to 14, so no route.
  CHECK(pdn_of("W:W30:B26,18", "30x14x18x26") == "30x14");
  CHECK(pdn_of("W:W30:B26,18", "30x14x18x26", PdnSquares::Algebraic) == "c1xc5");
  CHECK(pdn_of("W:W22:B18", "22x15x18") == "22x15");
}

TEST_CASE("pdn writer: where two captures share from and to, each is written with its full route", "[pdn]") {
  // The man on g3 reaches c7 over f4 (landing on e5) or over f2 (landing on e1), then on the same
  // squares; or goes round back to g3, the one capture from g3 to g3.
  const char* fen = "W:W24:B9,17,18,19,26,27";
  CHECK(pdn_of(fen, "24x6x9x17x18x19") == "24x15x22x13x6");
  CHECK(pdn_of(fen, "24x6x9x17x26x27") == "24x31x22x13x6");
  CHECK(pdn_of(fen, "24x6x9x17x26x27", PdnSquares::Algebraic) == "g3xe1xc3xa5xc7");
  CHECK(pdn_of(fen, "24x24x18x19x26x27") == "24x24");
  // The king on d6 goes round and back through its own square: the route names every turn, the
  // far square a3 included where the king turns after flying past b4.
  const char* king = "W:WK10:B3,6,13,14,15,22,23,25";
  CHECK(pdn_of(king, "10x1x6x14x15x23x25") == "10x21x30x19x10x1");
}

TEST_CASE("pdn writer: where a route goes straight on, it names the square just behind the piece taken",
          "[pdn]") {
  // From f4 the king takes e5 and c7 on one line: d6, just behind e5, and not b8 or a further square.
  const char* king = "W:WK10:B3,6,13,14,15,22,23,25";
  CHECK(pdn_of(king, "10x1x6x14x15x22x23") == "10x17x26x19x10x1");
  CHECK(pdn_of(king, "10x1x6x14x15x22x23", PdnSquares::Algebraic) == "d6xb4xd2xf4xd6xb8");
}

TEST_CASE("pdn writer: tags escaped, GameType 26, FEN off the start position, result in tag and text",
          "[pdn]") {
  Game g(*parse_fen("W:W24:B9,17,18,19,26,27"));
  REQUIRE(g.play(*parse_hub_move(g.current(), "24x6x9x17x18x19")).has_value());
  const std::string pdn = g.to_pdn({{"White", "a \"quoted\" name\\"}, {"GameType", "20"}, {"FEN", "W:W1"}});
  CHECK_THAT(pdn, Catch::Contains("[White \"a \\\"quoted\\\" name\\\\\"]\n"));
  CHECK_THAT(pdn, Catch::Contains("[GameType \"26\"]\n"));
  CHECK_THAT(pdn, !Catch::Contains("GameType \"20\""));
  CHECK_THAT(pdn, Catch::Contains("[FEN \"W:W24:B9,17,18,19,26,27\"]\n"));
  CHECK_THAT(pdn, Catch::Contains("[Result \"*\"]\n"));
  CHECK_THAT(pdn, Catch::EndsWith("1. 24x15x22x13x6 *\n"));
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(pdn);
  INFO(pdn << (strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  REQUIRE(strict->size() == 1);
  CHECK(strict->front().tag("White") == "a \"quoted\" name\\");
  CHECK(strict->front().moves == g.moves());
  CHECK_THAT(Game().to_pdn(), !Catch::Contains("[FEN"));
}

TEST_CASE("pdn writer: games of random moves are read by a strict PDN 3.0 reader to the same moves",
          "[pdn]") {
  std::uint64_t state = 3;
  int routes = 0;
  int captures = 0;
  for (int round = 0; round < 40; ++round) {
    for (const char* start : {"W:W21-32:B1-12", "B:WK18,22,25:B5,9,K30", "W:WK10:B3,6,13,14,15,22,23,25",
                              "W:WK29,K32:B2,3,6,7,10,11,14,19"}) {
      const Game g = random_game(start, state);
      for (const PdnSquares squares : {PdnSquares::Numeric, PdnSquares::Algebraic}) {
        const std::string pdn =
            g.to_pdn({{"Event", "strict"}, {"Round", std::to_string(round)}}, {}, squares);
        const Expected<std::vector<strict_pdn::Game>> back = strict_pdn::read(pdn + "\n" + pdn);
        INFO(pdn << (back ? "" : back.error()));
        REQUIRE(back.has_value());
        REQUIRE(back->size() == 2);
        for (const strict_pdn::Game& b : *back) {
          CHECK(b.start == g.start());
          CHECK(b.moves == g.moves());
          CHECK(b.result == to_string(g.result()));
        }
      }
      for (std::size_t i = 0; i < g.moves().size(); ++i) {
        const std::string text = to_pdn_move(g.positions()[i], g.moves()[i]);
        captures += g.moves()[i].is_capture() ? 1 : 0;
        routes += std::count(text.begin(), text.end(), 'x') > 1 ? 1 : 0;
      }
    }
  }
  // The games had captures and captures written with their routes.
  CHECK(captures > 100);
  CHECK(routes > 0);
}

TEST_CASE("pdn writer: every game's games, in its own squares, read by the strict reader", "[pdn][games]") {
  std::uint64_t state = 11;
  for (const Variant v : kVariants) {
    int captures = 0;
    for (int round = 0; round < 10; ++round) {
      // The start, and a position with kings, both in the game's own numbers.
      for (const char* start : {"", "W:WK1,K2,9,10,11:B20,23,25,K30"}) {
        const std::string fen = *start ? std::string(start) : to_fen(Position::start(v));
        const Game g = random_game(fen.c_str(), state, 90, v);
        for (const PdnSquares squares : {PdnSquares::Numeric, PdnSquares::Algebraic}) {
          const std::string pdn = g.to_pdn({{"Event", "strict"}}, {}, squares);
          const Expected<std::vector<strict_pdn::Game>> back = strict_pdn::read(pdn);
          INFO(to_string(v) << "\n" << pdn << (back ? "" : back.error()));
          REQUIRE(back.has_value());
          REQUIRE(back->size() == 1);
          CHECK(back->front().start == g.start());
          CHECK(back->front().moves == g.moves());
          // And damas's own reader, the game named by the GameType tag.
          const std::vector<PdnGameOrError> ours = read_pdn(pdn);
          REQUIRE(ours.size() == 1);
          REQUIRE(ours.front().has_value());
          CHECK(ours.front()->start == g.start());
          CHECK(ours.front()->moves == g.moves());
        }
        for (const Move& m : g.moves()) captures += m.is_capture() ? 1 : 0;
      }
    }
    INFO(to_string(v));
    CHECK(captures > 20);
  }
}

TEST_CASE("pdn: a Spanish FEN is in the game's numbers, whether the GameType tag comes first or last",
          "[pdn]") {
  // White's men on 1-12 of the mirrored board: h1 (1) and b3 (12) among them.
  for (const char* text : {"[GameType \"24\"]\n[FEN \"W:W1,12:B32\"]\n1. 12-16 *\n",
                           "[FEN \"W:W1,12:B32\"]\n[GameType \"24,W,8,8,N1,1\"]\n1. 12-16 *\n"}) {
    const std::vector<PdnGameOrError> games = read_pdn(text);
    REQUIRE(games.size() == 1);
    INFO(text << (games.front() ? "" : games.front().error()));
    REQUIRE(games.front().has_value());
    const Position& start = games.front()->start;
    CHECK(start.variant() == Variant::Spanish);
    CHECK(to_fen(start) == "W:W1,12:B32");
    CHECK(to_fen(start, FenStyle::Algebraic) == "W:Wh1,b3:Ba8");
    CHECK(games.front()->moves.size() == 1);
  }
}

TEST_CASE("strict PDN reader: refuses Hub-form captures, needless routes and missing routes", "[pdn]") {
  const auto error_of = [](const std::string& text) {
    const Expected<std::vector<strict_pdn::Game>> r = strict_pdn::read(text);
    return r ? std::string() : r.error();
  };
  const std::string header = "[GameType \"26\"]\n";
  CHECK(error_of(header + "[FEN \"W:W30:B26,18\"]\n1. 30x14 *").empty());
  CHECK(error_of(header + "[FEN \"W:W30:B26,18\"]\n1. 30x23x14 *").find("not ambiguous") !=
        std::string::npos);
  CHECK(error_of(header + "[FEN \"W:W30:B26,18\"]\n1. 30x14x18x26 *").find("leg") != std::string::npos);
  CHECK(error_of(header + "[FEN \"W:W24:B9,17,18,19,26,27\"]\n1. 24x6 *").find("ambiguous") !=
        std::string::npos);
  CHECK(error_of(header + "[FEN \"W:W24:B9,17,18,19,26,27\"]\n1. 24x15x22x13x6 *").empty());
  CHECK_FALSE(error_of(header + "[FEN \"W:WK10:B3,6,13,14,15,22,23,25\"]\n1. 10x17x26x19x1 *").empty());
  CHECK(error_of(header + "[FEN \"W:WK10:B3,6,13,14,15,22,23,25\"]\n1. 10x17x26x19x10x1 *").empty());
  CHECK(error_of(header + "1. 22-18 11-15 *").empty());
  CHECK(error_of(header + "1. 22-18 2. 11-15 *").find("move number") != std::string::npos);
  CHECK(error_of("1. 22-18 *").find("GameType") != std::string::npos);
  CHECK(error_of(header + "[Result \"2-0\"]\n1. 22-18 *").find("Result") != std::string::npos);
  CHECK(error_of(header + "1. 22-18").find("no result") != std::string::npos);
}

TEST_CASE("pdn reader: files in the forms other programs write read back to the same moves", "[pdn]") {
  // One game written five ways: numeric with comments, variations, NAGs, strength marks and
  // "12..." after a comment; numeric full routes; algebraic with ':' (lidraughts) and 'x'; and
  // the Hub form of files damas wrote before it wrote PDN routes.
  const std::string moves =
      "24-19 9-13 27-24 6-9 24-20 11-16 20x11x16 8x24x11x19 28x19x24 12-16 19x12x16 10-14 22-18 14-17 "
      "21x14x17 2-6 14-10 6x22x10x18 26x17x22 13x22x17 25x18x22 9-14 18x9x14 5x14x9";
  const std::string text =
      "% exported by another program\n"
      "[Event \"Torneio \\\"aberto\\\"\"]\n[Site \"?\"]\n[Date \"2024.03.09\"]\n[Round \"1\"]\n"
      "[White \"Silva, A.\"]\n[Black \"Souza, B.\"]\n[Result \"*\"]\n[GameType \"26,W,8,8,N2,0\"]\n\n"
      "1. 24-19 9-13 2. 27-24 {a quiet start} 2... 6-9 3. 24-20 $1 11-16! 4. 20x11 8x24?! "
      "(4... 7x16 5. 28-24 (5. 23-18 16-19) 13-17) 5. 28x19 12-16 6. 19x12 10-14!? 7. 22-18 14-17 "
      "8. 21x14 2-6 9. 14-10 $2 6x22 10. 26x17 13x22 11. 25x18 9-14 12. 18x9 5x14 *\n\n"
      "[Event \"full routes\"]\n1. 24-19 9-13 2. 27-24 6-9 3. 24-20 11-16 4. 20x11 8x15x24 5. 28x19 12-16 "
      "6. 19x12 10-14 7. 22-18 14-17 8. 21x14 2-6 9. 14-10 6x15x22 10. 26x17 13x22 11. 25x18 9-14 12. 18x9 "
      "5x14 1-1\n\n"
      "[Event \"lidraughts\"]\n[GameType \"26\"]\n1. g3-f4 b6-a5 2. f2-g3 c7-b6 3. g3-h4 f6-g5 4. h4:f6 "
      "g7:g3 "
      "5. h2:f4 h6-g5 6. f4:h6 d6-c5 7. c3-d4 c5-b4 8. a3:c5 d8-c7 9. c5-d6 c7:c3 10. d2:b4 a5:c3 "
      "11. b2:d4 b6-c5 12. d4:b6 a7:c5 0-2\n"
      "[Event \"algebraic x, routes\"]\n1.g3-f4 b6-a5 2.f2-g3 c7-b6 3.g3-h4 f6-g5 4.h4xf6 g7xe5xg3 5.h2xf4 "
      "h6-g5 6.f4xh6 d6-c5 7.c3-d4 c5-b4 8.a3xc5 d8-c7 9.c5-d6 c7xe5xc3 10.d2xb4 a5xc3 11.b2xd4 b6-c5 "
      "12.d4xb6 a7xc5 2-0\n"
      "[Event \"damas before PDN routes\"]\n1. 24-19 9-13 2. 27-24 6-9 3. 24-20 11-16 4. 20x11x16 8x24x11x19 "
      "5. 28x19x24 12-16 6. 19x12x16 10-14 7. 22-18 14-17 8. 21x14x17 2-6 9. 14-10 6x22x10x18 "
      "10. 26x17x22 13x22x17 11. 25x18x22 9-14 12. 18x9x14 5x14x9 *\n";
  const std::vector<PdnGameOrError> games = read_pdn(text);
  REQUIRE(games.size() == 5);
  const std::vector<std::string> results = {"*", "1-1", "0-2", "2-0", "*"};
  for (std::size_t i = 0; i < games.size(); ++i) {
    INFO("game " << i + 1 << ": " << (games[i] ? "" : games[i].error()));
    REQUIRE(games[i].has_value());
    CHECK(hub_moves(*games[i]) == moves);
    CHECK(games[i]->result == results[i]);
  }
  CHECK(games[0]->tag("Event") == "Torneio \"aberto\"");
  CHECK(games[0]->tag("White") == "Silva, A.");
  // A black move after a comment and an unknown move "..." as some writers put them.
  const std::vector<PdnGameOrError> black =
      read_pdn("[FEN \"B:W22:B9,10\"]\n1... 9-13 {then} 2. 22-17 ... 13x22 *");
  REQUIRE(black.size() == 1);
  INFO((black[0] ? "" : black[0].error()));
  REQUIRE(black[0].has_value());
  CHECK(hub_moves(*black[0]) == "9-13 22-17 13x22x17");
}

TEST_CASE("pdn: a Russian game is written with GameType 25 and read back as a Russian game",
          "[pdn][russian]") {
  std::uint64_t state = 11;
  for (const char* start : {"W:W21-32:B1-12", "B:WK18,22,25:B5,9,K30"}) {
    for (int game = 0; game < 8; ++game) {
      const Game g = random_game(start, state, 120, Variant::Russian);
      for (const PdnSquares squares : {PdnSquares::Numeric, PdnSquares::Algebraic}) {
        const std::string pdn = g.to_pdn({{"GameType", "26"}}, {}, squares);  // the writer's own wins
        INFO(pdn);
        CHECK_THAT(pdn, Catch::Contains("[GameType \"25\"]\n") && !Catch::Contains("\"26\""));
        // The Russian start needs no FEN tag, like the Brazilian one.
        CHECK((pdn.find("[FEN ") == std::string::npos) == (g.start() == Position::start(Variant::Russian)));
        const std::vector<PdnGameOrError> back = read_pdn(pdn);
        REQUIRE(back.size() == 1);
        REQUIRE(back[0].has_value());
        CHECK(back[0]->start == g.start());  // pieces, side and variant
        CHECK(back[0]->moves == g.moves());
      }
    }
  }
}

TEST_CASE("pdn: GameType 25 selects the Russian rules, in any tag order and PDN 3.0's long form",
          "[pdn][russian]") {
  // Crowned on d8 mid-capture, the man goes on over b6 to a5: legal in Russian only.
  const std::string moves = "\n1. 11x13 *\n";
  for (const char* tags : {"[GameType \"25\"]\n[FEN \"W:W11,30:B4,7,9:H0:F1\"]\n",
                           "[FEN \"W:W11,30:B4,7,9\"]\n[GameType \"25,W,8,8,N2,0\"]\n"}) {
    INFO(tags);
    const std::vector<PdnGameOrError> games = read_pdn(tags + moves);
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].has_value());
    CHECK(games[0]->start.variant() == Variant::Russian);
    REQUIRE(games[0]->moves.size() == 1);
    CHECK(to_hub_move(games[0]->moves[0]) == "11x13x7x9");
  }
  // The same game without the tag is Brazilian, where the move is illegal.
  const std::vector<PdnGameOrError> brazilian = read_pdn("[FEN \"W:W11,30:B4,7,9\"]" + moves);
  REQUIRE(brazilian.size() == 1);
  CHECK_FALSE(brazilian[0].has_value());
  for (const char* type : {"26", "20", "x"})
    CHECK(read_pdn(std::string("[GameType \"") + type + "\"]\n1. 22-18 *")[0]->start == Position::start());
}
