// The real `damas` binary driven through pipes, as GUIs drive it: the transcripts of
// protocol/transcripts/, a game against itself checked by the rules core, stop and ping during
// long searches, hostile input, and a client that behaves like pydraughts' HubEngine playing
// complete games in the a1 numbering. Every read has a timeout: a hung engine fails the test.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <set>

#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/hub/hub.h"
#include "hub_test_support.h"

using namespace damas;
using hubtest::EngineProcess;
using hubtest::milliseconds;

namespace {

std::vector<std::string> transcript_files() {
  std::vector<std::string> files;
  const std::filesystem::path dir = std::filesystem::path(DAMAS_SOURCE_DIR) / "protocol" / "transcripts";
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".txt" && e.path().filename().string().rfind("hub-", 0) == 0)
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Reads lines until one starts with `prefix`; every line before it must be an `info` line that
// both our scanner and pydraughts accept (`id` and `param` lines too, before `wait`). Returns the matching
// line ("" on timeout).
std::string read_until(EngineProcess& e, std::string_view prefix, int* infos = nullptr) {
  while (const std::optional<std::string> line = e.read_line()) {
    if (line->rfind(prefix, 0) == 0) return *line;
    if (prefix == "wait" && (line->rfind("id ", 0) == 0 || line->rfind("param ", 0) == 0)) continue;
    INFO(*line);
    REQUIRE(line->rfind("info ", 0) == 0);
    REQUIRE(hub::parse_line(*line).has_value());
    REQUIRE(hubtest::pyd_check_info(hubtest::pyd_recv_hub(*line).second) == "");
    if (infos) ++*infos;
  }
  return "";
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// ---- A client that behaves like pydraughts 0.6.7's HubEngine (draughts/engines/hub.py) ----

struct Limit {  // draughts.engine.Limit
  std::optional<double> time, inc, movetime;
  std::optional<int> depth;
  std::optional<long> nodes;
};

std::string py_number(double v) {  // a Python float repr is all the engine needs to read
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

class PydraughtsClient {
 public:
  explicit PydraughtsClient(std::string name)
      : name_(std::move(name)), process_({hubtest::damas_binary(), "hub"}, true) {
    REQUIRE(process_.started());
    hub();
  }

  // HubEngine.hub(): lines until wait; id and param parsed the pydraughts way.
  void hub() {
    send("hub");
    while (true) {
      const auto [command, arg] = recv_hub();
      if (command == "wait") return;
      if (command == "id" || command == "param") {
        bool is_variant = false;
        for (const std::string& item : hubtest::pyd_split(arg)) {
          const std::vector<std::string> kv = hubtest::py_str_split(item, '=');
          INFO(name_ << ": " << command << " " << arg);
          REQUIRE(kv.size() == 2);  // else: ValueError in `for key, value in args`
          if (command == "id") id_[kv[0]] = kv[1];
          if (command == "param" && kv[0] == "name") {
            options_.insert(kv[1]);
            is_variant = kv[1] == "variant";
          }
          if (command == "param" && kv[0] == "values" && is_variant) {
            std::string v = kv[1];
            if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
            std::istringstream in(v);
            for (std::string w; in >> w;) variants_.insert(w);
          }
        }
      } else {
        ++warnings_;
      }
    }
  }
  void setoption(const std::string& name, const std::string& value) {
    if (name != "variant" || !variants_.empty()) send("set-param name=" + name + " value=" + value);
  }
  void init() {
    send("init");
    while (true) {
      const auto [command, arg] = recv_hub();
      if (command == "ready") return;
      if (command != "init") ++warnings_;
    }
  }
  void ping() {
    send("ping");
    while (recv_hub().first != "pong") ++warnings_;
  }

  // HubEngine.go() up to the reading of the answer.
  void start_go(const std::string& fen, const std::string& moves, const Limit& limit, bool ponder) {
    send(moves.empty() ? "pos pos=" + fen : "pos pos=" + fen + " moves=\"" + moves + "\"");
    if (limit.time && limit.inc && *limit.inc != 0)
      send("level time=" + py_number(*limit.time - *limit.inc) + " inc=" + py_number(*limit.inc));
    else if (limit.time) send("level time=" + py_number(*limit.time));
    else if (limit.movetime) send("level move-time=" + py_number(*limit.movetime));
    else if (limit.depth) send("level depth=" + std::to_string(*limit.depth));
    else if (limit.nodes) send("level nodes=" + std::to_string(*limit.nodes));
    send(ponder ? "go ponder" : "go think");
  }
  // HubEngine.go(): info lines parsed (every conversion must succeed) until done.
  std::pair<std::string, std::optional<std::string>> finish_go(EngineProcess* other = nullptr) {
    info_.clear();
    while (true) {
      const auto [command, arg] = recv_hub(other);
      if (command == "done") {
        std::string best;
        std::optional<std::string> ponder;
        INFO(name_ << ": done " << arg);
        REQUIRE(hubtest::pyd_parse_done(arg, best, ponder) == "");
        return {best, ponder};
      }
      if (command == "info") {
        INFO(name_ << ": info " << arg);
        REQUIRE(hubtest::pyd_check_info(arg) == "");
        for (const std::string& item : hubtest::pyd_split(arg)) {
          const auto kv = hubtest::py_str_split(item, '=');
          info_[kv[0]] = kv[1];
        }
      } else {
        ++warnings_;
      }
    }
  }
  void stop() { send("stop"); }
  void ponderhit() {
    REQUIRE(last_sent_ == "go ponder");  // pydraughts would spin forever otherwise
    send("ponder-hit");
  }
  void quit() { send("quit"); }

  EngineProcess& process() { return process_; }
  int warnings() const { return warnings_; }
  const std::set<std::string>& options() const { return options_; }
  const std::set<std::string>& variants() const { return variants_; }
  const std::map<std::string, std::string>& id() const { return id_; }
  const std::map<std::string, std::string>& info() const { return info_; }

 private:
  void send(const std::string& line) {
    REQUIRE(process_.send(line));
    last_sent_ = line;
  }
  // HubEngine.recv(): blank lines skipped, rstrip, split at the first whitespace. While
  // waiting, `other` (the opponent's process) is kept drained.
  std::pair<std::string, std::string> recv_hub(EngineProcess* other = nullptr) {
    const auto deadline = hubtest::Clock::now() + hubtest::kTimeout;
    while (hubtest::Clock::now() < deadline) {
      if (other) other->pump();
      const std::optional<std::string> line = process_.read_line(milliseconds(20));
      if (!line) continue;
      const auto split = hubtest::pyd_recv_hub(*line);
      if (split.first.empty()) continue;
      return split;
    }
    FAIL(name_ << ": no answer (pydraughts would block forever)");
    return {};
  }

  std::string name_;
  EngineProcess process_;
  std::string last_sent_;
  std::map<std::string, std::string> id_;
  std::set<std::string> options_, variants_;
  std::map<std::string, std::string> info_;
  int warnings_ = 0;
};

// One game between two pydraughts-driven engines, RoundRobin style: the initial position and
// every move so far are sent each time, in the a1 numbering; moves are turned into board moves
// the way draughts.Move(board, hub_move=...) does. `ponder_first`: the first player ponders
// lidraughts-bot style (go ponder on the predicted reply, then ponder-hit or stop).
struct GameReport {
  // pydraughts' board.is_over() applies the Russian-style draw laws to Brazilian games (HUB.md),
  // as lidraughts does: fmjd64. Under the seed's laws alone, a king and a man against a king can
  // go on past RoundRobin's 300 plies.
  Game game{Position::start(), DrawRules::Fmjd64};
  int plies = 0;
  int ponder_hits = 0;
  int ponder_misses = 0;
};

GameReport play_pydraughts_game(PydraughtsClient& white, PydraughtsClient& black, const Limit& limit,
                                bool ponder_first, int max_plies, Variant variant = Variant::Brazilian) {
  const std::string fen = to_hub_position(Position::start());  // board._game.initial_hub_fen
  GameReport r;
  r.game = Game(Position::start(variant), DrawRules::Fmjd64);  // refereed by the variant's rules
  std::vector<std::string> hub_moves;                          // board.move_stack's hub_move strings
  PydraughtsClient* players[2] = {&white, &black};
  std::optional<std::string> pending_ponder;  // first player's ponder search is running on this reply
  std::map<PydraughtsClient*, double> clock = {{&white, limit.time.value_or(0)},
                                               {&black, limit.time.value_or(0)}};
  while (!r.game.over() && r.plies < max_plies) {
    const int side = r.game.current().side_to_move() == Color::White ? 0 : 1;
    PydraughtsClient& me = *players[side];
    PydraughtsClient& them = *players[1 - side];
    Limit my_limit = limit;
    if (limit.time) my_limit.time = std::max(clock[&me], 0.05);
    const auto t0 = hubtest::Clock::now();
    std::pair<std::string, std::optional<std::string>> answer;
    if (&me == &white && ponder_first && pending_ponder) {
      if (hub_moves.back() == *pending_ponder) {
        me.ponderhit();
        answer = me.finish_go(&them.process());
        ++r.ponder_hits;
      } else {
        me.stop();
        me.finish_go(&them.process());  // thrown away, as lidraughts-bot does
        ++r.ponder_misses;
        me.start_go(fen, join(hub_moves), my_limit, false);
        answer = me.finish_go(&them.process());
      }
      pending_ponder.reset();
    } else {
      me.start_go(fen, join(hub_moves), my_limit, false);
      answer = me.finish_go(&them.process());
    }
    const double elapsed = std::chrono::duration<double>(hubtest::Clock::now() - t0).count();
    clock[&me] += limit.inc.value_or(0) - elapsed;

    const auto& [best, ponder] = answer;
    INFO("ply " << r.plies << " position " << to_fen(r.game.current()) << " move " << best);
    const std::optional<Move> m = hubtest::pyd_move(r.game.current(), best);
    REQUIRE(m);  // else KeyError in draughts.Move
    const Position after = r.game.current().after(*m);
    if (ponder) REQUIRE(hubtest::pyd_move(after, *ponder));  // else KeyError for the ponder move
    REQUIRE(r.game.play(*m));
    hub_moves.push_back(best);  // the engine's own string, echoed back unchanged
    ++r.plies;
    if (&me == &white && ponder_first && ponder && !r.game.over() && has_legal_move(after)) {
      const Position predicted = after.after(*hubtest::pyd_move(after, *ponder));
      if (has_legal_move(predicted)) {
        std::vector<std::string> with_reply = hub_moves;
        with_reply.push_back(*ponder);
        Limit ponder_limit = limit;
        if (limit.time) ponder_limit.time = std::max(clock[&me], 0.05);
        me.start_go(fen, join(with_reply), ponder_limit, true);
        pending_ponder = *ponder;
      }
    }
  }
  if (pending_ponder) {  // the game ended on the opponent's move: end the ponder search
    white.stop();
    white.finish_go();
  }
  return r;
}

}  // namespace

TEST_CASE("hub pipe: the transcripts replay through the real binary", "[hub][pipe]") {
  for (const std::string& file : transcript_files()) {
    INFO(file);
    std::string problem;
    const std::vector<hubtest::Step> steps = hubtest::parse_transcript(hubtest::read_file(file), problem);
    REQUIRE(problem.empty());
    EngineProcess e({hubtest::damas_binary(), "hub"});
    REQUIRE(e.started());
    hubtest::ProcessTransport t(e);
    CHECK(hubtest::replay(steps, t) == "");
    e.close_input();
    CHECK(e.wait_exit(hubtest::kTimeout) == 0);
    CHECK(e.stderr_text() == "");
  }
}

TEST_CASE("hub pipe: no subcommand means Hub, options on the command line", "[hub][pipe]") {
  {
    EngineProcess e({hubtest::damas_binary()});
    REQUIRE(e.send("hub"));
    CHECK(e.read_line().value_or("").rfind("id name=damas ", 0) == 0);
    CHECK(read_until(e, "wait") == "wait");
    REQUIRE(e.send("quit"));
    CHECK(e.wait_exit(hubtest::kTimeout) == 0);
    CHECK(e.stderr_text() == "");
  }
  {
    EngineProcess e({hubtest::damas_binary(), "--numbering", "a1", "--hash", "8"});
    REQUIRE(e.send("hub"));
    bool numbering_a1 = false, hash_8 = false;
    while (const auto line = e.read_line()) {
      if (*line == "wait") break;
      numbering_a1 |= line->rfind("param name=numbering value=a1 ", 0) == 0;
      hash_8 |= line->rfind("param name=hash value=8 ", 0) == 0;
    }
    CHECK(numbering_a1);
    CHECK(hash_8);
  }
  {
    EngineProcess e({hubtest::damas_binary(), "hub", "--threads", "0"});
    CHECK(e.wait_exit(hubtest::kTimeout) == 2);
    CHECK(e.stderr_text().find("threads") != std::string::npos);
  }
  {
    EngineProcess e({hubtest::damas_binary(), "--help"});
    CHECK(e.read_line().value_or("").find("damas") != std::string::npos);
    CHECK(e.wait_exit(hubtest::kTimeout) == 0);
  }
}

TEST_CASE("hub pipe: a whole game against itself, every move checked by the rules core", "[hub][pipe]") {
  EngineProcess e({hubtest::damas_binary(), "hub"});
  REQUIRE(e.send("hub"));
  REQUIRE(read_until(e, "wait") == "wait");
  REQUIRE(e.send("set-param name=hash value=8"));
  REQUIRE(e.send("init"));
  REQUIRE(e.read_line() == std::optional<std::string>("ready"));
  Game game;
  std::vector<std::string> moves;
  int infos = 0, ponders = 0;
  while (!game.over() && game.moves().size() < 400) {
    REQUIRE(e.send(moves.empty() ? "pos start" : "pos start moves=\"" + join(moves) + "\""));
    REQUIRE(e.send("level depth=" + std::to_string(3 + static_cast<int>(game.moves().size() % 3))));
    REQUIRE(e.send("go think"));
    const std::string done = read_until(e, "done", &infos);
    INFO("ply " << game.moves().size() << " " << to_fen(game.current()) << ": " << done);
    const Expected<hub::Line> line = hub::parse_line(done);
    REQUIRE(line);
    REQUIRE(line->args.size() >= 1);
    REQUIRE(line->args.size() <= 2);
    REQUIRE(line->args[0].name == "move");
    const Expected<Move> m = parse_hub_move(game.current(), line->args[0].value);
    REQUIRE(m);
    CHECK(to_hub_move(*m) == line->args[0].value);  // written canonically: captures ascending
    if (line->args.size() == 2) {
      REQUIRE(line->args[1].name == "ponder");
      CHECK(parse_hub_move(game.current().after(*m), line->args[1].value));
      ++ponders;
    }
    REQUIRE(game.play(*m));
    moves.push_back(line->args[0].value);
  }
  CHECK(game.over());
  CHECK(infos > 0);
  CHECK(ponders > 0);
  // The engine agrees that there is nothing left to search when there is no legal move.
  if (game.end_reason() == GameEndReason::NoLegalMove) {
    REQUIRE(e.send("pos start moves=\"" + join(moves) + "\""));
    REQUIRE(e.send("go think"));
    CHECK(e.read_line().value_or("").rfind("error message=", 0) == 0);
  }
  REQUIRE(e.send("quit"));
  CHECK(e.wait_exit(hubtest::kTimeout) == 0);
  CHECK(e.stderr_text() == "");
  std::cout << "hub self-play: " << game.moves().size() << " plies, " << to_string(game.result()) << " by "
            << to_string(game.end_reason()) << "\n";
}

TEST_CASE("hub pipe: stop and ping during long searches", "[hub][pipe]") {
  EngineProcess e({hubtest::damas_binary(), "hub"});
  REQUIRE(e.send("set-param name=hash value=8"));
  for (const char* go : {"level infinite\ngo analyze", "go think", "level depth=1000\ngo ponder"}) {
    REQUIRE(e.send("pos start moves=\"22-18 11-15 18x11x15 8x15x11\""));
    REQUIRE(e.send(go));
    for (int i = 0; i < 5; ++i) {
      std::this_thread::sleep_for(milliseconds(20));
      REQUIRE(e.send("ping"));
      CHECK(read_until(e, "pong") == "pong");  // any info before it, never a done
    }
    REQUIRE(e.send("stop"));
    const std::string done = read_until(e, "done");
    REQUIRE(done.rfind("done move=", 0) == 0);
    Position p = Position::start();
    for (const char* m : {"22-18", "11-15", "18x11x15", "8x15x11"}) p = p.after(*parse_hub_move(p, m));
    CHECK(parse_hub_move(p, hub::parse_line(done)->args[0].value));
    REQUIRE(e.send("ping"));
    CHECK(e.read_line() == std::optional<std::string>("pong"));  // exactly one done
  }
  // A ponder search ended by ponder-hit with a short clock finishes by itself.
  REQUIRE(e.send("pos start"));
  REQUIRE(e.send("level move-time=0.05"));
  REQUIRE(e.send("go ponder"));
  REQUIRE(e.send("ping"));
  CHECK(read_until(e, "pong") == "pong");
  REQUIRE(e.send("ponder-hit"));
  CHECK(read_until(e, "done").rfind("done move=", 0) == 0);
  // End of input during a search: the engine exits cleanly.
  REQUIRE(e.send("pos start"));
  REQUIRE(e.send("go analyze"));
  REQUIRE(e.send("ping"));
  CHECK(read_until(e, "pong") == "pong");
  e.close_input();
  CHECK(e.wait_exit(hubtest::kTimeout) == 0);
  CHECK(e.stderr_text() == "");
}

TEST_CASE("hub pipe: hostile lines, each followed by a working ping", "[hub][pipe]") {
  EngineProcess e({hubtest::damas_binary(), "hub"});
  const auto send = [&](const std::string& line) { REQUIRE(e.send(line)); };
  const auto receive = [&](milliseconds timeout) { return e.read_line(timeout); };
  CHECK(hubtest::check_hostile_lines(send, receive) == "");
  // Still a working engine.
  REQUIRE(e.send("hub"));
  CHECK(read_until(e, "wait") == "wait");
  REQUIRE(e.send("pos start moves=\"22-18 11-15\""));
  REQUIRE(e.send("go think"));
  CHECK(read_until(e, "done").rfind("done move=18x11x15", 0) == 0);
  // A last line without '\n' before the end of input is still read.
  REQUIRE(e.send("ping"));
  CHECK(e.read_line() == std::optional<std::string>("pong"));
  e.close_input();
  CHECK(e.wait_exit(hubtest::kTimeout) == 0);
  CHECK(e.stderr_text() == "");
}

TEST_CASE("hub pipe: a pydraughts HubEngine client plays complete games in the a1 numbering", "[hub][pipe]") {
  PydraughtsClient a("engine A"), b("engine B");
  for (PydraughtsClient* c : {&a, &b}) {
    CHECK(c->id().at("name") == "damas");
    CHECK(c->id().at("author") == "\"damas developers\"");  // pydraughts keeps the quotes
    CHECK(c->variants().count("brazilian") == 1);
    CHECK(c->options().count("numbering") == 1);
    // What a lidraughts-bot configuration sends: variant, its own initial-time, our numbering.
    c->setoption("variant", "brazilian");
    c->setoption("initial-time", "60");
    c->setoption("numbering", "a1");
    c->setoption("hash", "8");
    c->init();
    c->ping();
  }
  struct Setup {
    Limit limit;
    bool ponder;
  };
  Limit depth;
  depth.depth = 4;
  Limit clock;
  clock.time = 2.0;
  clock.inc = 0.02;
  Limit movetime;
  movetime.movetime = 0.01;
  const Setup setups[] = {{depth, true}, {clock, false}, {movetime, true}};
  int games = 0, ended_by_rules = 0, hits = 0, misses = 0;
  for (const Setup& s : setups) {
    for (const bool a_white : {true, false}) {
      const GameReport r = a_white ? play_pydraughts_game(a, b, s.limit, s.ponder, 300)
                                   : play_pydraughts_game(b, a, s.limit, s.ponder, 300);
      ++games;
      ended_by_rules += r.game.over() ? 1 : 0;
      hits += r.ponder_hits;
      misses += r.ponder_misses;
      std::cout << "pydraughts-style game " << games << ": " << r.plies << " plies, "
                << (r.game.over() ? to_string(r.game.result()) + " by " + to_string(r.game.end_reason())
                                  : std::string("stopped at max_moves"))
                << ", ponder hits " << r.ponder_hits << " misses " << r.ponder_misses << ", last position "
                << to_fen(r.game.current()) << "\n";
    }
  }
  CHECK(games == 6);
  CHECK(ended_by_rules >= 4);  // RoundRobin stops at max_moves=300; most games end by the rules
  CHECK(hits + misses > 0);
  for (PydraughtsClient* c : {&a, &b}) {
    CHECK(c->warnings() == 0);  // pydraughts logged nothing unexpected
    c->quit();
    CHECK(c->process().wait_exit(hubtest::kTimeout) == 0);
  }
}

TEST_CASE("hub pipe: a pydraughts HubEngine client plays complete Russian games", "[hub][pipe][russian]") {
  PydraughtsClient a("engine A"), b("engine B");
  for (PydraughtsClient* c : {&a, &b}) {
    CHECK(c->variants().count("russian") == 1);
    // lidraughts-bot's settings for a Russian game.
    c->setoption("variant", "russian");
    c->setoption("numbering", "a1");
    c->setoption("draw-rules", "fmjd64");
    c->setoption("hash", "8");
    c->init();
    c->ping();
  }
  Limit depth;
  depth.depth = 4;
  int ended_by_rules = 0;
  for (const bool a_white : {true, false}) {
    // Every move is checked by the Russian referee (the game's start is Russian).
    const GameReport r = a_white ? play_pydraughts_game(a, b, depth, false, 300, Variant::Russian)
                                 : play_pydraughts_game(b, a, depth, false, 300, Variant::Russian);
    CHECK(r.game.current().variant() == Variant::Russian);
    ended_by_rules += r.game.over() ? 1 : 0;
  }
  CHECK(ended_by_rules >= 1);
  for (PydraughtsClient* c : {&a, &b}) {
    CHECK(c->warnings() == 0);
    c->quit();
    CHECK(c->process().wait_exit(hubtest::kTimeout) == 0);
  }
}

// ---- stop -> done latency (a measurement, not part of the default suite) -------------------
// Run: build/release/tests/damas_tests "[hub-latency]"   Figures go to bench/hub-latency.md.

namespace {

struct Percentiles {
  double p50, p90, p99, max;
};

Percentiles percentiles(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size())))];
  };
  return {at(0.50), at(0.90), at(0.99), ms.back()};
}

