// The DXP session state machine, driven directly (no sockets) with a recording sink and a fake
// player that answers searches with a legal move chosen by the test.
#include <catch2/catch.hpp>
#include <deque>
#include <random>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/dxp/dxp.h"
#include "dxp_test_helpers.h"
#include "strict_pdn.h"

using namespace damas;
using namespace damas::dxp;
using damas::testing::cat;
using damas::testing::pad32;
using std::chrono::milliseconds;

namespace {

const std::string kStartB = "Wzzzzzzzzzzzzeeeeeeeewwwwwwwwwwww";

std::string gamereq(char follower, int minutes, int moves, const std::string& position = kStartB) {
  char numbers[8];
  std::snprintf(numbers, sizeof numbers, "%03d%03d", minutes, moves);
  return cat("R01", pad32("Tester")) + follower + numbers +
         (position.empty() ? std::string("A") : cat("B", position));
}

struct RecordingSink final : Sink {
  std::deque<std::string> sent;
  std::optional<std::uint64_t> ticket;  // search asked for and not answered yet
  Game searched;
  SearchLimits limits;
  int stops = 0;
  int new_games = 0;
  std::vector<FinishedGame> saved;
  std::vector<std::string> logs;
  bool closed = false;

  void send(const std::string& m) override { sent.push_back(m); }
  void think(std::uint64_t t, const Game& g, const SearchLimits& l) override {
    ticket = t;
    searched = g;
    limits = l;
  }
  void stop_thinking() override { ++stops; }
  void new_game() override { ++new_games; }
  void game_finished(const FinishedGame& g) override { saved.push_back(g); }
  void log(std::string_view line) override { logs.emplace_back(line); }
  void close() override { closed = true; }

  std::string next() {
    REQUIRE(!sent.empty());
    std::string m = sent.front();
    sent.pop_front();
    return m;
  }
};

// Answers the pending search with `pick` (index into the legal moves, modulo their count).
void answer(Session& s, RecordingSink& sink, Millis now, std::size_t pick = 0) {
  REQUIRE(sink.ticket);
  MoveList legal;
  generate_legal_moves(sink.searched.current(), legal);
  REQUIRE(!legal.empty());
  SearchResult r;
  r.best = legal[pick % legal.size()];
  const std::uint64_t t = *sink.ticket;
  sink.ticket.reset();
  s.on_search_done(t, r, now);
}

SessionConfig follower_config(Numbering n = Numbering::A1) {
  SessionConfig c;
  c.name = "damas-test";
  c.numbering = n;
  c.peer_timeout = milliseconds(5000);
  return c;
}

}  // namespace

TEST_CASE("follower playing White: accepts, moves at once, in a1 numbering", "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);
  s.on_connected(Millis{0});
  CHECK(sink.sent.empty());
  s.on_message(gamereq('W', 5, 75), Millis{10});
  CHECK(sink.next() == cat("A", pad32("damas-test")) + "0");
  REQUIRE(sink.ticket);
  CHECK(sink.new_games == 1);
  CHECK(sink.limits.time == Approx(300.0));
  CHECK(sink.limits.moves_to_go == 75);
  answer(s, sink, Millis{2510});  // first legal move after 2.5 s
  const std::string move = sink.next();
  const Expected<Message> m = parse_message(move);
  REQUIRE(m);
  const MoveMessage mm = std::get<MoveMessage>(*m);
  CHECK(mm.seconds == 3);  // 2.5 s rounds to 3
  // a1 numbering: White's men are on 1..12.
  CHECK(mm.from >= 9);
  CHECK(mm.from <= 12);
  REQUIRE(s.game());
  CHECK(s.game()->moves().size() == 1);
  // Black replies (a1 numbering: Black's men on 21..32); we think again, clock reduced.
  MoveList legal;
  generate_legal_moves(s.game()->current(), legal);
  s.on_message(format_message(to_move_message(legal[0], 0, Numbering::A1)), Millis{3000});
  REQUIRE(sink.ticket);
  CHECK(sink.limits.time == Approx(297.5));
  CHECK(sink.limits.moves_to_go == 74);
}

