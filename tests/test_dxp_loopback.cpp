// DXP over real TCP sockets on 127.0.0.1 (ephemeral ports only). Every wait is bounded, so a
// bug fails a test instead of hanging it. Search budgets are tiny (fixed depth).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/dxp/dxp_transport.h"
#include "damas/engine/engine.h"
#include "dxp_test_helpers.h"
#include "strict_pdn.h"

using namespace damas;
using namespace damas::dxp;
using damas::testing::cat;
using damas::testing::pad32;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

Options small_engine_options() {
  Options o;
  REQUIRE(o.set(option::kHash, "1"));
  return o;
}

// Games saved by a transport, from its thread.
struct SavedGames {
  std::mutex mutex;
  std::vector<FinishedGame> games;
  void add(const FinishedGame& g) {
    std::lock_guard lock(mutex);
    games.push_back(g);
  }
  std::vector<FinishedGame> snapshot() {
    std::lock_guard lock(mutex);
    return games;
  }
  // Waits (bounded) until at least n games are saved.
  bool wait_for(std::size_t n, std::chrono::milliseconds timeout = 10s) {
    const auto end = Clock::now() + timeout;
    while (Clock::now() < end) {
      if (snapshot().size() >= n) return true;
      std::this_thread::sleep_for(5ms);
    }
    return false;
  }
};

// Our follower on an ephemeral loopback port, served from a background thread.
class FollowerUnderTest {
 public:
  explicit FollowerUnderTest(SessionConfig session, std::chrono::milliseconds pace = 2ms)
      : engine_(small_engine_options()), player_(engine_) {
    TransportConfig t;
    t.host = "127.0.0.1";
    t.port = 0;
    t.pace = pace;
    Services services;
    services.player = &player_;
    services.save_game = [this](const FinishedGame& g) { saved.add(g); };
    services.log = [](std::string_view) {};
    listener_ = std::make_unique<Listener>(t, std::move(session), services);
    Expected<std::uint16_t> p = listener_->open();
    REQUIRE(p);
    port = *p;
    thread_ = std::thread([this] { reports_ = listener_->run(); });
  }
  ~FollowerUnderTest() { stop(); }
  std::vector<ConnectionReport> stop() {
    if (thread_.joinable()) {
      listener_->stop();
      thread_.join();
    }
    return reports_;
  }

  std::uint16_t port = 0;
  SavedGames saved;

 private:
  Engine engine_;
  EnginePlayer player_;
  std::unique_ptr<Listener> listener_;
  std::thread thread_;
  std::vector<ConnectionReport> reports_;
};

SessionConfig follower_session(Numbering n) {
  SessionConfig c;
  c.name = "damas-follower";
  c.numbering = n;
  c.depth = 2;
  c.peer_timeout = 10s;
  return c;
}

// A scripted DXP peer over a plain socket. A background thread reads like pydraughts does:
// recv until a chunk holds a NUL, then the whole read is ONE message; a read that holds more
// than one message (pydraughts would merge and lose them) is counted.
class ScriptedPeer {
 public:
  explicit ScriptedPeer(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    reader_ = std::thread([this] { read_loop(); });
  }
  ~ScriptedPeer() { close(); }

