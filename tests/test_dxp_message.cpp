// DXP messages (parse/format) and NUL framing.
#include <catch2/catch.hpp>
#include <string>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/dxp/dxp_framing.h"
#include "damas/dxp/dxp_message.h"
#include "dxp_test_helpers.h"

using namespace damas;
using namespace damas::dxp;
using damas::testing::cat;
using damas::testing::pad32;

namespace {

template <typename T>
T parse_as(std::string_view text) {
  Expected<Message> m = parse_message(text);
  INFO(text << (m ? "" : " -> " + m.error()));
  REQUIRE(m);
  REQUIRE(std::holds_alternative<T>(*m));
  return std::get<T>(*m);
}

// Pieces on standard square numbers, for readable assertions.
bool has(const Position& p, Color c, int standard_square, bool king) {
  const Bitboard b = bb(square_from_number(standard_square));
  return (p.pieces(c) & b) != 0 && ((p.kings() & b) != 0) == king;
}

}  // namespace

TEST_CASE("GAMEREQ as pydraughts sends it for Brazilian (B form, 32 squares)", "[dxp]") {
  // Captured from pydraughts 0.6.7 (protocol notes, section 8).
  const std::string text = cat("R01", pad32("DXP Client")) + "W005075BWzzzzzzzzzzzzeeeeeeeewwwwwwwwwwww";
  REQUIRE(text.size() == 76);
  const GameRequest r = parse_as<GameRequest>(text);
  CHECK(r.version == 1);
  CHECK(r.initiator_name == "DXP Client");
  CHECK(r.follower_color == Color::White);
  CHECK(r.minutes == 5);
  CHECK(r.moves == 75);
  REQUIRE(r.start);
  CHECK(*r.start == Position::start());
  CHECK(format_message(r) == text);
}

TEST_CASE("GAMEREQ A form and a position with kings, Black to move", "[dxp]") {
  const std::string normal = cat("R01", pad32("MyEngine")) + "Z090075A";
  const GameRequest a = parse_as<GameRequest>(normal);
  CHECK(a.follower_color == Color::Black);
  CHECK(a.minutes == 90);
  CHECK(!a.start);
  CHECK(format_message(a) == normal);

  // Same pieces as the HUB.md example: white men a1 c1, black man h8 is impossible (it would
  // be crowned), so: black king b8, black man h6, white men a1 c1; Black to move.
  std::string squares(32, 'e');
  squares[0] = 'Z';   // 1 = b8
  squares[11] = 'z';  // 12 = h6
  squares[28] = 'w';  // 29 = a1
  squares[29] = 'w';  // 30 = c1
  const std::string text = cat("R01", pad32("x")) + "W000000BZ" + squares;
  const GameRequest b = parse_as<GameRequest>(text);
  REQUIRE(b.start);
  CHECK(b.start->side_to_move() == Color::Black);
  CHECK(has(*b.start, Color::Black, 1, true));
  CHECK(has(*b.start, Color::Black, 12, false));
  CHECK(has(*b.start, Color::White, 29, false));
  CHECK(has(*b.start, Color::White, 30, false));
  CHECK(popcount(b.start->occupied()) == 4);
  CHECK(format_message(b) == text);
  CHECK(to_dxp_position(*b.start) == "Z" + squares);
}

TEST_CASE("GAMEREQ refusals say why", "[dxp]") {
  const std::string head = cat("R01", pad32("x"));
  const auto error_of = [](const std::string& t) {
    Expected<Message> m = parse_message(t);
    REQUIRE(!m);
    return m.error();
  };
  CHECK_THAT(error_of(head + "Q005075A"), Catch::Contains("colour"));
  CHECK_THAT(error_of(head + "W0x5075A"), Catch::Contains("thinking time"));
  CHECK_THAT(error_of(head + "W005075C"), Catch::Contains("flag"));
  CHECK_THAT(error_of(head + "W005075AX"), Catch::Contains("43"));
  CHECK_THAT(error_of(head + "W005"), Catch::Contains("too short"));
  CHECK_THAT(error_of(head + "W005075BW" + std::string(50, 'e')), Catch::Contains("10x10"));
  CHECK_THAT(error_of(head + "W005075BW" + std::string(31, 'e')), Catch::Contains("76"));
  CHECK_THAT(error_of(head + "W005075BX" + std::string(32, 'e')), Catch::Contains("side to move"));
  CHECK_THAT(error_of(head + "W005075BW" + std::string(31, 'e') + "b"), Catch::Contains("bad letter"));
  // A white man on its crowning row (square 1) is not a position.
  CHECK_THAT(error_of(head + "W005075BWw" + std::string(31, 'e')), Catch::Contains("crowned"));
  CHECK_THAT(error_of("R1x"), Catch::Contains("version"));
}

TEST_CASE("GAMEREQ of another protocol version keeps only the version", "[dxp]") {
  const GameRequest r = parse_as<GameRequest>("R02whatever follows");
  CHECK(r.version == 2);
}

