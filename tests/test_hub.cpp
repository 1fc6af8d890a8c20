// The Hub front end in-process: the line scanner, the writers, `level`, the line splitter,
// and the Frontend driven through process_line() with a collecting sink (the transcripts of
// protocol/transcripts/ are replayed here too).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "damas/core/movegen.h"
#include "damas/hub/hub.h"
#include "hub_test_support.h"

using namespace damas;
using namespace damas::hub;
using hubtest::LineQueue;

namespace {

Line parsed(std::string_view text) {
  const Expected<Line> l = parse_line(text);
  INFO(text);
  REQUIRE(l.has_value());
  return *l;
}

std::string parse_error(std::string_view text) {
  const Expected<Line> l = parse_line(text);
  INFO(text);
  REQUIRE_FALSE(l.has_value());
  return l.error();
}

Move hub_move(const Position& p, std::string_view text, Numbering n = Numbering::Standard) {
  const Expected<Move> m = parse_hub_move(p, text, n);
  INFO(text);
  REQUIRE(m.has_value());
  return *m;
}

// A Frontend whose output lands in a queue.
class InProcess : public hubtest::Transport {
 public:
  explicit InProcess(const Options& options = Options{})
      : frontend_([this](std::string_view line) { queue_.push(line); }, options) {}
  void send(std::string_view line) override { frontend_.process_line(line); }
  std::optional<std::string> receive(hubtest::milliseconds timeout) override { return queue_.pop(timeout); }
  Frontend& frontend() { return frontend_; }
  LineQueue& queue() { return queue_; }
  // Lines until one starting with `prefix` (included).
  std::vector<std::string> until(std::string_view prefix) {
    std::vector<std::string> lines;
    while (auto l = queue_.pop(hubtest::kTimeout)) {
      lines.push_back(*l);
      if (l->rfind(prefix, 0) == 0) return lines;
    }
    FAIL("timeout waiting for " << prefix);
    return lines;
  }

 private:
  LineQueue queue_;  // before frontend_: the frontend's destructor may still write
  Frontend frontend_;
};

}  // namespace