  void send_raw(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return;  // the other side is gone; tests notice through receive()
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  void send(std::string_view message) {
    std::string framed(message);
    framed.push_back('\0');
    send_raw(framed);
  }

  // The next message, or nullopt on timeout or end of stream.
  std::optional<std::string> receive(std::chrono::milliseconds timeout = 10s) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, timeout, [this] { return !inbox_.empty() || eof_; });
    if (inbox_.empty()) return std::nullopt;
    std::string m = inbox_.front();
    inbox_.pop_front();
    return m;
  }
  // Skips CHATs; returns the next other message.
  std::optional<std::string> receive_not_chat(std::chrono::milliseconds timeout = 10s) {
    while (true) {
      std::optional<std::string> m = receive(timeout);
      if (!m || m->empty() || (*m)[0] != 'C') return m;
    }
  }
  bool wait_closed(std::chrono::milliseconds timeout = 10s) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, timeout, [this] { return eof_; });
  }
  int merged_reads() const { return merged_.load(); }

  void close() {
    if (fd_ < 0) return;
    stop_ = true;
    ::shutdown(fd_, SHUT_RDWR);
    if (reader_.joinable()) reader_.join();
    ::close(fd_);
    fd_ = -1;
  }

 private:
  void read_loop() {
    std::string unit;
    char buf[4096];
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      unit.append(buf, static_cast<std::size_t>(n));
      if (unit.find('\0') == std::string::npos) continue;  // pydraughts keeps reading
      // This read is one pydraughts message; split it to see what it really held.
      std::vector<std::string> parts;
      std::size_t start = 0;
      for (std::size_t i = 0; i < unit.size(); ++i)
        if (unit[i] == '\0') {
          parts.push_back(unit.substr(start, i - start));
          start = i + 1;
        }
      if (parts.size() > 1 || start != unit.size()) ++merged_;
      unit.erase(0, start);
      std::lock_guard lock(mutex_);
      for (std::string& m : parts) inbox_.push_back(std::move(m));
      cv_.notify_all();
    }
    std::lock_guard lock(mutex_);
    eof_ = true;
    cv_.notify_all();
  }

  int fd_ = -1;
  std::thread reader_;
  std::atomic<bool> stop_{false};
  std::atomic<int> merged_{0};
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::string> inbox_;
  bool eof_ = false;
};

// pydraughts' key for matching a received move: from, to, captured squares sorted, 2 digits.
std::string move_key(int from, int to, std::vector<int> captured) {
  std::sort(captured.begin(), captured.end());
  char b[8];
  std::string k;
  for (int v : {from, to}) {
    std::snprintf(b, sizeof b, "%02d", v);
    k += b;
  }
  for (int v : captured) {
    std::snprintf(b, sizeof b, "%02d", v);
    k += b;
  }
  return k;
}

std::string key_of(const Move& m, Numbering n) {
  std::vector<int> caps;
  for (Bitboard c = m.captured; c;) caps.push_back(to_numbering(square_number(pop_lowest(c)), n));
  return move_key(to_numbering(square_number(m.from), n), to_numbering(square_number(m.to), n), caps);
}

// A MOVE as pydraughts writes it: time 0000, captured squares NOT sorted (here descending).
std::string pydraughts_move(const Move& m) {
  std::vector<int> caps;
  for (Bitboard c = m.captured; c;) caps.push_back(to_numbering(square_number(pop_lowest(c)), Numbering::A1));
  std::sort(caps.rbegin(), caps.rend());
  char b[16];
  std::snprintf(b, sizeof b, "M0000%02d%02d%02d", to_numbering(square_number(m.from), Numbering::A1),
                to_numbering(square_number(m.to), Numbering::A1), static_cast<int>(caps.size()));
  std::string s = b;
  for (int c : caps) {
    std::snprintf(b, sizeof b, "%02d", c);
    s += b;
  }
  return s;
}

Move random_move(const Position& p, std::mt19937& rng) {
  MoveList legal;
  generate_legal_moves(p, legal);
  REQUIRE(!legal.empty());
  return legal[rng() % legal.size()];
}

// Decodes an engine MOVE the way pydraughts does; fails the test if it matches no legal move.
Move decode_like_pydraughts(const Position& p, const std::string& text) {
  REQUIRE(text.size() >= 11);
  REQUIRE(text[0] == 'M');
  const int from = std::stoi(text.substr(5, 2));
  const int to = std::stoi(text.substr(7, 2));
  const int n = std::stoi(text.substr(9, 2));
  std::vector<int> caps;
  for (int i = 0; i < n; ++i) caps.push_back(std::stoi(text.substr(11 + 2 * static_cast<std::size_t>(i), 2)));
  const std::string key = move_key(from, to, caps);
  MoveList legal;
  generate_legal_moves(p, legal);
  for (const Move& m : legal)
    if (key_of(m, Numbering::A1) == key) return m;
  FAIL("received move is illegal: " << text);
  return kNullMove;
}

}  // namespace