TEST_CASE("follower playing Black waits for White's move, MOVE time field is informational", "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);
  s.on_message(gamereq('Z', 0, 0), Millis{0});
  CHECK(sink.next().back() == '0');
  CHECK(!sink.ticket);
  s.on_message("M0042091300", Millis{100});  // 9-13 = a3-b4, "42 s"
  REQUIRE(sink.ticket);
  // 000 minutes: the fallback time per move.
  REQUIRE(sink.limits.move_time);
  CHECK(*sink.limits.move_time == Approx(1.0));
  CHECK(!sink.limits.time);
  CHECK(to_algebraic(Position::start(), s.game()->moves()[0]) == "a3-b4");
}

TEST_CASE("fixed depth or nodes replace the clock, the clock is refilled every N moves", "[dxp]") {
  SECTION("depth") {
    RecordingSink sink;
    SessionConfig c = follower_config();
    c.depth = 3;
    Session s(c, sink);
    s.on_message(gamereq('W', 5, 0), Millis{0});
    REQUIRE(sink.ticket);
    CHECK(sink.limits.depth == 3);
    CHECK(!sink.limits.time);
    CHECK(!sink.limits.move_time);
  }
  SECTION("time control of 2 moves") {
    RecordingSink sink;
    Session s(follower_config(), sink);
    s.on_message(gamereq('W', 1, 2), Millis{0});
    sink.sent.clear();
    Millis now{0};
    for (int move = 0; move < 3; ++move) {
      REQUIRE(sink.ticket);
      CHECK(sink.limits.moves_to_go == 2 - move % 2);
      const double expected = move == 0 ? 60.0 : move == 1 ? 50.0 : 100.0;  // 60 - 10, then + 60 - 10
      CHECK(sink.limits.time == Approx(expected));
      now += milliseconds(10'000);
      answer(s, sink, now);
      sink.sent.clear();
      MoveList legal;
      generate_legal_moves(s.game()->current(), legal);
      s.on_message(format_message(to_move_message(legal[0], 0, Numbering::A1)), now);
    }
  }
}

TEST_CASE("GAMEREQ refusals: other version, malformed, no legal move", "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);
  s.on_message(cat("R02", pad32("future")) + "W005075A", Millis{0});
  CHECK(sink.next() == cat("A", pad32("damas-test")) + "1");
  s.on_message(cat("R01", pad32("x")) + "Q005075A", Millis{0});
  CHECK(sink.next().rfind("Crefused GAMEREQ", 0) == 0);
  CHECK(sink.next().back() == '2');
  // White to move with no piece that can move: one white man on 5 (a7) blocked? Use no white piece.
  std::string empty_white(32, 'e');
  empty_white[0] = 'Z';
  s.on_message(gamereq('W', 5, 0, "W" + empty_white), Millis{0});
  CHECK(sink.next().rfind("Crefused GAMEREQ: the side to move has no legal move", 0) == 0);
  CHECK(sink.next().back() == '2');
  CHECK(!s.game());
  CHECK(sink.saved.empty());
}

TEST_CASE("illegal, malformed or untimely MOVE: CHAT with the reason, GAMEEND, game saved", "[dxp]") {
  const std::string bad =
      GENERATE(as<std::string>{}, "M0000131700", "M000009", "M0000091300x", "M0000211700");
  RecordingSink sink;
  Session s(follower_config(), sink);
  if (bad == "M0000211700") {
    // A well-formed move while it is our turn.
    s.on_message(gamereq('W', 5, 0), Millis{0});
    REQUIRE(sink.ticket);
  } else {
    s.on_message(gamereq('Z', 5, 0), Millis{0});
  }
  sink.sent.clear();
  s.on_message(bad, Millis{50});
  INFO(bad);
  const std::string chat = sink.next();
  CHECK(chat.rfind("Cerror: ", 0) == 0);
  CHECK(sink.next() == "E00");
  CHECK(sink.sent.empty());
  REQUIRE(sink.saved.size() == 1);
  CHECK(sink.saved[0].result == GameResult::Ongoing);
  CHECK_THAT(sink.saved[0].termination, Catch::Contains("protocol error by peer"));
  // A late answer of the cancelled search is ignored.
  if (sink.ticket) answer(s, sink, Millis{60});
  CHECK(sink.sent.empty());
  // The peer acknowledges; a new game can start.
  s.on_message("E00", Millis{70});
  CHECK(sink.sent.empty());
  s.on_message(gamereq('Z', 5, 0), Millis{80});
  CHECK(sink.next().back() == '0');
  CHECK(!s.closed());
}

TEST_CASE("GAMEEND from the peer is acknowledged with its stop code and the game saved", "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);
  s.on_message(gamereq('W', 5, 0), Millis{0});
  sink.sent.clear();
  REQUIRE(sink.ticket);
  s.on_message("E11", Millis{10});  // peer gives up while we think, no more games
  CHECK(sink.stops == 1);
  CHECK(sink.next() == "E01");
  REQUIRE(sink.saved.size() == 1);
  CHECK(sink.saved[0].result == GameResult::WhiteWins);  // we are White
  CHECK(sink.saved[0].white == "damas-test");
  CHECK(sink.saved[0].black == "Tester");
  answer(s, sink, Millis{20});  // stale
  CHECK(sink.sent.empty());
  // Stop code 1: the follower waits for the initiator to close; GAMEEND outside a game is not answered.
  s.on_message("E01", Millis{30});
  CHECK(sink.sent.empty());
  CHECK(!sink.closed);
  s.on_disconnected(Millis{40});
  CHECK(s.closed());
  CHECK(sink.saved.size() == 1);
}

TEST_CASE("the follower ends the game when it has no legal move", "[dxp]") {
  // White man 22 (c3) takes black man 18 (d4): Black, the follower, has nothing left.
  std::string squares(32, 'e');
  squares[21] = 'w';
  squares[17] = 'z';
  RecordingSink sink;
  Session s(follower_config(Numbering::Standard), sink);
  s.on_message(gamereq('Z', 5, 0, "W" + squares), Millis{0});
  CHECK(sink.next().back() == '0');
  s.on_message("M000022150118", Millis{10});
  CHECK(sink.next() == "E10");  // I lose
  REQUIRE(sink.saved.size() == 1);
  CHECK(sink.saved[0].result == GameResult::WhiteWins);
  CHECK_THAT(sink.saved[0].termination, Catch::Contains("no legal move"));
  CHECK_THAT(to_pdn(sink.saved[0]), Catch::Contains("[FEN \"W:W22:B18\"]"));
  CHECK_THAT(to_pdn(sink.saved[0]), Catch::Contains("1. 22x15 2-0"));
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(to_pdn(sink.saved[0]));
  INFO((strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  CHECK(strict->front().moves == sink.saved[0].game.moves());
  s.on_message("E10", Millis{20});  // acknowledgement (pydraughts style: same reason)
  CHECK(sink.sent.empty());
  CHECK(!s.game());
}

TEST_CASE("BACKREQ rewinds and answers K0, impossible ones get K2", "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);
  s.on_message(gamereq('W', 5, 0), Millis{0});
  answer(s, sink, Millis{1});
  s.on_message("M0000242000", Millis{2});  // 24-20 (a1 numbering, Black)
  answer(s, sink, Millis{3});
  sink.sent.clear();
  REQUIRE(s.game()->moves().size() == 3);
  s.on_message("B005W", Millis{4});  // move 5 does not exist yet
  CHECK(sink.next() == "K2");
  s.on_message("B002W", Millis{5});  // back to White's 2nd move: 2 plies played, our turn
  CHECK(sink.next() == "K0");
  CHECK(s.game()->moves().size() == 2);
  REQUIRE(sink.ticket);
  s.on_message("B001Z", Millis{6});  // back to Black's 1st move: 1 ply, the peer's turn
  CHECK(sink.next() == "K0");
  CHECK(s.game()->moves().size() == 1);
  CHECK(sink.stops == 1);
  answer(s, sink, Millis{7});  // stale search
  CHECK(sink.sent.empty());
  s.on_message("K0", Millis{8});  // BACKACC we never asked for: ignored
  CHECK(sink.sent.empty());
}

TEST_CASE("garbage and refused frames get a CHAT and change nothing", "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);
  s.on_message(gamereq('Z', 5, 0), Millis{0});
  sink.sent.clear();
  s.on_message("Xgarbage", Millis{1});
  CHECK(sink.next().rfind("Cignored: unknown message type", 0) == 0);
  s.on_frame_error("message of 300 characters refused (more than 127)", Millis{2});
  CHECK(sink.next().rfind("Cignored: message of 300", 0) == 0);
  s.on_message("Cjust chatting", Millis{3});
  CHECK(sink.sent.empty());
  s.on_message(cat("A", pad32("x")) + "0", Millis{4});
  CHECK(sink.next() == "Cunexpected GAMEACC ignored");
  s.on_message("M0000091300", Millis{5});
  CHECK(sink.ticket);
  CHECK(sink.saved.empty());
}

TEST_CASE("a silent peer: the game is saved, GAMEEND sent and the connection closed", "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);
  s.on_connected(Millis{0});
  s.on_message(gamereq('W', 0, 0), Millis{100});  // untimed: only the silence limit applies
  CHECK(!s.deadline());                           // we are thinking: nothing to wait for
  answer(s, sink, Millis{200});
  sink.sent.clear();
  REQUIRE(s.deadline());
  CHECK(*s.deadline() == Millis{5200});
  s.on_tick(Millis{5199});
  CHECK(sink.sent.empty());
  s.on_tick(Millis{5200});
  CHECK(sink.next().rfind("Cno message from the peer for 5 s", 0) == 0);
  CHECK(sink.next() == "E01");
  CHECK(sink.closed);
  CHECK(s.closed());
  REQUIRE(sink.saved.size() == 1);
  CHECK_THAT(sink.saved[0].termination, Catch::Contains("peer silent"));
  s.on_disconnected(Millis{5300});
  CHECK(sink.saved.size() == 1);
}

TEST_CASE("on its move in a timed game the peer may use its whole clock before it counts as silent",
          "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);  // peer_timeout 5 s
  s.on_message(gamereq('W', 2, 0), Millis{0});
  answer(s, sink, Millis{1000});
  REQUIRE(s.deadline());
  CHECK(*s.deadline() == Millis{1000 + 120'000 + 10'000});
  s.on_tick(Millis{100'000});
  CHECK(!sink.closed);
  s.on_message("M0000242000", Millis{100'000});
  REQUIRE(!s.deadline());  // our turn: thinking
  answer(s, sink, Millis{100'500});
  CHECK(*s.deadline() == Millis{100'500 + 130'000});
}

TEST_CASE("a connection lost mid-game saves the game", "[dxp]") {
  RecordingSink sink;
  Session s(follower_config(), sink);
  s.on_message(gamereq('W', 5, 0), Millis{0});
  s.on_disconnected(Millis{10});
  CHECK(sink.stops == 1);
  REQUIRE(sink.saved.size() == 1);
  CHECK(sink.saved[0].termination == "connection lost");
  CHECK_THAT(to_pdn(sink.saved[0]), Catch::Contains("[Result \"*\"]"));
}

// ---- initiator against follower, in memory ----

namespace {

struct Match {
  RecordingSink isink, fsink;
  Session initiator, follower;
  std::mt19937 rng{12345};
  Millis now{0};

  Match(SessionConfig ic, SessionConfig fc)
      : initiator(std::move(ic), isink), follower(std::move(fc), fsink) {}

  // Delivers messages and answers searches until both sides are closed (bounded).
  void run() {
    initiator.on_connected(now);
    follower.on_connected(now);
    for (int step = 0; step < 200000 && !(initiator.closed() && follower.closed()); ++step) {
      now += milliseconds(7);
      if (!isink.sent.empty()) {
        const std::string m = isink.sent.front();
        isink.sent.pop_front();
        follower.on_message(m, now);
      } else if (!fsink.sent.empty()) {
        const std::string m = fsink.sent.front();
        fsink.sent.pop_front();
        initiator.on_message(m, now);
      } else if (isink.ticket) {
        answer(initiator, isink, now, rng());
      } else if (fsink.ticket) {
        answer(follower, fsink, now, rng());
      } else if (isink.closed && !follower.closed()) {
        follower.on_disconnected(now);
      } else {
        FAIL("the match is stuck");
      }
    }
  }
};

SessionConfig initiator_config(int games) {
  SessionConfig c;
  c.role = Role::Initiator;
  c.name = "initiator";
  c.games = games;
  c.minutes = 1;
  c.peer_timeout = milliseconds(5000);
  return c;
}

}  // namespace

TEST_CASE("initiator and follower play a whole match to results by the rules", "[dxp]") {
  const Numbering n = GENERATE(Numbering::Standard, Numbering::A1);
  SessionConfig ic = initiator_config(6);
  ic.numbering = n;
  SessionConfig fc = follower_config(n);
  Match match(ic, fc);
  match.run();
  REQUIRE(match.initiator.closed());
  REQUIRE(match.follower.closed());
  CHECK(match.initiator.match_complete());
  const MatchSummary& s = match.initiator.summary();
  CHECK(s.games_requested == 6);
  CHECK(s.games_saved == 6);
  CHECK(s.unfinished == 0);
  CHECK(s.wins + s.draws + s.losses == 6);
  REQUIRE(match.isink.saved.size() == 6);
  REQUIRE(match.fsink.saved.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) {
    const FinishedGame& a = match.isink.saved[i];
    const FinishedGame& b = match.fsink.saved[i];
    INFO("game " << i + 1 << ": " << a.termination << " / " << b.termination);
    CHECK(a.game.over());
    CHECK(a.result == a.game.result());
    CHECK(a.result != GameResult::Ongoing);
    // Both sides recorded the same game and result.
    CHECK(a.game.moves() == b.game.moves());
    CHECK(a.result == b.result);
    // Colours alternate: the initiator is Black in odd-numbered games.
    CHECK(a.white == (i % 2 == 0 ? "initiator" : "damas-test"));
  }
}

TEST_CASE("initiator openings: B form, each opening twice with colours swapped", "[dxp]") {
  SessionConfig ic = initiator_config(4);
  ic.name = "Tester";
  Position o1 = Position::start();
  for (const char* m : {"22-18", "11-15"}) o1 = o1.after(*parse_hub_move(o1, m));
  const Position o2 = *parse_fen("B:W21,22,23,K5:B9,10,11");
  ic.openings = {o1, o2};
  Match match(ic, follower_config(Numbering::Standard));
  match.run();
  CHECK(match.initiator.match_complete());
  REQUIRE(match.fsink.saved.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    const Position& expected = i < 2 ? o1 : o2;
    CHECK(match.fsink.saved[i].game.start() == expected);
  }
  CHECK_THAT(to_pdn(match.fsink.saved[2]), Catch::Contains("[FEN \"B:WK5,21,22,23:B9,10,11\"]"));
}

TEST_CASE("initiator: a refused game is skipped, a refusal to play ends the match", "[dxp]") {
  RecordingSink sink;
  Session s(initiator_config(3), sink);
  s.on_connected(Millis{0});
  const std::string req1 = sink.next();
  CHECK(req1 == cat("R01", pad32("initiator")) + "Z001000A");
  s.on_message(cat("A", pad32("peer")) + "2", Millis{1});
  const std::string req2 = sink.next();
  CHECK(req2 == cat("R01", pad32("initiator")) + "W001000A");
  s.on_message(cat("A", pad32("peer")) + "3", Millis{2});
  CHECK(sink.closed);
  CHECK(!s.match_complete());
}

TEST_CASE("initiator: peer's GAMEEND mid-game is acknowledged and the next game requested", "[dxp]") {
  RecordingSink sink;
  Session s(initiator_config(2), sink);
  s.on_connected(Millis{0});
  sink.sent.clear();
  s.on_message(cat("A", pad32("peer")) + "0", Millis{1});  // we play White
  answer(s, sink, Millis{2});
  sink.sent.clear();
  s.on_message("E10", Millis{3});  // peer resigns
  CHECK(sink.next() == "E00");
  CHECK(sink.next().rfind("R01", 0) == 0);
  REQUIRE(sink.saved.size() == 1);
  CHECK(sink.saved[0].result == GameResult::WhiteWins);
  // Last game: our own GAMEEND carries stop code 1 and the initiator closes after the ack.
  s.on_message(cat("A", pad32("peer")) + "0", Millis{4});
  CHECK(!sink.ticket);                     // we are Black
  s.on_message("M0000211700", Millis{5});  // standard numbering 21-17
  answer(s, sink, Millis{6});
  sink.sent.clear();
  s.on_message("E20", Millis{7});
  CHECK(sink.next() == "E00");
  CHECK(sink.closed);
  CHECK(s.match_complete());  // both games ended with a result (claimed ones count)
  CHECK(sink.saved.size() == 2);
  CHECK(sink.saved[1].result == GameResult::Draw);
}

TEST_CASE("the session's referee plays the draw laws of its configuration", "[dxp]") {
  std::string squares(32, 'e');
  squares[21] = 'w';
  squares[17] = 'z';
  RecordingSink sink;
  SessionConfig config = follower_config(Numbering::Standard);
  config.draw_rules = DrawRules::Fmjd64;
  Session s(config, sink);
  s.on_message(gamereq('Z', 5, 0, "W" + squares), Millis{0});
  CHECK(sink.next().back() == '0');
  s.on_message("M000022150118", Millis{10});
  REQUIRE(sink.saved.size() == 1);
  CHECK(sink.saved[0].game.draw_rules() == DrawRules::Fmjd64);
  CHECK_THAT(to_pdn(sink.saved[0]), Catch::Contains("[DrawRules \"fmjd64\"]"));
}

TEST_CASE("the session plays the variant of its configuration: a Russian-only capture", "[dxp][russian]") {
  // f6 takes e7, is crowned on d8 and goes on over b6 as a king to a5: legal by Russian rules only.
  const std::string crowned_capture = "M00001113020709";
  GameRequest request;
  request.initiator_name = "Tester";
  request.follower_color = Color::Black;
  request.minutes = 5;
  request.start = *parse_fen("W:W11,30:B4,7,9");
  for (const Variant variant : {Variant::Russian, Variant::Brazilian}) {
    INFO(to_string(variant));
    RecordingSink sink;
    SessionConfig config = follower_config(Numbering::Standard);
    config.variant = variant;
    Session s(config, sink);
    s.on_message(format_message(request), Millis{0});
    CHECK(sink.next().back() == '0');
    s.on_message(crowned_capture, Millis{10});
    REQUIRE(s.game());
    CHECK(s.game()->start().variant() == variant);
    if (variant == Variant::Russian) {
      CHECK(sink.sent.empty());
      CHECK(sink.ticket);  // our turn
      CHECK(s.game()->moves().size() == 1);
      CHECK_THAT(to_pdn(FinishedGame{1, *s.game(), "Tester", "damas-test", GameResult::Ongoing, ""}),
                 Catch::Contains("[GameType \"25\"]"));
    } else {
      CHECK(sink.next().rfind("Cerror: ", 0) == 0);
      CHECK(sink.next() == "E00");
    }
  }
}
