// A Hub engine that misbehaves on purpose, for tests/test_match*.cpp:
//   fake_hub_engine MODE [N] [MS]
// It plays the first legal move (captured squares written in descending order, which a referee
// must accept) and, at its N-th move of every game (default 3), does what MODE says:
//   first    nothing special            crash    exits with status 3
//   hang     never answers (not even stop)       illegal  plays a move that is not legal
//   late     answers after MS milliseconds       garbage  prints junk, then "done move=zz"
//   noisy    junk lines before every move (still legal)
//   error    answers "error" to the go            score    info score=-50.00 with every move
//   a1       moves in the a1 numbering           stderr   writes to stderr with every move
//   nostart  exits before the handshake          nowait   never ends the handshake
//   novariant  declares variant=normal only        noparams  declares no parameter at all
//   rules    declares a draw-rules parameter (the runner must set it to its referee's laws)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/hub/hub.h"

using namespace damas;

namespace {

struct State {
  std::string mode = "first";
  int n = 3;
  int ms = 500;
  Position position = Position::start();
  int moves_this_game = 0;
};

void say(const std::string& line) { std::cout << line << "\n" << std::flush; }

std::string descending_captures(const Move& m, Numbering numbering) {
  std::string text = to_hub_move(m, numbering);
  if (!m.is_capture()) return text;
  // "from x to x c1 x c2 ...": reverse the captured squares.
  std::vector<std::string> parts;
  std::string part;
  for (char c : text + "x") {
    if (c == 'x') parts.push_back(std::exchange(part, {}));
    else part += c;
  }
  std::string out = parts[0] + "x" + parts[1];
  for (std::size_t i = parts.size(); i-- > 2;) out += "x" + parts[i];
  return out;
}

void go(State& s) {
  const Numbering numbering = s.mode == "a1" ? Numbering::A1 : Numbering::Standard;
  MoveList legal;
  generate_legal_moves(s.position, legal);
  const bool special = ++s.moves_this_game == s.n;
  if (s.mode == "noisy" || (s.mode == "garbage" && special)) {
    say("@@ this is not hub \"unterminated");
    say("=== 42");
    say("bogus-command x=1");
  }
  if (s.mode == "stderr") std::cerr << "fake engine: thinking\n" << std::flush;
  if (s.mode == "score") say("info depth=1 score=-50.00 nodes=1");
  else say("info depth=1 score=0.00 nodes=1");
  if (special) {
    if (s.mode == "crash") std::exit(3);
    if (s.mode == "hang") return;
    if (s.mode == "illegal") return say("done move=1-2");
    if (s.mode == "garbage") return say("done move=zz");
    if (s.mode == "error") return say("error message=\"confused\"");
    if (s.mode == "late") std::this_thread::sleep_for(std::chrono::milliseconds(s.ms));
  }
  if (legal.empty()) return say("done");
  say("done move=" + descending_captures(legal[0], numbering));
}

void pos(State& s, const hub::Line& line) {
  const Numbering numbering = s.mode == "a1" ? Numbering::A1 : Numbering::Standard;
  Position p = Position::start();
  if (const hub::Argument* a = line.find("pos")) {
    // damas' runner sends a FEN (with lidraughts' H) to an engine that declares draw-rules.
    const Expected<Position> parsed =
        a->value.find(':') != std::string::npos ? parse_fen(a->value) : parse_hub_position(a->value);
    if (!parsed) return say("error message=\"bad position\"");
    p = *parsed;
  }
  if (const hub::Argument* a = line.find("moves")) {
    const Expected<std::vector<Move>> moves = parse_move_list(p, a->value, numbering);
    if (!moves) return say("error message=\"illegal move\"");
    for (const Move& m : *moves) p = p.after(m);
  }
  s.position = p;
}

}  // namespace

int main(int argc, char** argv) {
  State s;
  if (argc > 1) s.mode = argv[1];
  if (argc > 2) s.n = std::atoi(argv[2]);
  if (argc > 3) s.ms = std::atoi(argv[3]);
  if (s.mode == "nostart") return 1;
  std::string text;
  while (std::getline(std::cin, text)) {
    const Expected<hub::Line> line = hub::parse_line(text);
    if (!line) continue;
    const std::string& c = line->command;
    if (c == "hub") {
      say("id name=fake-" + s.mode);
      if (s.mode != "noparams")
        say(s.mode == "novariant" ? "param name=variant value=normal type=enum values=\"normal frisian\""
                                  : "param name=variant value=brazilian type=enum values=brazilian");
      if (s.mode == "rules") say("param name=draw-rules value=seed type=enum values=\"seed fmjd64\"");
      if (s.mode != "nowait") say("wait");

    } else if (c == "init") {
      say("ready");
    } else if (c == "new-game") {
      s.moves_this_game = 0;
    } else if (c == "pos") {
      pos(s, *line);
    } else if (c == "go") {
      go(s);
    } else if (c == "ping") {
      say("pong");
    } else if (c == "quit") {
      return 0;
    }
  }
  return 0;
}