TEST_CASE("loopback: our initiator against our follower plays complete games", "[dxp][loopback]") {
  const Numbering n = GENERATE(Numbering::Standard, Numbering::A1);
  FollowerUnderTest follower(follower_session(n));

  Engine engine(small_engine_options());
  EnginePlayer player(engine);
  SavedGames saved;
  SessionConfig initiator;
  initiator.role = Role::Initiator;
  initiator.name = "damas-initiator";
  initiator.numbering = n;
  initiator.games = 2;
  initiator.depth = 2;
  initiator.peer_timeout = 10s;
  Position opening = Position::start();
  for (const char* m : {"22-18", "12-16"}) opening = opening.after(*parse_hub_move(opening, m));
  initiator.openings = {opening};
  TransportConfig t;
  t.port = follower.port;
  t.pace = 2ms;
  Services services;
  services.player = &player;
  services.save_game = [&saved](const FinishedGame& g) { saved.add(g); };
  const Expected<ConnectionReport> report = connect_and_run(t, initiator, services);
  REQUIRE(report);
  CHECK(report->match_complete);
  CHECK(report->summary.games_saved == 2);
  CHECK(report->end == "closed by us");

  REQUIRE(follower.saved.wait_for(2));
  const std::vector<FinishedGame> ours = saved.snapshot();
  const std::vector<FinishedGame> theirs = follower.saved.snapshot();
  REQUIRE(ours.size() == 2);
  REQUIRE(theirs.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    INFO("game " << i + 1 << ": " << ours[i].termination);
    CHECK(ours[i].game.start() == opening);
    CHECK(ours[i].game.over());
    CHECK(ours[i].result == ours[i].game.result());
    CHECK(theirs[i].game.moves() == ours[i].game.moves());
    CHECK(theirs[i].result == ours[i].result);
    CHECK_THAT(to_pdn(ours[i]), Catch::Contains("[FEN \"" + to_fen(opening) + "\"]"));
    // The game file is standard PDN: a strict PDN 3.0 reader replays the game.
    const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(to_pdn(ours[i]));
    INFO(to_pdn(ours[i]) << (strict ? "" : strict.error()));
    REQUIRE(strict.has_value());
    REQUIRE(strict->size() == 1);
    CHECK(strict->front().start == opening);
    CHECK(strict->front().moves == ours[i].game.moves());
    CHECK(strict->front().result == to_string(ours[i].result));
  }
  CHECK(ours[0].white == "damas-initiator");
  CHECK(ours[1].black == "damas-initiator");
  // The follower is back to listening after the initiator closed: a new peer is served.
  {
    ScriptedPeer next(follower.port);
    next.send(cat("R01", pad32("next")) + "Z000000A");
    CHECK(next.receive_not_chat() == cat("A", pad32("damas-follower")) + "0");
  }
  const std::vector<ConnectionReport> reports = follower.stop();
  REQUIRE(reports.size() == 2);
  CHECK(reports[0].end == "peer closed the connection");
}