TEST_CASE("hub line scanner: commands, flags, values, quotes", "[hub]") {
  const Line a = parsed("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 23-19\" start");
  CHECK(a.command == "pos");
  REQUIRE(a.args.size() == 3);
  CHECK(a.args[0].name == "pos");
  CHECK(a.args[0].value == "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
  CHECK_FALSE(a.args[0].flag);
  CHECK(a.args[1].value == "10-14 23-19");
  CHECK(a.args[2].name == "start");
  CHECK(a.args[2].flag);
  CHECK(a.find("moves")->value == "10-14 23-19");
  CHECK(a.find("absent") == nullptr);

  const Line b = parsed("  \tlevel   time = 4.5\tinc=0.25 \r");
  CHECK(b.command == "level");
  REQUIRE(b.args.size() == 2);
  CHECK(b.args[0].name == "time");
  CHECK(b.args[0].value == "4.5");
  CHECK(b.args[1].value == "0.25");

  const Line c = parsed("id name=\"\" author=\"a = b\" x=");
  CHECK(c.args[0].value.empty());
  CHECK_FALSE(c.args[0].flag);
  CHECK(c.args[1].value == "a = b");
  CHECK(c.args[2].value.empty());
  CHECK_FALSE(c.args[2].flag);

  CHECK(parsed("ping").args.empty());
  CHECK(parsed("\xc3\xa9t\xc3\xa9 x=\xff").command ==
        "\xc3\xa9t\xc3\xa9");  // high bytes are token characters
}

TEST_CASE("hub line scanner: errors", "[hub]") {
  CHECK(parse_error("") == "missing command");
  CHECK(parse_error(" \t\r") == "missing command");
  CHECK(parse_error("pos pos=\"abc").find("unterminated quote") != std::string::npos);
  CHECK(parse_error("=x").find("missing command") != std::string::npos);
  CHECK(parse_error("\"x\"").find("missing command") != std::string::npos);
  CHECK(parse_error("go =think").find("without an argument name") != std::string::npos);
  CHECK(parse_error("go \"think\"").find("without an argument name") != std::string::npos);
  CHECK(parse_error("go a==b").find("'=' after '='") != std::string::npos);
  CHECK(parse_error(std::string("go\0think", 8)).find("control character (code 0)") != std::string::npos);
  CHECK(parse_error("go x=\"a\x01\"").find("control character (code 1)") != std::string::npos);
  CHECK(parse_error("\x1b[2J").find("control character") != std::string::npos);
}

TEST_CASE("hub writer quotes exactly when needed and never writes a bad character", "[hub]") {
  CHECK(Message("info").arg("pv", "22-18").str() == "info pv=22-18");
  CHECK(Message("info").arg("pv", "22-18 11-15").str() == "info pv=\"22-18 11-15\"");
  CHECK(Message("param").arg("value", "").str() == "param value=\"\"");
  CHECK(Message("id").arg("x", "a=b").str() == "id x=\"a=b\"");
  CHECK(Message("error").arg("message", "bad \"x\"\n").str() == "error message=\"bad 'x'?\"");
  CHECK(Message("go").flag("think").str() == "go think");
  CHECK(is_token("abc"));
  CHECK_FALSE(is_token(""));
  CHECK_FALSE(is_token("a b"));
  // What the writer produces, the scanner reads back.
  for (const std::string v : {"", "x", "a b", "a=b", "\t", "'\"'", "10-14 23-19 14x23x19"}) {
    const Line l = parsed(Message("c").arg("n", v).str());
    REQUIRE(l.args.size() == 1);
    std::string expected;
    for (const char ch : v) expected += ch == '"' ? '\'' : ch;
    CHECK(l.args[0].value == expected);
  }
}

TEST_CASE("hub scores are men with two decimals, wins as Scan writes them", "[hub]") {
  CHECK(format_score(0) == "0.00");
  CHECK(format_score(5) == "0.05");
  CHECK(format_score(-5) == "-0.05");
  CHECK(format_score(-120) == "-1.20");
  CHECK(format_score(1234) == "12.34");
  CHECK(format_score(win_in(7)) == "99.93");
  CHECK(format_score(loss_in(12)) == "-99.88");
}

TEST_CASE("hub info lines: fields, PV checked and quoted, pydraughts can parse them", "[hub]") {
  const Position start = Position::start();
  SearchInfo info;
  CHECK(format_info(info, start, Numbering::Standard).empty());  // never an empty info

  info.depth = 7;
  info.mean_depth = 7.46;
  info.score = -35;
  info.nodes = 123456;
  info.seconds = 0.25;
  const Move m1 = hub_move(start, "22-18");
  const Position p1 = start.after(m1);
  const Move m2 = hub_move(p1, "11-15");
  info.pv = {m1, m2, m1};  // the third move is not legal there: the PV is cut
  const std::string line = format_info(info, start, Numbering::Standard);
  CHECK(line == "info depth=7 mean-depth=7.5 score=-0.35 nodes=123456 time=0.250 nps=0.5 pv=\"22-18 11-15\"");
  const auto [command, arg] = hubtest::pyd_recv_hub(line);
  CHECK(command == "info");
  CHECK(hubtest::pyd_check_info(arg).empty());
  CHECK(format_info(info, start, Numbering::A1).find("pv=\"10-14 23-19\"") != std::string::npos);

  info.pv = {m1};
  CHECK(format_info(info, start, Numbering::Standard).find(" pv=22-18") != std::string::npos);
  SearchInfo forced;
  forced.pv = {m1};
  CHECK(format_info(forced, start, Numbering::Standard) == "info pv=22-18");
  SearchInfo mate;
  mate.depth = 3;
  mate.score = win_in(3);
  CHECK(format_info(mate, start, Numbering::Standard) == "info depth=3 score=99.97");
}

TEST_CASE("hub done: a legal move first, ponder only when legal", "[hub]") {
  const Position start = Position::start();
  const Move m1 = hub_move(start, "22-18");
  const Move m2 = hub_move(start.after(m1), "11-15");
  SearchResult r;
  r.best = m1;
  r.ponder = m2;
  CHECK(format_done(r, start, Numbering::Standard) == "done move=22-18 ponder=11-15");
  CHECK(format_done(r, start, Numbering::A1) == "done move=10-14 ponder=23-19");

  r.ponder = m1;  // not legal after m1
  CHECK(format_done(r, start, Numbering::Standard) == "done move=22-18");
  r.ponder = kNullMove;
  r.pv = {m1, m2};
  CHECK(format_done(r, start, Numbering::Standard) == "done move=22-18 ponder=11-15");

  // No usable move from the search: still a legal move.
  SearchResult empty;
  const std::string text = format_done(empty, start, Numbering::Standard);
  const Line l = parsed(text);
  REQUIRE(l.find("move"));
  const Expected<Move> m = parse_hub_move(start, l.find("move")->value);
  CHECK(m.has_value());
  SearchResult wrong;
  wrong.best = m2;  // a black move with White to move
  CHECK(choose_best_move(wrong, start) != m2);
  CHECK(parse_hub_move(start, parsed(format_done(wrong, start, Numbering::Standard)).find("move")->value));

  std::string best;
  std::optional<std::string> ponder;
  CHECK(hubtest::pyd_parse_done("move=22-18 ponder=11-15", best, ponder).empty());
  CHECK(best == "22-18");
  CHECK(ponder == "11-15");
}

TEST_CASE("hub level: every form of the protocol", "[hub]") {
  const auto level = [](std::string_view text) {
    const Expected<SearchLimits> l = parse_level(parsed(text));
    INFO(text);
    REQUIRE(l.has_value());
    return *l;
  };
  CHECK(level("level depth=12").depth == 12);
  CHECK(level("level nodes=18446744073709551615").nodes == std::uint64_t{18446744073709551615ULL});
  CHECK(level("level move-time=0.5").move_time == 0.5);
  const SearchLimits clock = level("level moves=40 time=291.587 inc=2");
  CHECK(clock.moves_to_go == 40);
  CHECK(clock.time == 291.587);
  CHECK(clock.increment == 2);
  CHECK(level("level time=-0.25 inc=0.25").time == -0.25);
  CHECK(level("level time=9").time == 9);
  CHECK(level("level time=1e-05").time == 1e-05);
  CHECK(level("level infinite").infinite);
  const SearchLimits mixed = level("level depth=5 time=10 ponder ply=3 handicap=1");
  CHECK(mixed.depth == 5);
  CHECK(mixed.time == 10);
  const SearchLimits none = level("level");
  CHECK_FALSE(none.depth);
  CHECK_FALSE(none.time);
  CHECK_FALSE(none.infinite);

  for (const char* bad : {"level depth=", "level depth=0", "level depth=x", "level depth=3.5",
                          "level nodes=0", "level nodes=-1", "level nodes=99999999999999999999999",
                          "level move-time=-1", "level time=nan", "level time=inf", "level time=1e300",
                          "level inc=-1", "level moves=-1", "level moves=1.5", "level depth=5 time=abc"}) {
    INFO(bad);
    CHECK_FALSE(parse_level(parsed(bad)).has_value());
  }
}

TEST_CASE("hub line splitter: lines, partial reads, overlong lines", "[hub]") {
  LineSplitter s(10);
  std::vector<std::pair<std::string, bool>> got;
  const LineSplitter::Handler h = [&](std::string_view line, bool too_long) {
    got.emplace_back(line, too_long);
  };
  s.feed("ping\npo", h);
  s.feed("s start\n\n", h);
  s.feed("0123456789ABCDEF", h);
  s.feed("GHIJ\nok\nlast", h);
  s.finish(h);
  REQUIRE(got.size() == 6);
  CHECK(got[0] == std::pair<std::string, bool>{"ping", false});
  CHECK(got[1] == std::pair<std::string, bool>{"pos start", false});
  CHECK(got[2] == std::pair<std::string, bool>{"", false});
  CHECK(got[3].second);
  CHECK(got[3].first.size() <= 10);
  CHECK(got[4] == std::pair<std::string, bool>{"ok", false});
  CHECK(got[5] == std::pair<std::string, bool>{"last", false});
  got.clear();
  s.finish(h);
  CHECK(got.empty());
}

TEST_CASE("hub handshake lists every user option of the registry once, with current values", "[hub]") {
  Options start;
  REQUIRE(start.set(option::kNumbering, "a1"));
  InProcess t(start);
  t.send("hub");
  const std::vector<std::string> lines = t.until("wait");
  std::vector<OptionSpec> users;
  for (const OptionSpec& spec : option_specs())
    if (spec.visibility == Visibility::User) users.push_back(spec);
  REQUIRE(lines.size() == users.size() + 2);
  CHECK(lines.front().rfind("id name=damas version=", 0) == 0);
  for (std::size_t i = 0; i < users.size(); ++i) {
    const OptionSpec& spec = users[i];
    const Line l = parsed(lines[i + 1]);
    CHECK(l.command == "param");
    REQUIRE(l.find("name"));
    CHECK(l.find("name")->value == spec.name);
    REQUIRE(l.find("value"));
    CHECK(l.find("value")->value == start.get(spec.name));
    REQUIRE(l.find("type"));
    if (spec.type == OptionType::Enum) {
      REQUIRE(l.find("values"));
      std::string values;
      for (const std::string& v : spec.values) values += (values.empty() ? "" : " ") + v;
      CHECK(l.find("values")->value == values);
    }
    // pydraughts' reading of a param line must not fail.
    for (const std::string& item : hubtest::pyd_split(hubtest::pyd_recv_hub(lines[i + 1]).second))
      CHECK(hubtest::py_str_split(item, '=').size() == 2);
  }
  CHECK(lines.back() == "wait");
  CHECK(parsed(lines[1 + 5]).find("value")->value == "a1");  // numbering, set from "the command line"
}

TEST_CASE("hub transcripts of protocol/ replay in-process", "[hub]") {
  const std::filesystem::path dir = std::filesystem::path(DAMAS_SOURCE_DIR) / "protocol" / "transcripts";
  REQUIRE(std::filesystem::is_directory(dir));
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    // hub-*.txt are ours; other protocols keep their own transcripts in the same folder.
    if (entry.path().extension() != ".txt" || entry.path().filename().string().rfind("hub-", 0) != 0)
      continue;
    SECTION(entry.path().filename().string()) {
      std::string problem;
      const std::vector<hubtest::Step> steps =
          hubtest::parse_transcript(hubtest::read_file(entry.path()), problem);
      INFO(entry.path().string());
      REQUIRE(problem.empty());
      REQUIRE_FALSE(steps.empty());
      InProcess t;
      CHECK(hubtest::replay(steps, t) == "");
      t.frontend().wait();
      CHECK(t.frontend().searches_started() == t.frontend().dones_written());
    }
    ++replayed;
  }
  CHECK(replayed >= 5);
}