TEST_CASE("GAMEACC, GAMEEND, CHAT, BACKREQ, BACKACC round-trip", "[dxp]") {
  const std::string acc = cat("A", pad32("Scan 3.1")) + "0";
  const GameAccept a = parse_as<GameAccept>(acc);
  CHECK(a.follower_name == "Scan 3.1");
  CHECK(a.code == AcceptCode::Accepted);
  CHECK(format_message(a) == acc);
  CHECK(parse_as<GameAccept>(cat("A", pad32("n")) + "2").code == AcceptCode::GameRefused);
  CHECK(!parse_message(cat("A", pad32("n")) + "4"));
  CHECK(!parse_message(cat("A", pad32("n"))));

  const GameEnd e = parse_as<GameEnd>("E01");
  CHECK(e.reason == EndReason::Unknown);
  CHECK(e.stop);
  CHECK(parse_as<GameEnd>("E30").reason == EndReason::SenderWins);
  CHECK(format_message(GameEnd{EndReason::Draw, false}) == "E20");
  CHECK(!parse_message("E41"));
  CHECK(!parse_message("E02"));
  CHECK(!parse_message("E0"));

  CHECK(parse_as<Chat>("Chello there").text == "hello there");
  CHECK(format_message(Chat{"hi"}) == "Chi");

  const BackRequest b = parse_as<BackRequest>("B012Z");
  CHECK(b.move_number == 12);
  CHECK(b.side == Color::Black);
  CHECK(format_message(b) == "B012Z");
  CHECK(!parse_message("B000W"));
  CHECK(!parse_message("B012X"));
  CHECK(!parse_message("B12W"));

  CHECK(parse_as<BackAccept>("K1").code == BackCode::NotSupported);
  CHECK(format_message(BackAccept{BackCode::Accepted}) == "K0");
  CHECK(!parse_message("K3"));
}

TEST_CASE("MOVE layouts: quiet, capture, unsorted captured squares", "[dxp]") {
  const MoveMessage q = parse_as<MoveMessage>("M0003101400");
  CHECK(q.seconds == 3);
  CHECK(q.from == 10);
  CHECK(q.to == 14);
  CHECK(q.captured.empty());

  const MoveMessage c = parse_as<MoveMessage>("M00001614022019");
  CHECK(c.captured == std::vector<int>{19, 20});
  CHECK(format_message(c) == "M00001614021920");  // always ascending on output
  CHECK(describe(c) == "16x14x19x20");

  CHECK_THAT(parse_message("M00001014011920").error(), Catch::Contains("15"));  // count says 1, 2 listed
  CHECK_THAT(parse_message("M0000101401").error(), Catch::Contains("13"));
  CHECK_THAT(parse_message("M00001014021919").error(), Catch::Contains("twice"));
  CHECK_THAT(parse_message("M0000331400").error(), Catch::Contains("01..32"));
  CHECK_THAT(parse_message("M0000001400").error(), Catch::Contains("01..32"));
  CHECK_THAT(parse_message("M0000101413").error(), Catch::Contains("00..12"));
  CHECK_THAT(parse_message("M00a0101400").error(), Catch::Contains("time"));
  CHECK_THAT(parse_message("M00").error(), Catch::Contains("too short"));
}

TEST_CASE("MOVE <-> Move in both numberings, on the pydraughts example game", "[dxp]") {
  // Moves in a1 numbering as pydraughts sent them (protocol notes, section 8 / HUB.md 13).
  const std::vector<std::string> wire = {"M0000101400",   "M0000231900", "M000014230119",
                                         "M000028190123", "M0000061000", "M0000242000",
                                         "M0000121600",   "M0000312800", "M00001614021920"};
  Position p = Position::start();
  for (const std::string& text : wire) {
    const MoveMessage mm = parse_as<MoveMessage>(text);
    Expected<Move> m = to_move(p, mm, Numbering::A1);
    INFO(text);
    REQUIRE(m);
    CHECK(format_message(to_move_message(*m, 0, Numbering::A1)) == text);
    // The same move in standard numbering names other squares but the same Move.
    const MoveMessage standard = to_move_message(*m, 0, Numbering::Standard);
    Expected<Move> again = to_move(p, standard, Numbering::Standard);
    REQUIRE(again);
    CHECK(*again == *m);
    p = p.after(*m);
  }
  // a1 9-13 is a3-b4, standard 21-17.
  const Expected<Move> first = to_move(Position::start(), MoveMessage{0, 9, 13, {}}, Numbering::A1);
  REQUIRE(first);
  CHECK(to_hub_move(*first) == "21-17");
  CHECK(to_algebraic(Position::start(), *first) == "a3-b4");
  // Read with the wrong numbering it is a black man's move: illegal for White.
  const Expected<Move> wrong = to_move(Position::start(), MoveMessage{0, 9, 13, {}}, Numbering::Standard);
  REQUIRE(!wrong);
  CHECK_THAT(wrong.error(), Catch::Contains("illegal move 9-13"));
}