TEST_CASE("loopback: a pydraughts-like initiator plays complete games in the a1 numbering",
          "[dxp][loopback]") {
  // pydraughts (DXP.md section 7): B-form GAMEREQ, 000 minutes, MOVE time 0000, unsorted
  // captures, one recv = one message, a new connection per game, E01 at the end, never sends
  // the move that ends the game, closes the connection itself.
  FollowerUnderTest follower(follower_session(Numbering::A1), 30ms);
  std::mt19937 rng(2024);
  const std::string start = "Wzzzzzzzzzzzzeeeeeeeewwwwwwwwwwww";
  std::vector<Game> peer_games;
  std::vector<bool> engine_ended;  // the engine's move ended the game (so it was sent)
  for (const char engine_colour : {'W', 'Z'}) {
    ScriptedPeer peer(follower.port);
    Game g;
    peer.send(cat("R01", pad32("DXP Client")) + engine_colour + "000000B" + start);
    const std::optional<std::string> acc = peer.receive();
    REQUIRE(acc);
    CHECK(*acc == cat("A", pad32("damas-follower")) + "0");
    const Color engine = engine_colour == 'W' ? Color::White : Color::Black;
    bool ended_by_engine = false;
    for (int ply = 0; ply < 400; ++ply) {
      if (g.current().side_to_move() == engine) {
        const std::optional<std::string> m = peer.receive();
        REQUIRE(m);
        REQUIRE(!m->empty());
        REQUIRE((*m)[0] == 'M');  // a GAMEEND here would leave pydraughts hanging
        REQUIRE(g.play(decode_like_pydraughts(g.current(), *m)));
        if (g.over()) {
          ended_by_engine = true;
          break;
        }
      } else {
        const Move m = random_move(g.current(), rng);
        REQUIRE(g.play(m));
        if (g.over()) break;  // pydraughts does not send the move that ends the game
        peer.send(pydraughts_move(m));
      }
    }
    REQUIRE(g.over());
    peer.send("E01");  // quit()
    const std::optional<std::string> ack = peer.receive();
    REQUIRE(ack);
    CHECK(*ack == "E01");
    CHECK(peer.merged_reads() == 0);
    peer.close();  // pydraughts closes first
    peer_games.push_back(g);
    engine_ended.push_back(ended_by_engine);
    REQUIRE(follower.saved.wait_for(peer_games.size()));
  }
  const std::vector<FinishedGame> saved = follower.saved.snapshot();
  REQUIRE(saved.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    INFO("game " << i + 1 << ": " << saved[i].termination);
    if (engine_ended[i]) {
      CHECK(saved[i].game.moves() == peer_games[i].moves());
      CHECK(saved[i].result == peer_games[i].result());
    } else {
      // The final move never reached the engine: the game is saved without it, unfinished.
      std::vector<Move> sent = peer_games[i].moves();
      sent.pop_back();
      CHECK(saved[i].game.moves() == sent);
      CHECK(saved[i].result == GameResult::Ongoing);
    }
  }
  CHECK(saved[0].white == "damas-follower");
  CHECK(saved[1].black == "damas-follower");
  CHECK(follower.stop().size() == 2);
}