TEST_CASE("hub transcript replayer catches a wrong answer", "[hub]") {
  std::string problem;
  const auto steps = hubtest::parse_transcript("> ping\n< pang\n", problem);
  REQUIRE(problem.empty());
  InProcess t;
  CHECK(hubtest::replay(steps, t).find("got \"pong\"") != std::string::npos);
  hubtest::parse_transcript("<* info {text}\n> go\n", problem);
  CHECK_FALSE(problem.empty());
  CHECK(hubtest::matches("done move={move}{text}", "done move=18x11x15 ponder=8x15x11"));
  CHECK_FALSE(hubtest::matches("done move={move}", "done move=abc"));
  CHECK(hubtest::matches("info depth={int} score={real}", "info depth=3 score=-0.25"));
}

TEST_CASE("hub: a command during a search stops it and its done comes first", "[hub]") {
  InProcess t;
  t.send("pos start");
  t.send("level infinite");
  t.send("go analyze");
  CHECK(t.frontend().searching());
  t.send("ping");  // answered, the search goes on
  CHECK(t.frontend().searching());
  t.send("hub");
  CHECK_FALSE(t.frontend().searching());
  const std::vector<std::string> lines = t.until("wait");
  std::size_t done_at = lines.size(), id_at = lines.size(), pong_at = lines.size();
  int dones = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("done ", 0) == 0) done_at = i, ++dones;
    if (lines[i].rfind("id ", 0) == 0) id_at = i;
    if (lines[i] == "pong") pong_at = i;
  }
  CHECK(dones == 1);
  CHECK(pong_at < done_at);
  CHECK(done_at < id_at);
  CHECK(t.frontend().searches_started() == 1);
  CHECK(t.frontend().dones_written() == 1);
}