TEST_CASE("a capture must list exactly the captured pieces", "[dxp]") {
  Position p = Position::start();
  for (const char* m : {"10-14", "23-19"}) p = p.after(*parse_hub_move(p, m, Numbering::A1));
  CHECK(to_move(p, MoveMessage{0, 14, 23, {19}}, Numbering::A1));
  CHECK(!to_move(p, MoveMessage{0, 14, 23, {}}, Numbering::A1));
  CHECK(!to_move(p, MoveMessage{0, 14, 23, {18}}, Numbering::A1));
  CHECK(!to_move(p, MoveMessage{0, 14, 23, {19, 18}}, Numbering::A1));
  CHECK(!to_move(p, MoveMessage{0, 14, 23, {19, 19}}, Numbering::A1));
  CHECK(!to_move(p, MoveMessage{0, 14, 40, {19}}, Numbering::A1));
}

TEST_CASE("any message refused: empty, too long, unknown type, bytes above 127", "[dxp]") {
  CHECK(!parse_message(""));
  CHECK_THAT(parse_message("X123").error(), Catch::Contains("unknown message type"));
  CHECK_THAT(parse_message(cat("C", std::string(127, 'a'))).error(), Catch::Contains("127"));
  CHECK(parse_message(cat("C", std::string(126, 'a'))));
  CHECK(!parse_message(std::string("C\xC3\xA9")));
  CHECK(!parse_message(std::string("E0\0", 3)));
}

TEST_CASE("formatting cuts and cleans what cannot be sent, and always parses", "[dxp]") {
  const std::string long_name(40, 'n');
  const std::string req = format_message(GameRequest{1, long_name, Color::Black, 1234, -5, std::nullopt});
  const GameRequest r = parse_as<GameRequest>(req);
  CHECK(r.initiator_name == std::string(32, 'n'));
  CHECK(r.minutes == 999);
  CHECK(r.moves == 0);
  const std::string chat = format_message(Chat{std::string(200, 'x') + "\xff"});
  CHECK(chat.size() == kMaxMessageLength);
  CHECK(parse_message(chat));
  CHECK(format_message(Chat{"caf\xc3\xa9"}) == "Ccaf??");
  CHECK(format_message(MoveMessage{12345, 1, 2, {}}) == "M9999010200");
}

// ---- framing ----

TEST_CASE("Deframer cuts at NUL however the bytes arrive", "[dxp]") {
  const std::string stream = std::string("E01") + '\0' + "M0000101400" + '\0' + "Chello" + '\0';
  const std::vector<std::string> expected = {"E01", "M0000101400", "Chello"};
  SECTION("all at once") {
    Deframer d;
    std::vector<std::string> got;
    for (auto& m : d.feed(stream)) got.push_back(*m);
    CHECK(got == expected);
    CHECK(d.pending() == 0);
  }
  SECTION("byte by byte and in odd chunks") {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{7}}) {
      Deframer d;
      std::vector<std::string> got;
      for (std::size_t i = 0; i < stream.size(); i += chunk)
        for (auto& m : d.feed(std::string_view(stream).substr(i, chunk))) {
          REQUIRE(m);
          got.push_back(*m);
        }
      CHECK(got == expected);
    }
  }
  SECTION("a partial message waits for its NUL") {
    Deframer d;
    CHECK(d.feed("M00001").empty());
    CHECK(d.pending() == 6);
    const auto out = d.feed(std::string("01400") + '\0');
    REQUIRE(out.size() == 1);
    CHECK(*out[0] == "M0000101400");
  }
}

TEST_CASE("Deframer refuses over-long, empty and non-ASCII messages and recovers", "[dxp]") {
  Deframer d;
  const std::string ok127(127, 'C');
  auto out = d.feed(ok127 + '\0');
  REQUIRE(out.size() == 1);
  CHECK(out[0]);
  // 128 characters: refused, and the next message is intact.
  out = d.feed(std::string(128, 'C') + '\0' + "E00" + '\0');
  REQUIRE(out.size() == 2);
  CHECK(!out[0]);
  CHECK_THAT(out[0].error(), Catch::Contains("128 characters refused"));
  REQUIRE(out[1]);
  CHECK(*out[1] == "E00");
  out = d.feed(std::string(1, '\0') + "C\x80x" + '\0' + "K0" + '\0');
  REQUIRE(out.size() == 3);
  CHECK_THAT(out[0].error(), Catch::Contains("empty"));
  CHECK_THAT(out[1].error(), Catch::Contains("outside ASCII"));
  CHECK(*out[2] == "K0");
  // A flood without any NUL keeps memory bounded: only a count is kept.
  for (int i = 0; i < 1000; ++i) CHECK(d.feed(std::string(1000, 'z')).empty());
  CHECK(d.pending() == 1'000'000);
  out = d.feed(std::string("\0E00\0", 5));
  REQUIRE(out.size() == 2);
  CHECK(!out[0]);
  CHECK(*out[1] == "E00");
}

TEST_CASE("frame adds one NUL and refuses what cannot travel", "[dxp]") {
  CHECK(*frame("E00") == std::string("E00\0", 4));
  CHECK(frame(std::string(127, 'C')));
  CHECK(!frame(std::string(128, 'C')));
  CHECK(!frame(""));
  CHECK(!frame(std::string("E\0", 2)));
}