TEST_CASE("loopback: garbage, partial messages, illegal moves, disconnects and silence", "[dxp][loopback]") {
  SessionConfig session = follower_session(Numbering::Standard);
  session.peer_timeout = 700ms;
  FollowerUnderTest follower(session);
  std::mt19937 rng(99);
  const std::string gamereq_black = cat("R01", pad32("hostile")) + "Z000000A";  // engine plays Black, untimed

  {
    ScriptedPeer peer(follower.port);
    // Random bytes (with NULs and bytes above 127), an over-long message, an empty one.
    std::string junk;
    for (int i = 0; i < 3000; ++i) junk.push_back(static_cast<char>(rng() % 256));
    peer.send_raw(junk);
    peer.send_raw(std::string(1, '\0'));
    peer.send(std::string(500, 'M'));
    peer.send("");
    peer.send("Zzz");
    // The GAMEREQ dribbled one byte at a time.
    for (const char c : gamereq_black + '\0') {
      peer.send_raw(std::string(1, c));
      std::this_thread::sleep_for(1ms);
    }
    const std::optional<std::string> acc = peer.receive_not_chat();
    REQUIRE(acc);
    CHECK(*acc == cat("A", pad32("damas-follower")) + "0");
    // A legal move, split in two writes; the engine answers.
    peer.send_raw("M00002");
    std::this_thread::sleep_for(20ms);
    peer.send_raw(std::string("11700") + '\0');  // 21-17
    std::optional<std::string> reply = peer.receive_not_chat();
    REQUIRE(reply);
    CHECK((*reply)[0] == 'M');
    // An illegal move: CHAT with the reason, then GAMEEND.
    peer.send("M0000323100");
    std::optional<std::string> chat = peer.receive();
    REQUIRE(chat);
    CHECK(chat->rfind("Cerror: illegal move 32-31", 0) == 0);
    std::optional<std::string> end = peer.receive();
    REQUIRE(end);
    CHECK(*end == "E00");
    peer.send("E00");
    // Still serving: a new game, then the peer vanishes mid-game.
    peer.send(gamereq_black);
    REQUIRE(peer.receive_not_chat() == cat("A", pad32("damas-follower")) + "0");
    peer.send("M0000211700");
    REQUIRE(peer.receive_not_chat());
    peer.send_raw("M00");  // half a message, then gone
  }
  REQUIRE(follower.saved.wait_for(2));
  {
    // The follower went back to listening. This peer goes silent mid-game.
    ScriptedPeer peer(follower.port);
    peer.send(gamereq_black);
    REQUIRE(peer.receive_not_chat() == cat("A", pad32("damas-follower")) + "0");
    peer.send("M0000221800");
    REQUIRE(peer.receive_not_chat());
    const std::optional<std::string> chat = peer.receive(5s);
    REQUIRE(chat);
    CHECK(chat->rfind("Cno message from the peer", 0) == 0);
    CHECK(peer.receive(5s) == std::optional<std::string>("E01"));
    CHECK(peer.wait_closed(5s));
  }
  REQUIRE(follower.saved.wait_for(3));
  const std::vector<FinishedGame> saved = follower.saved.snapshot();
  REQUIRE(saved.size() == 3);
  CHECK_THAT(saved[0].termination, Catch::Contains("illegal move 32-31"));
  CHECK(saved[0].game.moves().size() == 2);
  CHECK(saved[1].termination == "connection lost");
  CHECK(saved[1].game.moves().size() == 2);
  CHECK_THAT(saved[2].termination, Catch::Contains("peer silent"));
  for (const FinishedGame& g : saved) CHECK(g.result == GameResult::Ongoing);
  CHECK(follower.stop().size() == 2);
}

TEST_CASE("loopback: a finished game is never lost when the peer misbehaves afterwards", "[dxp][loopback]") {
  FollowerUnderTest follower(follower_session(Numbering::Standard));
  std::mt19937 rng(7);
  {
    ScriptedPeer peer(follower.port);
    // A well-behaved initiator playing White with random moves, ending games by the rules.
    peer.send(cat("R01", pad32("careful")) + "Z000000A");
    REQUIRE(peer.receive_not_chat());
    Game g;
    for (int ply = 0; ply < 400 && !g.over(); ++ply) {
      if (g.current().side_to_move() == Color::White) {
        const Move m = random_move(g.current(), rng);
        REQUIRE(g.play(m));
        peer.send(format_message(to_move_message(m, 0, Numbering::Standard)));
      } else {
        const std::optional<std::string> m = peer.receive_not_chat();
        REQUIRE(m);
        Expected<Message> parsed = parse_message(*m);
        REQUIRE(parsed);
        REQUIRE(std::holds_alternative<MoveMessage>(*parsed));
        Expected<Move> move = to_move(g.current(), std::get<MoveMessage>(*parsed), Numbering::Standard);
        REQUIRE(move);
        REQUIRE(g.play(*move));
      }
    }
    REQUIRE(g.over());
    if (g.current().side_to_move() == Color::White) {
      peer.send("E00");  // our turn and the game is over: we end it
      CHECK(peer.receive_not_chat() == std::optional<std::string>("E00"));
    } else {
      // The engine's turn: it ends the game itself with the result, we acknowledge.
      const std::optional<std::string> end = peer.receive_not_chat();
      REQUIRE(end);
      CHECK(*end == (g.result() == GameResult::Draw ? "E20" : "E10"));
      peer.send("E00");
    }
    REQUIRE(g.over());
    REQUIRE(follower.saved.wait_for(1));
    // Next game: two moves, then garbage and an abrupt disconnect.
    peer.send(cat("R01", pad32("careful")) + "Z000000A");
    REQUIRE(peer.receive_not_chat());
    peer.send("M0000211700");
    REQUIRE(peer.receive_not_chat());
    peer.send_raw(std::string("\xff\xfe garbage \x01\x02", 14));
  }
  REQUIRE(follower.saved.wait_for(2));
  const std::vector<FinishedGame> saved = follower.saved.snapshot();
  REQUIRE(saved.size() == 2);
  CHECK(saved[0].game.over());
  CHECK(saved[0].result == saved[0].game.result());
  CHECK(saved[0].result != GameResult::Ongoing);
  CHECK(saved[1].result == GameResult::Ongoing);
  CHECK(saved[1].termination == "connection lost");
}