TEST_CASE("hub: every go gets exactly one legal done, whatever interrupts it", "[hub]") {
  InProcess t;
  t.send("set-param name=numbering value=a1");
  const char* interrupts[] = {"stop",     "pos start", "go think", "level depth=3",
                              "new-game", "hub",       "init",     "set-param name=threads value=1",
                              "quit"};
  int gos = 0;
  for (const char* interrupt : interrupts) {
    t.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 23-19 14x23x19 28x19x23\"");
    t.send("go analyze");
    ++gos;
    t.send(interrupt);
    if (std::string_view(interrupt) == "go think") {
      ++gos;
      t.send("stop");
    }
  }
  t.frontend().wait();
  CHECK(t.frontend().searches_started() == static_cast<std::uint64_t>(gos));
  CHECK(t.frontend().dones_written() == static_cast<std::uint64_t>(gos));
  t.send("ping");
  const Position root = [] {
    Position p = Position::start();
    for (const char* m : {"10-14", "23-19", "14x23x19", "28x19x23"})
      p = p.after(hub_move(p, m, Numbering::A1));
    return p;
  }();
  int dones = 0;
  while (auto l = t.queue().pop(hubtest::kTimeout)) {
    if (*l == "pong") break;
    if (l->rfind("done", 0) != 0) continue;
    ++dones;
    std::string best;
    std::optional<std::string> ponder;
    REQUIRE(hubtest::pyd_parse_done(hubtest::pyd_recv_hub(*l).second, best, ponder).empty());
    const std::optional<Move> m = hubtest::pyd_move(root, best);
    REQUIRE(m);
    if (ponder) CHECK(hubtest::pyd_move(root.after(*m), *ponder));
  }
  CHECK(dones == gos);
}