void report(const char* what, const std::vector<double>& ms) {
  const Percentiles p = percentiles(ms);
  std::printf("%-44s n=%zu  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms\n", what, ms.size(), p.p50,
              p.p90, p.p99, p.max);
}

const char* const kLatencyRoots[] = {
    "pos start",
    "pos start moves=\"22-18 11-15 18x11x15 8x15x11 26-22 12-16 24-20 3-8 20x18x15x16 10-14\"",
    "pos pos=W:WK31,21,22:BK4,9,10,13",
};

}  // namespace

TEST_CASE("hub stop-to-done latency through the pipe and in-process", "[.][hub-latency]") {
  constexpr int kSearches = 1000;
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> think_ms(5, 60);
  const char* const kGos[] = {"level infinite\ngo analyze", "go think", "go ponder"};

  std::vector<double> pipe_ms;
  {
    EngineProcess e({hubtest::damas_binary(), "hub"});
    for (int i = 0; i < kSearches; ++i) {
      REQUIRE(e.send(kLatencyRoots[i % 3]));
      REQUIRE(e.send(kGos[i % 3]));
      std::this_thread::sleep_for(milliseconds(think_ms(rng)));
      // Lines written so far are taken out first, so that only the answer to stop is timed.
      e.pump();
      std::vector<std::string> before;
      while (const auto line = e.read_line(milliseconds(0))) before.push_back(*line);
      const auto t0 = hubtest::Clock::now();
      REQUIRE(e.send("stop"));
      std::string done;
      while (done.empty()) {
        std::optional<std::string> line = e.read_line();
        REQUIRE(line);
        if (line->rfind("done", 0) == 0) done = std::move(*line);
        else before.push_back(std::move(*line));
      }
      pipe_ms.push_back(std::chrono::duration<double, std::milli>(hubtest::Clock::now() - t0).count());
      REQUIRE(done.rfind("done move=", 0) == 0);
      for (const std::string& l : before) REQUIRE(l.rfind("info ", 0) == 0);
    }
    REQUIRE(e.send("ping"));
    CHECK(e.read_line() == std::optional<std::string>("pong"));  // one done per go, no more
  }
  std::vector<double> inprocess_ms;
  {
    hubtest::LineQueue q;
    int dones = 0;
    hub::Frontend f([&](std::string_view line) {
      if (line.rfind("done move=", 0) == 0) ++dones;
      q.push(line);
    });
    for (int i = 0; i < kSearches; ++i) {
      f.process_line(kLatencyRoots[i % 3]);
      f.process_line(i % 3 == 0 ? "level infinite" : "ping");
      f.process_line(i % 3 == 0 ? "go analyze" : i % 3 == 1 ? "go think" : "go ponder");
      std::this_thread::sleep_for(milliseconds(think_ms(rng)));
      const auto t0 = hubtest::Clock::now();
      f.process_line("stop");  // returns once the done has been written
      inprocess_ms.push_back(std::chrono::duration<double, std::milli>(hubtest::Clock::now() - t0).count());
      REQUIRE(dones == i + 1);
    }
  }
  report("stop -> done, damas binary through pipes", pipe_ms);
  report("stop -> done, Frontend in-process", inprocess_ms);
}