TEST_CASE("loopback: `damas dxp` follower and initiator processes play a match of either variant",
          "[dxp][loopback]") {
  // DXP does not carry the game: both sides are told it on their command lines.
  const std::string variant = GENERATE(as<std::string>{}, "brazilian", "russian");
  const std::string dir = "dxp-cli-test-" + std::to_string(::getpid());
  REQUIRE(std::system(("rm -rf " + dir + " && mkdir " + dir).c_str()) == 0);
  const std::string bin = DAMAS_BINARY;
  // The follower picks a free port and reports it on stderr.
  const std::string follower_cmd = "timeout 60 " + bin +
                                   " dxp --port 0 --max-connections 1 --depth 2 --hash 1 " +
                                   "--numbering a1 --pace 2 --variant " + variant + " --pdn " + dir +
                                   "/follower.pdn 2>" + dir + "/follower.log &";
  REQUIRE(std::system(follower_cmd.c_str()) == 0);
  std::string port;
  for (int i = 0; i < 500 && port.empty(); ++i) {
    std::this_thread::sleep_for(10ms);
    std::ifstream log(dir + "/follower.log");
    std::string line;
    while (std::getline(log, line)) {
      const std::size_t at = line.find("listening on 127.0.0.1:");
      if (at != std::string::npos) port = line.substr(at + 23, line.find(' ', at + 23) - at - 23);
    }
  }
  REQUIRE(!port.empty());
  const std::string initiator_cmd =
      "timeout 60 " + bin + " dxp --connect --port " + port +
      " --initiator --games 2 --depth 2 --hash 1 --numbering a1 --pace 2 --variant " + variant + " --pdn " +
      dir + "/initiator.pdn >" + dir + "/initiator.out 2>" + dir + "/initiator.log";
  const int rc = std::system(initiator_cmd.c_str());
  CHECK(rc == 0);
  std::ifstream out(dir + "/initiator.out");
  std::stringstream summary;
  summary << out.rdbuf();
  CHECK_THAT(summary.str(), Catch::Contains("match: 2 games saved") && Catch::Contains("complete"));
  // Both sides wrote both games; the follower exits after its one connection.
  for (int i = 0; i < 500; ++i) {
    std::ifstream f(dir + "/follower.log");
    std::stringstream s;
    s << f.rdbuf();
    if (s.str().find("connection ended") != std::string::npos) break;
    std::this_thread::sleep_for(10ms);
  }
  for (const char* file : {"/initiator.pdn", "/follower.pdn"}) {
    std::ifstream pdn(dir + file);
    std::stringstream s;
    s << pdn.rdbuf();
    const std::string text = s.str();
    INFO(file << "\n" << text);
    std::size_t games = 0;
    for (std::size_t at = text.find("[Event"); at != std::string::npos; at = text.find("[Event", at + 1))
      ++games;
    CHECK(games == 2);
    CHECK(text.find("[Result \"*\"]") == std::string::npos);
    if (variant == "russian") {  // the strict reader knows Brazilian only; ours replays GameType 25
      for (const PdnGameOrError& g : read_pdn(text)) {
        REQUIRE(g.has_value());
        CHECK(g->start.variant() == Variant::Russian);
      }
      continue;
    }
    const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(text);
    INFO((strict ? "" : strict.error()));
    REQUIRE(strict.has_value());
    CHECK(strict->size() == 2);
  }
  std::system(("rm -rf " + dir).c_str());
}