TEST_CASE("hub: hostile lines in-process, each followed by a working ping", "[hub]") {
  InProcess t;
  LineSplitter splitter(kMaxLineBytes);
  const LineSplitter::Handler handle = [&](std::string_view line, bool too_long) {
    if (too_long) t.frontend().reject_long_line();
    else t.frontend().process_line(line);
  };
  const auto send = [&](const std::string& line) { splitter.feed(line + "\n", handle); };
  const auto receive = [&](hubtest::milliseconds timeout) { return t.queue().pop(timeout); };
  CHECK(hubtest::hostile_lines().size() >= 40);
  CHECK(hubtest::check_hostile_lines(send, receive) == "");
  // Still fully working.
  send("pos start moves=\"22-18 11-15\"");
  send("go think");
  const std::vector<std::string> lines = t.until("done");
  CHECK(lines.back().rfind("done move=18x11x15", 0) == 0);
}

TEST_CASE("hub: numbering a1 reads and writes moves in pydraughts' numbers", "[hub]") {
  InProcess t;
  t.send("set-param name=numbering value=a1");
  t.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 23-19\"");
  t.send("go think");
  CHECK(t.until("done").back().rfind("done move=14x23x19", 0) == 0);
  t.send("set-param name=numbering value=standard");
  t.send("pos start moves=\"10-14\"");  // a1 move in standard numbering: Black's man
  CHECK(t.until("error").back().find("illegal move '10-14'") != std::string::npos);
}

TEST_CASE("hub: lidraughts-bot's options with draw-rules and an algebraic FEN position", "[hub]") {
  InProcess t;
  for (const char* line : {"set-param name=variant value=brazilian", "set-param name=numbering value=a1",
                           "set-param name=draw-rules value=fmjd64"})
    t.send(line);
  t.send("ping");
  for (const std::string& line : t.until("pong")) CHECK(line.rfind("error", 0) != 0);
  t.send("set-param name=draw-rules value=fide");
  CHECK(t.until("error").back().find("draw-rules") != std::string::npos);
  // 7.2.8 ending (two kings against one) as lidraughts writes it.
  t.send("pos pos=W:WKb8,Kd8:BKc1");
  t.send("level depth=4");
  t.send("go think");
  CHECK(t.until("done").back().rfind("done move=", 0) == 0);
}

TEST_CASE("hub: a lidraughts FEN's H counter is the FMJD-64 count at the position", "[hub][draw_rules]") {
  // 7.2.8 (two kings against one) draws after 10 plies: from H8, White's move and Black's answer
  // end the game, so the search's line stops there; without the counter it goes on.
  const auto pv_length = [](const char* fen) {
    InProcess t;
    t.send("set-param name=variant value=russian");  // its own laws: fmjd64
    t.send("set-param name=egdb-path value=none");
    t.send(std::string("pos pos=") + fen);
    t.send("level depth=6");
    t.send("go think");
    const std::vector<std::string> lines = t.until("done");
    REQUIRE(lines.size() >= 2);
    const std::string& info = lines[lines.size() - 2];
    INFO(info);
    REQUIRE(info.find("pv=\"") != std::string::npos);
    const std::string pv = info.substr(info.find("pv=\"") + 4);
    return std::count(pv.begin(), pv.end(), ' ') + 1;
  };
  CHECK(pv_length("W:WK1,K2:BK30:H8:F40") <= 2);
  CHECK(pv_length("W:WK1,K2:BK30:H0:F40") > 2);
}

namespace {

// The move of a `done` line, read in the position it answers (an error when not legal there).
Expected<Move> done_move(const std::string& done, const Position& root) {
  const std::size_t from = done.find("move=") + 5;
  return parse_hub_move(root, done.substr(from, done.find(' ', from) - from));
}

}  // namespace

TEST_CASE("hub: variant russian makes pos, the search and done follow the Russian rules", "[hub][russian]") {
  InProcess t;
  t.send("set-param name=variant value=russian");
  // A free choice between a short and a long capture (Brazilian: the long one only).
  const Position free_choice = parse_fen("W:W22,29:B11,18,26,1").value().with_variant(Variant::Russian);
  t.send("pos pos=W:W22,29:B11,18,26,1");
  t.send("level depth=6");
  t.send("go think");
  CHECK(done_move(t.until("done").back(), free_choice).has_value());
  // Searched moves from the start, each sent back in the move list: every answer legal in Russian.
  Position root = Position::start(Variant::Russian);
  std::string moves;
  for (int ply = 0; ply < 6; ++ply) {
    t.send("pos start moves=\"" + moves + "\"");
    t.send("level depth=4");
    t.send("go think");
    const Expected<Move> m = done_move(t.until("done").back(), root);
    REQUIRE(m.has_value());
    moves += (moves.empty() ? "" : " ") + to_hub_move(*m);
    root = root.after(*m);
  }
  CHECK(root.variant() == Variant::Russian);
}

TEST_CASE("hub: --variant russian on the command line is the Russian game", "[hub][russian]") {
  Options options;
  REQUIRE(options.set(option::kVariant, "russian"));
  InProcess t(options);
  // Crowned on d8 mid-capture, it goes on as a king over b6 (Brazilian: 11x2x7, the man stops).
  t.send("pos pos=Weeebeebebeweeeeeeeeeeeeeeeeeewee");
  t.send("go think");
  CHECK(t.until("done").back().rfind("done move=11x13x7x9", 0) == 0);
}

TEST_CASE("hub: a variant damas does not play is a clear error and the engine keeps its game",
          "[hub][russian]") {
  InProcess t;
  t.send("set-param name=variant value=russian");
  t.send("set-param name=variant value=italian");
  const std::string error = t.until("error").back();
  CHECK_THAT(error, Catch::Contains("italian") && Catch::Contains("variant") &&
                        Catch::Contains("brazilian russian spanish portuguese pool czech"));
  t.send("hub");
  const std::vector<std::string> lines = t.until("wait");
  CHECK(std::find(lines.begin(), lines.end(),
                  "param name=variant value=russian type=enum values=\"brazilian russian spanish portuguese "
                  "pool czech\"") != lines.end());
  t.send("pos pos=W:W11,30:B4,7,9");
  t.send("go think");
  CHECK(t.until("done").back().rfind("done move=11x13x7x9", 0) == 0);
  t.send("ping");
  CHECK(t.until("pong").back() == "pong");
}
