// `damas match` through real processes: tests/fake_hub_engine.cpp misbehaving in every way the
// runner must score (crash, hang, illegal move, late done, garbage, error answer, no start),
// the PDN it writes, adjudication, round robins, and damas against damas.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "damas/cli/match_args.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/core/perft.h"
#include "damas/core/text_lines.h"
#include "damas/eval/learned.h"
#include "damas/match/balanced_openings.h"
#include "damas/match/hub_match.h"
#include "strict_pdn.h"

using namespace damas;
namespace fs = std::filesystem;

namespace {

fs::path scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / ("damas-test-match-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

MatchEngine fake(const std::string& mode, const std::string& name, std::vector<std::string> extra = {}) {
  MatchEngine e;
  e.spec.name = name;
  e.spec.process.command = FAKE_HUB_ENGINE;
  e.spec.process.args = {mode};
  e.spec.process.args.insert(e.spec.process.args.end(), extra.begin(), extra.end());
  e.spec.start_timeout = 5;
  e.tc = TimeControl{TimeControl::Kind::Clock, 10, 0.1, 0, 0, 0, 0};
  return e;
}

MatchEngine with_move_time(MatchEngine e, double seconds, double margin) {
  e.tc = TimeControl{TimeControl::Kind::MoveTime, 0, 0, 0, seconds, 0, 0};
  e.margin = margin;
  return e;
}

HubMatchSpec match_of(std::vector<MatchEngine> engines, int rounds) {
  HubMatchSpec spec;
  spec.engines = std::move(engines);
  spec.rounds = rounds;
  spec.recover = true;
  spec.log_path = (scratch_dir() / "engines.log").string();
  return spec;
}

int failures(const HubMatchResult& r, int engine, Failure f) {
  return r.totals[static_cast<std::size_t>(engine)].failures[static_cast<std::size_t>(f)];
}

int total_failures(const HubMatchResult& r, int engine) {
  int n = 0;
  for (int f : r.totals[static_cast<std::size_t>(engine)].failures) n += f;
  return n;
}

// Every game of the result was lost by engine `loser` through failure `f`, and was played.
void check_all_lost_by(const HubMatchResult& r, int loser, Failure f, int games) {
  REQUIRE(static_cast<int>(r.games.size()) == games);
  CHECK(failures(r, loser, f) == games);
  CHECK(total_failures(r, 1 - loser) == 0);
  CHECK(r.totals[static_cast<std::size_t>(loser)].losses == games);
  CHECK(r.totals[static_cast<std::size_t>(1 - loser)].wins == games);
  for (const HubGame& g : r.games) {
    CHECK(g.failure == f);
    CHECK(g.failed_engine == loser);
    CHECK(g.points(loser) == 0.0);
    CHECK(g.pdn.find("[Termination \"" + to_string(f)) != std::string::npos);
  }
}

// The game's PDN reads back with the same moves and result, in our reader and in a strict PDN
// 3.0 reader.
void check_pdn_reads_back(const HubGame& g) {
  const std::vector<PdnGameOrError> read = read_pdn(g.pdn);
  REQUIRE(read.size() == 1);
  INFO(g.pdn);
  REQUIRE(read[0].has_value());
  CHECK(static_cast<int>(read[0]->moves.size()) == g.plies);
  CHECK(read[0]->tag("Result").value_or("") == to_string(g.result));
  CHECK(read[0]->tag("GameType").value_or("") == "26");
  CHECK(read[0]->tag("Termination").has_value());
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(g.pdn);
  INFO((strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  REQUIRE(strict->size() == 1);
  CHECK(strict->front().moves == read[0]->moves);
  CHECK(strict->front().start == read[0]->start);
  CHECK(strict->front().result == to_string(g.result));
}

// The match of `spec` played for one round into its PDN file, then resumed for two.
Expected<HubMatchResult> resumed_after_one_round(HubMatchSpec spec) {
  spec.rounds = 1;
  if (Expected<HubMatchResult> first = run_hub_match(spec); !first) return first;
  spec.rounds = 2;
  spec.resume = true;
  return run_hub_match(spec);
}

}  // namespace

TEST_CASE("Match: first-legal-move engines play every game out with no failure", "[match]") {
  HubMatchSpec spec = match_of({fake("first", "A"), fake("first", "B")}, 2);
  spec.pdn_path = (scratch_dir() / "first.pdn").string();
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 4);
  CHECK(r->total_games == 4);
  CHECK(total_failures(*r, 0) == 0);
  CHECK(total_failures(*r, 1) == 0);
  CHECK(r->pentanomial.pairs() == 2);
  CHECK(r->wins + r->draws + r->losses == 4);
  bool captures = false;
  for (const HubGame& g : r->games) {
    CHECK(g.failure == Failure::None);
    CHECK(g.plies > 10);
    check_pdn_reads_back(g);
    captures = captures || g.pdn.find('x') != std::string::npos;
  }
  CHECK(captures);  // the fake writes captured squares in descending order: accepted
  // The PDN file holds the four games.
  const Expected<std::string> text = read_text_file(spec.pdn_path, "pdn");
  REQUIRE(text.has_value());
  const std::vector<PdnGameOrError> games = read_pdn(*text);
  CHECK(games.size() == 4);
  for (const PdnGameOrError& g : games) CHECK(g.has_value());
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(*text);
  INFO((strict ? "" : strict.error()));
  REQUIRE(strict.has_value());
  CHECK(strict->size() == 4);
}

TEST_CASE("Match: an engine that crashes mid-game loses each game and is restarted with recover", "[match]") {
  const Expected<HubMatchResult> r =
      run_hub_match(match_of({fake("first", "good"), fake("crash", "crasher")}, 2));
  REQUIRE(r.has_value());
  check_all_lost_by(*r, 1, Failure::Crash, 4);
  CHECK(r->games[0].detail.find("exited with status 3") != std::string::npos);
  CHECK(r->stopped.empty());
}

TEST_CASE("Match: without recover a crash stops the match after that game", "[match]") {
  HubMatchSpec spec = match_of({fake("first", "good"), fake("crash", "crasher")}, 2);
  spec.recover = false;
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  CHECK(r->games.size() == 1);
  CHECK(r->stopped.find("crasher crashed") != std::string::npos);
}

TEST_CASE("Match: an engine that never answers loses, is killed and restarted", "[match]") {
  const Expected<HubMatchResult> r = run_hub_match(
      match_of({fake("first", "good"), with_move_time(fake("hang", "hanger", {"2"}), 0.1, 0.05)}, 1));
  REQUIRE(r.has_value());
  check_all_lost_by(*r, 1, Failure::Hang, 2);
}

TEST_CASE("Match: a done after the time and margin is a time loss", "[match]") {
  const Expected<HubMatchResult> r = run_hub_match(
      match_of({fake("first", "good"), with_move_time(fake("late", "slow", {"2", "300"}), 0.1, 0.05)}, 1));
  REQUIRE(r.has_value());
  check_all_lost_by(*r, 1, Failure::TimeLoss, 2);
}

TEST_CASE("Match: a done within the margin is not late", "[match]") {
  // Asked for 0.05 s, answers after 0.15 s; the margin is 2 s.
  const Expected<HubMatchResult> r = run_hub_match(
      match_of({fake("first", "good"), with_move_time(fake("late", "slow", {"2", "150"}), 0.05, 2)}, 1));
  REQUIRE(r.has_value());
  CHECK(total_failures(*r, 1) == 0);
}

TEST_CASE("Match: an illegal move loses", "[match]") {
  const Expected<HubMatchResult> r =
      run_hub_match(match_of({fake("illegal", "bad"), fake("first", "good")}, 1));
  REQUIRE(r.has_value());
  check_all_lost_by(*r, 0, Failure::IllegalMove, 2);
  CHECK(r->games[0].detail.find("'1-2'") != std::string::npos);
}

TEST_CASE("Match: garbage lines are ignored but a garbage move loses", "[match]") {
  const Expected<HubMatchResult> noisy =
      run_hub_match(match_of({fake("noisy", "noisy"), fake("first", "good")}, 1));
  REQUIRE(noisy.has_value());
  CHECK(total_failures(*noisy, 0) == 0);
  const Expected<HubMatchResult> r =
      run_hub_match(match_of({fake("garbage", "garbage"), fake("first", "good")}, 1));
  REQUIRE(r.has_value());
  check_all_lost_by(*r, 0, Failure::IllegalMove, 2);
}

TEST_CASE("Match: an error answer to a legal command loses", "[match]") {
  const Expected<HubMatchResult> r =
      run_hub_match(match_of({fake("first", "good"), fake("error", "confused")}, 1));
  REQUIRE(r.has_value());
  check_all_lost_by(*r, 1, Failure::ErrorAnswer, 2);
  CHECK(r->games[0].detail.find("confused") != std::string::npos);
}

TEST_CASE("Match: an engine in the a1 numbering plays when told so", "[match]") {
  MatchEngine a1 = fake("a1", "a1");
  a1.spec.numbering = Numbering::A1;
  const Expected<HubMatchResult> r = run_hub_match(match_of({a1, fake("first", "good")}, 1));
  REQUIRE(r.has_value());
  CHECK(total_failures(*r, 0) == 0);
  CHECK(total_failures(*r, 1) == 0);
}

TEST_CASE("Match: an engine that cannot start stops the match with its name", "[match]") {
  MatchEngine missing = fake("first", "ghost");
  missing.spec.process.command = "/nonexistent/engine";
  Expected<HubMatchResult> r = run_hub_match(match_of({fake("first", "good"), missing}, 1));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().find("ghost") != std::string::npos);
  CHECK(r.error().find("No such file") != std::string::npos);

  r = run_hub_match(match_of({fake("nostart", "quitter"), fake("first", "good")}, 1));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().find("quitter") != std::string::npos);
  CHECK(r.error().find("exited with status 1") != std::string::npos);

  MatchEngine silent = fake("nowait", "silent");
  silent.spec.start_timeout = 0.3;
  r = run_hub_match(match_of({fake("first", "good"), silent}, 1));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().find("no `wait`") != std::string::npos);

  r = run_hub_match(match_of({fake("novariant", "tenbyten"), fake("first", "good")}, 1));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().find("brazilian") != std::string::npos);
}

TEST_CASE("Match: engine stderr goes to the log file", "[match]") {
  HubMatchSpec spec = match_of({fake("stderr", "talker"), fake("first", "good")}, 1);
  spec.log_path = (scratch_dir() / "stderr.log").string();
  fs::remove(spec.log_path);
  REQUIRE(run_hub_match(spec).has_value());
  const Expected<std::string> log = read_text_file(spec.log_path, "log");
  REQUIRE(log.has_value());
  CHECK(log->find("fake engine: thinking") != std::string::npos);
}

TEST_CASE("Match: draw and resign adjudication by score", "[match]") {
  HubMatchSpec draw = match_of({fake("first", "A"), fake("first", "B")}, 1);
  draw.draw = DrawAdjudication{1, 2, 10};
  const Expected<HubMatchResult> d = run_hub_match(draw);
  REQUIRE(d.has_value());
  for (const HubGame& g : d->games) {
    CHECK(g.result == GameResult::Draw);
    CHECK(g.termination == "adjudication: draw by score");
    CHECK(g.plies == 4);  // two moves each with |score| <= 0.10
  }
  HubMatchSpec resign = match_of({fake("first", "A"), fake("score", "pessimist")}, 1);
  resign.resign = ResignAdjudication{3, 1000};
  const Expected<HubMatchResult> r = run_hub_match(resign);
  REQUIRE(r.has_value());
  CHECK(r->totals[1].losses == 2);
  for (const HubGame& g : r->games) CHECK(g.termination == "adjudication: resignation");
}

TEST_CASE("Match: each opening is played twice with colours reversed", "[match]") {
  HubMatchSpec spec = match_of({fake("first", "A"), fake("first", "B")}, 3);
  const Expected<std::vector<Opening>> openings =
      load_openings(std::string(DAMAS_SOURCE_DIR) + "/bench/fmjd64-150-ballots.txt", OpeningFormat::Fen);
  REQUIRE(openings.has_value());
  REQUIRE(openings->size() == 150);
  spec.openings = *openings;
  spec.opening_start = 5;
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 6);
  for (std::size_t i = 0; i < 6; i += 2) {
    const HubGame& a = r->games[i];
    const HubGame& b = r->games[i + 1];
    CHECK(a.opening == b.opening);
    CHECK(a.opening == 4 + static_cast<int>(i / 2));
    CHECK(a.white == b.black);
    const std::vector<PdnGameOrError> read = read_pdn(a.pdn);
    REQUIRE(read[0].has_value());
    CHECK(read[0]->start == (*openings)[static_cast<std::size_t>(a.opening)].start);
    CHECK(read[0]->tag("Opening") == (*openings)[static_cast<std::size_t>(a.opening)].name);
  }
}

TEST_CASE("Match: three engines play a round robin", "[match]") {
  HubMatchSpec spec = match_of({fake("first", "A"), fake("first", "B"), fake("illegal", "C")}, 1);
  spec.concurrency = 2;
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  CHECK(r->games.size() == 6);
  for (const EngineTotals& t : r->totals) CHECK(t.games == 4);
  CHECK(failures(*r, 2, Failure::IllegalMove) == 4);
  CHECK(r->totals[2].losses == 4);
}

TEST_CASE("Match: damas against damas through real processes", "[match]") {
  MatchEngine a;
  a.spec.name = "damas";
  a.spec.process = ProcessSpec{DAMAS_BINARY, {"hub"}, "", ""};
  a.tc = TimeControl{TimeControl::Kind::Nodes, 0, 0, 0, 0, 0, 1500};
  MatchEngine b = a;
  b.spec.name = "damas-nolmr";
  b.spec.options = {{"lmr", "false"}, {"hash", "4"}};
  a.spec.options = {{"hash", "4"}};
  HubMatchSpec spec = match_of({a, b}, 10);
  spec.concurrency = 2;
  spec.openings = *load_openings(std::string(DAMAS_SOURCE_DIR) + "/bench/fmjd64-150-ballots.txt");
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 20);
  CHECK(r->wins + r->draws + r->losses == 20);
  CHECK(r->pentanomial.pairs() == 10);
  CHECK(total_failures(*r, 0) == 0);
  CHECK(total_failures(*r, 1) == 0);
  CHECK(r->totals[0].moves_with_depth > 0);
  CHECK(r->totals[0].nodes > 0);
  for (const HubGame& g : r->games) check_pdn_reads_back(g);
}

// ---- Russian draughts (issue 38) -------------------------------------------------------------

namespace {

// Two damas processes at a tiny node budget in a match of `variant`.
HubMatchSpec damas_match(Variant variant, const std::string& log_name) {
  MatchEngine a;
  a.spec.name = "damas-a";
  a.spec.process = ProcessSpec{DAMAS_BINARY, {"hub"}, "", ""};
  a.spec.options = {{"hash", "4"}};
  a.tc = TimeControl{TimeControl::Kind::Nodes, 0, 0, 0, 0, 0, 500};
  MatchEngine b = a;
  b.spec.name = "damas-b";
  HubMatchSpec spec = match_of({a, b}, 2);
  spec.variant = variant;
  spec.debug = true;
  spec.log_path = (scratch_dir() / log_name).string();
  std::filesystem::remove(spec.log_path);
  return spec;
}

}  // namespace

TEST_CASE("Match (russian): damas against damas plays Russian rules and writes GameType 25",
          "[match][russian]") {
  HubMatchSpec spec = damas_match(Variant::Russian, "russian.log");
  // f6 takes e7, is crowned on d8 and goes on over b6 as a king to a5: 11x13, the only legal move
  // by Russian rules (Brazilian: 11x2, the man stops on d8). Then the first FMJD ballot, as Russian.
  const Expected<std::vector<Opening>> crowned = parse_openings(
      "W:W11,30:B4,7,9 | crowned mid-capture\n", "openings", OpeningFormat::Fen, Variant::Russian);
  const Expected<std::vector<Opening>> ballots = load_openings(
      std::string(DAMAS_SOURCE_DIR) + "/bench/fmjd64-150-ballots.txt", OpeningFormat::Auto, Variant::Russian);
  REQUIRE(crowned.has_value());
  REQUIRE(ballots.has_value());
  CHECK(ballots->front().start.variant() == Variant::Russian);
  spec.openings = {crowned->front(), ballots->front()};
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 4);
  CHECK(total_failures(*r, 0) == 0);  // no illegal move, time loss or error by Russian rules
  CHECK(total_failures(*r, 1) == 0);
  for (const HubGame& g : r->games) {
    INFO(g.pdn);
    CHECK(g.pdn.find("[GameType \"25\"]") != std::string::npos);
    const std::vector<PdnGameOrError> read = read_pdn(g.pdn);  // replayed by its GameType's rules
    REQUIRE(read.size() == 1);
    REQUIRE(read[0].has_value());
    CHECK(read[0]->start.variant() == Variant::Russian);
    CHECK(static_cast<int>(read[0]->moves.size()) == g.plies);
    if (g.round == 1) CHECK(g.pdn.find("1. 11x13") != std::string::npos);
  }
  const Expected<std::string> log = read_text_file(spec.log_path, "log");
  REQUIRE(log.has_value());
  CHECK(log->find("[damas-a] > set-param name=variant value=russian") != std::string::npos);
  CHECK(log->find("[damas-b] > set-param name=variant value=russian") != std::string::npos);
}

TEST_CASE("Match (russian): the game is told before the engine's options, so a Russian network loads",
          "[match][russian][learned]") {
  HubMatchSpec spec = damas_match(Variant::Russian, "russian-eval-file.log");
  // A network file for Russian: refused by an engine still playing Brazilian.
  const std::string net = (scratch_dir() / "russian-net.dnn").string();
  {
    LearnedWeights russian = builtin_learned_weights();
    russian.variant = Variant::Russian;
    const std::vector<unsigned char> bytes = learned_weights_to_bytes(russian);
    std::ofstream out(net, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  spec.engines[0].spec.options.emplace_back("eval-file", net);
  const Expected<std::vector<Opening>> ballots = load_openings(
      std::string(DAMAS_SOURCE_DIR) + "/bench/fmjd64-150-ballots.txt", OpeningFormat::Auto, Variant::Russian);
  REQUIRE(ballots.has_value());
  spec.openings = {ballots->front()};
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 4);
  CHECK(total_failures(*r, 0) == 0);
  const Expected<std::string> log = read_text_file(spec.log_path, "log");
  REQUIRE(log.has_value());
  const std::size_t variant = log->find("[damas-a] > set-param name=variant value=russian");
  const std::size_t eval_file = log->find("[damas-a] > set-param name=eval-file");
  REQUIRE(variant != std::string::npos);
  REQUIRE(eval_file != std::string::npos);
  CHECK(variant < eval_file);
  CHECK(log->find("holds a network") == std::string::npos);
}

TEST_CASE("Match (russian): an engine's option.variant of another game is refused before any game",
          "[match][russian]") {
  HubMatchSpec spec = damas_match(Variant::Russian, "contradiction.log");
  spec.engines[1].spec.options.emplace_back("variant", "brazilian");
  Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(),
             Catch::Contains("engine damas-b: option.variant=brazilian contradicts the game played, "
                             "russian (-variant sets the match's game)"));
  // The other way round: a Brazilian match, an engine told Russian.
  spec = damas_match(Variant::Brazilian, "contradiction.log");
  spec.engines[0].spec.options.emplace_back("variant", "russian");
  r = run_hub_match(spec);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(), Catch::Contains("engine damas-a: option.variant=russian contradicts"));
  // Openings of another game than the match's.
  spec = damas_match(Variant::Russian, "contradiction.log");
  spec.openings = *parse_openings("22-18 11-15\n");
  r = run_hub_match(spec);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(), Catch::Contains("opening 1 is a position of brazilian, the match plays russian"));
}

TEST_CASE("Match (russian): an engine that does not offer the variant is refused with its name",
          "[match][russian]") {
  // The fake engine declares variant with the value brazilian only.
  HubMatchSpec spec = match_of({fake("first", "brazilian-only"), fake("first", "other")}, 1);
  spec.variant = Variant::Russian;
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(), Catch::Contains("brazilian-only"));
  CHECK_THAT(r.error(), Catch::Contains("its variant parameter does not offer \"russian\""));
}

TEST_CASE("Match (russian): an engine that declares no variant parameter plays Brazilian only",
          "[match][russian]") {
  HubMatchSpec spec = match_of({fake("noparams", "plain"), fake("first", "other")}, 1);
  spec.games = 1;
  REQUIRE(run_hub_match(spec).has_value());  // Brazilian: taken to be its game, as before
  spec.variant = Variant::Russian;
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(),
             Catch::Contains("plain") &&
                 Catch::Contains("it declares no variant parameter, so it cannot be told to play russian"));
}

TEST_CASE("Match resume (russian): the games of a Russian match's file are found in its schedule",
          "[match][resume][russian]") {
  HubMatchSpec spec = damas_match(Variant::Russian, "resume-russian.log");
  spec.pdn_path = (scratch_dir() / "resume-russian.pdn").string();
  const Expected<HubMatchResult> r = resumed_after_one_round(spec);
  REQUIRE(r.has_value());
  CHECK(r->resumed_games == 2);
  CHECK(r->games.size() == 4);
}

TEST_CASE("Match (russian): a Brazilian match still tells engines variant=brazilian", "[match][russian]") {
  HubMatchSpec spec = damas_match(Variant::Brazilian, "brazilian.log");
  spec.games = 1;
  spec.rounds = 1;
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 1);
  CHECK(r->games[0].pdn.find("[GameType \"26\"]") != std::string::npos);
  const Expected<std::string> log = read_text_file(spec.log_path, "log");
  REQUIRE(log.has_value());
  CHECK(log->find("set-param name=variant value=brazilian") != std::string::npos);
  CHECK(log->find("value=russian") == std::string::npos);
}

// ---- The command line -----------------------------------------------------------------------

namespace {

Expected<HubMatchSpec> spec_from(const std::vector<std::string>& words) {
  std::vector<cli::OptionGroup> groups;
  for (const std::string& w : words) {
    if (w[0] == '-') groups.push_back({w.substr(w.find_first_not_of('-')), {}});
    else groups.back().words.push_back(w);
  }
  return cli::match_spec_from_groups(groups);
}

}  // namespace

TEST_CASE("Match command line: engines, limits and options as cutechess users write them", "[match][cli]") {
  const std::string ballots = std::string(DAMAS_SOURCE_DIR) + "/bench/fmjd64-150-ballots.txt";
  const Expected<HubMatchSpec> s = spec_from({"-engine",
                                              "cmd=/bin/e1",
                                              "args=hub --hash 16",
                                              "name=one",
                                              "option.hash=64",
                                              "numbering=a1",
                                              "-engine",
                                              "cmd=/bin/e2",
                                              "st=0.5",
                                              "-each",
                                              "tc=40/60+0.5",
                                              "timemargin=250",
                                              "-rounds",
                                              "7",
                                              "-games",
                                              "2",
                                              "-repeat",
                                              "-concurrency",
                                              "2",
                                              "-openings",
                                              "file=" + ballots,
                                              "format=fen",
                                              "order=random",
                                              "start=3",
                                              "-sprt",
                                              "elo0=0",
                                              "elo1=5",
                                              "alpha=0.05",
                                              "beta=0.1",
                                              "-draw",
                                              "movenumber=40",
                                              "movecount=8",
                                              "score=10",
                                              "-resign",
                                              "movecount=3",
                                              "score=500",
                                              "-recover",
                                              "-resume",
                                              "-pdnout",
                                              "x.pdn"});
  REQUIRE(s.has_value());
  REQUIRE(s->engines.size() == 2);
  const MatchEngine& one = s->engines[0];
  CHECK(one.spec.name == "one");
  CHECK(one.spec.process.args == std::vector<std::string>{"hub", "--hash", "16"});
  CHECK(one.spec.options == std::vector<std::pair<std::string, std::string>>{{"hash", "64"}});
  CHECK(one.spec.numbering == Numbering::A1);
  CHECK(one.tc.text() == "40/60+0.5");
  CHECK(one.margin == Approx(0.25));
  CHECK(s->engines[1].spec.name == "e2");
  CHECK(s->engines[1].tc.text() == "st=0.5");  // the engine's own limit wins over -each
  CHECK(s->rounds == 7);
  CHECK(s->concurrency == 2);
  CHECK(s->openings.size() == 150);
  CHECK(s->random_order);
  CHECK(s->opening_start == 3);
  CHECK(s->sprt->beta == 0.1);
  CHECK(s->draw->move_number == 40);
  CHECK(s->resign->score == 500);
  CHECK(s->recover);
  CHECK(s->resume);
  CHECK(s->pdn_path == "x.pdn");
  // Same names get numbered.
  const Expected<HubMatchSpec> twins =
      spec_from({"-engine", "cmd=/x/damas", "-engine", "cmd=/x/damas", "-each", "depth=3"});
  REQUIRE(twins.has_value());
  CHECK(twins->engines[1].spec.name == "damas-2");
}

TEST_CASE("Match command line: bad arguments are clear errors", "[match][cli]") {
  const auto error_of = [](const std::vector<std::string>& words) {
    const Expected<HubMatchSpec> s = spec_from(words);
    return s.has_value() ? std::string("accepted") : s.error();
  };
  const std::vector<std::string> two{"-engine", "cmd=a", "-engine", "cmd=b"};
  const auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> w = two;
    w.insert(w.end(), more.begin(), more.end());
    return w;
  };
  CHECK(error_of({"-engine", "cmd=a", "-each", "tc=1"}).find("at least two") != std::string::npos);
  CHECK(error_of({"-engine", "name=x", "-engine", "cmd=b", "-each", "tc=1"}).find("cmd=") !=
        std::string::npos);
  CHECK(error_of(two).find("no limit per move") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-resume", "x"})).find("resume") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=fast"})).find("bad time control") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "colour=red"})).find("unknown key") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "hash"})).find("key=value") != std::string::npos);
  CHECK(error_of(with({"-each", "depth=0"})).find("depth") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-rounds", "many"})).find("-rounds") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-games"})).find("one value") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-sprt", "elo0=5", "elo1=0"})).find("elo0") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-openings", "file=/nonexistent"})).find("cannot open") !=
        std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-openings", "file=x", "format=epub"})).find("format") !=
        std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-draw", "movecount=3"})).find("score=") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-recover", "yes"})).find("no value") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "proto=uci"})).find("hub") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1", "-engine", "cmd=c", "-sprt", "elo0=0", "elo1=5"}))
            .find("two engines") != std::string::npos);
  CHECK(error_of(with({"-each", "tc=1"})) == "accepted");
}

TEST_CASE("Match command line: time controls", "[match][cli]") {
  CHECK(parse_time_control("10+0.1")->text() == "10+0.1");
  CHECK(parse_time_control("60")->increment == 0);
  CHECK(parse_time_control("40/60+1")->moves == 40);
  CHECK(parse_time_control("1:30+2")->base == 90);
  for (const char* bad : {"", "+1", "0+1", "-5", "10+", "10+x", "0/60", "1.5/60", "a/b"})
    CHECK_FALSE(parse_time_control(bad).has_value());
}

TEST_CASE("Match command line: the real binary exits 1 when an engine cannot start, 2 on a bad argument",
          "[match][cli]") {
  const std::string log = (scratch_dir() / "cli.log").string();
  const std::string base = std::string(DAMAS_BINARY) + " match -log " + log +
                           " --engine cmd=" + FAKE_HUB_ENGINE + " args=first -each nodes=10 ";
  const int missing = std::system((base + "-engine cmd=/nonexistent/x name=ghost > /dev/null 2>&1").c_str());
  CHECK(WEXITSTATUS(missing) == 1);
  const int bad = std::system((base + "-engine cmd=/x -rounds zero > /dev/null 2>&1").c_str());
  CHECK(WEXITSTATUS(bad) == 2);
  const int ok = std::system(
      (base + "-engine cmd=" + FAKE_HUB_ENGINE + " args=first -rounds 1 > " + log + ".out 2>&1").c_str());
  CHECK(WEXITSTATUS(ok) == 0);
  const Expected<std::string> out = read_text_file(log + ".out", "output");
  REQUIRE(out.has_value());
  CHECK(out->find("W-D-L") != std::string::npos);
  CHECK(out->find("runner CPU") != std::string::npos);
}

TEST_CASE("Match: the SPRT stops the match once H1 is accepted", "[match][sprt]") {
  // The broken engine loses only the games that last 30 of its moves: a clear but noisy edge.
  HubMatchSpec spec = match_of({fake("first", "good"), fake("illegal", "bad", {"30"})}, 150);
  spec.openings = *load_openings(std::string(DAMAS_SOURCE_DIR) + "/bench/fmjd64-150-ballots.txt");
  spec.sprt = SprtConfig{0, 10, 0.05, 0.05};
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->sprt.has_value());
  CHECK(r->sprt->verdict == SprtVerdict::AcceptH1);
  CHECK(r->sprt->llr >= r->sprt->upper);
  CHECK(static_cast<int>(r->games.size()) < r->total_games);
  CHECK(r->sprt->llr == Approx(sprt_from_pairs(r->pentanomial, *spec.sprt).llr));
}

// ---- -resume: an interrupted match goes on ------------------------------------------------------

namespace {

std::string without_dates(const std::string& pdn) {
  std::string out;
  std::istringstream in(pdn);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("[Date ", 0) != 0) out += line + "\n";
  return out;
}

std::string file_text(const std::string& path) {
  const Expected<std::string> text = read_text_file(path, "pdn");
  REQUIRE(text.has_value());
  return *text;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

// Where each game of a match's PDN text starts (its Event tag).
std::vector<std::size_t> game_starts(const std::string& text) {
  std::vector<std::size_t> starts;
  for (std::size_t at = text.find("[Event "); at != std::string::npos; at = text.find("[Event ", at + 1))
    starts.push_back(at);
  return starts;
}

// The match resumed; `played_now` gets the numbers of the games played (not read back).
Expected<HubMatchResult> run_resumed(HubMatchSpec spec, std::vector<int>& played_now) {
  spec.resume = true;
  played_now.clear();
  return run_hub_match(spec,
                       [&](const HubGame& g, const HubMatchResult&) { played_now.push_back(g.number); });
}

// Four rounds of two first-legal-move engines from the FMJD ballots, written to `pdn`.
HubMatchSpec resumable_match(const std::string& pdn) {
  HubMatchSpec spec = match_of({fake("first", "A"), fake("first", "B")}, 4);
  spec.openings = *load_openings(std::string(DAMAS_SOURCE_DIR) + "/bench/fmjd64-150-ballots.txt");
  spec.pdn_path = pdn;
  return spec;
}

}  // namespace

TEST_CASE("Match resume: a match cut off in its sixth game goes on to the same games and standing",
          "[match][resume]") {
  const std::string full_path = (scratch_dir() / "resume-full.pdn").string();
  const Expected<HubMatchResult> full = run_hub_match(resumable_match(full_path));
  REQUIRE(full.has_value());
  REQUIRE(full->games.size() == 8);
  const std::string full_text = file_text(full_path);

  // The interruption: five games written, the sixth cut in its move text.
  const std::vector<std::size_t> starts = game_starts(full_text);
  REQUIRE(starts.size() == 8);
  const std::size_t cut = full_text.find("\n\n", starts[5]) + 40;
  const std::string cut_path = (scratch_dir() / "resume-cut.pdn").string();
  write_file(cut_path, full_text.substr(0, cut));

  const HubMatchSpec spec = resumable_match(cut_path);
  std::vector<int> played_now;
  const Expected<HubMatchResult> resumed = run_resumed(spec, played_now);
  REQUIRE(resumed.has_value());
  CHECK(resumed->resumed_games == 5);
  REQUIRE(resumed->resume_dropped_line.has_value());
  CHECK(played_now == std::vector<int>{6, 7, 8});
  CHECK(resumed->games.size() == 8);
  CHECK(resumed->total_games == 8);
  CHECK(resumed->wins == full->wins);
  CHECK(resumed->draws == full->draws);
  CHECK(resumed->losses == full->losses);
  CHECK(resumed->pentanomial.count == full->pentanomial.count);
  CHECK(resumed->pentanomial.pairs() == 4);
  CHECK(without_dates(file_text(cut_path)) == without_dates(full_text));

  // Resumed again once complete: nothing is played, the standing is the same.
  const Expected<HubMatchResult> again = run_resumed(spec, played_now);
  REQUIRE(again.has_value());
  CHECK(played_now.empty());
  CHECK(again->resumed_games == 8);
  CHECK_FALSE(again->resume_dropped_line.has_value());
  CHECK(again->pentanomial.count == full->pentanomial.count);
}

TEST_CASE("Match resume: a pair whose second game is in the file and first is not is completed",
          "[match][resume]") {
  const std::string full_path = (scratch_dir() / "resume-pair.pdn").string();
  const Expected<HubMatchResult> full = run_hub_match(resumable_match(full_path));
  REQUIRE(full.has_value());
  // Game 3 (the first of round 2) taken out of the file.
  const std::string text = file_text(full_path);
  const std::vector<std::size_t> starts = game_starts(text);
  REQUIRE(starts.size() == 8);
  write_file(full_path, text.substr(0, starts[2]) + text.substr(starts[3]));
  std::vector<int> played_now;
  const Expected<HubMatchResult> resumed = run_resumed(resumable_match(full_path), played_now);
  REQUIRE(resumed.has_value());
  CHECK(played_now == std::vector<int>{3});
  CHECK(resumed->pentanomial.count == full->pentanomial.count);
  CHECK(resumed->wins == full->wins);
  CHECK(resumed->losses == full->losses);
}

TEST_CASE("Match resume: failures in the file count against the engine that failed", "[match][resume]") {
  HubMatchSpec spec = match_of({fake("first", "good"), fake("illegal", "bad")}, 1);
  spec.pdn_path = (scratch_dir() / "resume-failures.pdn").string();
  const Expected<HubMatchResult> r = resumed_after_one_round(spec);
  REQUIRE(r.has_value());
  CHECK(r->resumed_games == 2);
  check_all_lost_by(*r, 1, Failure::IllegalMove, 4);
  CHECK(r->games[0].detail.find("1-2") != std::string::npos);
}

TEST_CASE("Match resume: another match's file or a broken game before the last is refused, untouched",
          "[match][resume]") {
  const std::string path = (scratch_dir() / "resume-refused.pdn").string();
  REQUIRE(run_hub_match(resumable_match(path)).has_value());
  const std::string text = file_text(path);
  const auto error_of = [&](HubMatchSpec spec) {
    spec.resume = true;
    const Expected<HubMatchResult> r = run_hub_match(spec);
    return r.has_value() ? std::string("accepted") : r.error();
  };

  HubMatchSpec renamed = resumable_match(path);
  renamed.engines[1].spec.name = "C";
  CHECK(error_of(renamed).find("not a game of this match") != std::string::npos);
  HubMatchSpec slower = resumable_match(path);
  slower.engines[0].tc.base = 20;
  CHECK(error_of(slower).find("played at 10+0.1") != std::string::npos);
  HubMatchSpec other_openings = resumable_match(path);
  other_openings.opening_start = 2;
  CHECK(error_of(other_openings).find("not a game of this match") != std::string::npos);
  HubMatchSpec no_file = resumable_match("");
  CHECK(error_of(no_file).find("-pdnout") != std::string::npos);
  HubMatchSpec same_names = resumable_match(path);
  same_names.engines[1].spec.name = "A";
  CHECK(error_of(same_names).find("distinct engine names") != std::string::npos);
  CHECK(file_text(path) == text);

  // A bad move in the second game: the file is refused as it is.
  const std::size_t second = text.find("[Event ", 1);
  const std::size_t moves = text.find("\n\n", second) + 2;
  write_file(path, text.substr(0, moves) + "99-98 " + text.substr(moves));
  const std::string broken = file_text(path);
  const std::string error = error_of(resumable_match(path));
  CHECK(error.find("the game starting here is broken") != std::string::npos);
  CHECK(error.find("99") != std::string::npos);
  CHECK(file_text(path) == broken);

  // Text that is not a match's PDN.
  write_file(path, "not a PDN file\n");
  CHECK(error_of(resumable_match(path)).find("not a game of damas match") != std::string::npos);
}

TEST_CASE("Match resume: without a file the match starts from its first game", "[match][resume]") {
  const std::string path = (scratch_dir() / "resume-new.pdn").string();
  fs::remove(path);
  HubMatchSpec spec = resumable_match(path);
  spec.resume = true;
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  CHECK(r->resumed_games == 0);
  CHECK(r->games.size() == 8);
  const Expected<std::vector<strict_pdn::Game>> strict = strict_pdn::read(file_text(path));
  REQUIRE(strict.has_value());
  CHECK(strict->size() == 8);
}

// ---- The referee's draw laws (-draw-rules) -------------------------------------------------------

namespace {

// An opening that starts at `fen` and plays quiet moves (no capture offered, no position seen
// before) until `plies` are played: the game is then where a law's count runs out. With
// `lone_king_on_diagonal` true the long diagonal holds the lone king alone all the way; false
// keeps the lone king off it.
Opening quiet_opening(const char* fen, int plies, std::optional<bool> lone_king_on_diagonal = {}) {
  const Expected<Position> start = parse_fen(fen);
  REQUIRE(start.has_value());
  Opening o{*start, {}, fen, fen};
  Position p = *start;
  std::vector<Key> seen{p.key()};
  for (int i = 0; i < plies; ++i) {
    MoveList moves;
    generate_legal_moves(p, moves);
    const Move* chosen = nullptr;
    for (const Move& m : moves) {
      const Position next = p.after(m);
      if (has_capture(next) || std::find(seen.begin(), seen.end(), next.key()) != seen.end()) continue;
      const bool lone = popcount(p.pieces(p.side_to_move())) == 1;
      const bool on_diagonal = (next.pieces(p.side_to_move()) & fmjd64::kLongDiagonalSquares) != 0;
      if (lone_king_on_diagonal && lone && on_diagonal != *lone_king_on_diagonal) continue;
      if (lone_king_on_diagonal && *lone_king_on_diagonal && !lone && on_diagonal) continue;
      chosen = &m;
      break;
    }
    INFO(fen << " ply " << i);
    REQUIRE(chosen != nullptr);
    o.moves.push_back(*chosen);
    p = p.after(*chosen);
    seen.push_back(p.key());
  }
  return o;
}

HubGame referee_game(const Opening& opening, DrawRules rules) {
  HubMatchSpec spec = match_of({fake("first", "A"), fake("first", "B")}, 1);
  spec.openings = {opening};
  spec.games = 1;
  spec.draw_rules = rules;
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 1);
  return r->games.front();
}

void check_drawn_by(const Opening& opening, const std::string& article) {
  const HubGame g = referee_game(opening, DrawRules::Fmjd64);
  INFO(g.pdn);
  CHECK(g.result == GameResult::Draw);
  CHECK(g.termination.rfind("FMJD-64 " + article + ":", 0) == 0);
  CHECK(g.plies == static_cast<int>(opening.moves.size()));  // drawn before an engine moved
  CHECK(g.pdn.find("[DrawRules \"fmjd64\"]") != std::string::npos);
  CHECK(g.pdn.find("[Termination \"FMJD-64 " + article) != std::string::npos);
  check_pdn_reads_back(g);
  // The seed's laws do not know the article: the game goes on (past 80 plies their own count
  // has ended it already).
  const HubGame seed = referee_game(opening, DrawRules::Seed);
  CHECK(seed.termination.find("FMJD-64") == std::string::npos);
  if (opening.moves.size() < static_cast<std::size_t>(rules::kNoProgressDrawPlies))
    CHECK(seed.plies > static_cast<int>(opening.moves.size()));
  CHECK(seed.pdn.find("[DrawRules \"seed\"]") != std::string::npos);
}

}  // namespace

TEST_CASE("Match referee: FMJD-64 7.2.8, two pieces with a king against a lone king, 5 moves",
          "[match][laws]") {
  check_drawn_by(quiet_opening("W:WK1,K3:BK30", 10), "7.2.8");
}

TEST_CASE("Match referee: FMJD-64 7.2.7, the lone king's 5 moves on the long diagonal", "[match][laws]") {
  // White's three kings stay off the long diagonal, Black's king moves along it.
  check_drawn_by(quiet_opening("W:WK1,K2,K3:BK29", 10, true), "7.2.7");
}

TEST_CASE("Match referee: FMJD-64 7.2.4, three kings against a lone king, 15 moves", "[match][laws]") {
  check_drawn_by(quiet_opening("W:WK1,K2,K3:BK30", 30, false), "7.2.4");
}

TEST_CASE("Match referee: FMJD-64 7.2.6, four and five pieces with kings on both sides, 30 moves",
          "[match][laws]") {
  check_drawn_by(quiet_opening("W:WK1,K2:BK31,K32", 60), "7.2.6");
}

TEST_CASE("Match referee: FMJD-64 7.2.6, six and seven pieces with kings on both sides, 60 moves",
          "[match][laws]") {
  check_drawn_by(quiet_opening("W:WK1,K2,K3:BK30,K31,K32", 120), "7.2.6");
}

TEST_CASE("Match referee: FMJD-64 7.2.5, only kings moved with kings on both sides, 15 moves",
          "[match][laws]") {
  check_drawn_by(quiet_opening("W:WK1,K2,K3,K4:BK29,K30,K31,K32", 30), "7.2.5");
}

TEST_CASE("Match referee: -draw-rules is sent to engines that declare the parameter", "[match][laws]") {
  HubMatchSpec spec = match_of({fake("rules", "declares"), fake("first", "silent")}, 1);
  spec.games = 1;
  spec.draw_rules = DrawRules::Fmjd64;
  spec.debug = true;
  spec.log_path = (scratch_dir() / "rules.log").string();
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  const Expected<std::string> log = read_text_file(spec.log_path, "log");
  REQUIRE(log.has_value());
  CHECK(log->find("[declares] > set-param name=draw-rules value=fmjd64") != std::string::npos);
  CHECK(log->find("[silent] > set-param name=draw-rules") == std::string::npos);
  // An option the user gave wins over the referee's.
  spec.engines[0].spec.options = {{"draw-rules", "seed"}};
  std::filesystem::remove(spec.log_path);
  REQUIRE(run_hub_match(spec).has_value());
  const Expected<std::string> again = read_text_file(spec.log_path, "log");
  REQUIRE(again.has_value());
  CHECK(again->find("[declares] > set-param name=draw-rules value=seed") != std::string::npos);
  CHECK(again->find("value=fmjd64") == std::string::npos);
}

TEST_CASE("Match referee: a start's count (lidraughts' H) is told to engines that declare draw-rules",
          "[match][laws]") {
  Opening opening = quiet_opening("W:WK1,K3:BK30", 2);
  opening.start_plies = 4;  // 7.2.8 draws at 10: four plies are left
  HubMatchSpec spec = match_of({fake("rules", "declares"), fake("first", "silent")}, 1);
  spec.openings = {opening};
  spec.games = 1;
  spec.draw_rules = DrawRules::Fmjd64;
  spec.debug = true;
  spec.log_path = (scratch_dir() / "count.log").string();
  std::filesystem::remove(spec.log_path);
  const Expected<HubMatchResult> r = run_hub_match(spec);
  REQUIRE(r.has_value());
  REQUIRE(r->games.size() == 1);
  const HubGame& g = r->games.front();
  CHECK(g.failure == Failure::None);
  CHECK(g.termination.rfind("FMJD-64 7.2.8:", 0) == 0);
  CHECK(g.plies == 6);
  const Expected<std::string> log = read_text_file(spec.log_path, "log");
  REQUIRE(log.has_value());
  CHECK(log->find("[declares] > pos pos=" + to_fen(opening.start) + ":H4 moves=") != std::string::npos);
  CHECK(log->find("[silent] > pos pos=" + to_hub_position(opening.start) + " moves=") != std::string::npos);
}

TEST_CASE("Match command line: -draw-rules", "[match][cli]") {
  const auto spec_of = [](std::vector<std::string> words) {
    std::vector<cli::OptionGroup> groups{{"engine", {"cmd=a", "depth=1"}}, {"engine", {"cmd=b", "depth=1"}}};
    groups.push_back(cli::OptionGroup{"draw-rules", std::move(words)});
    return cli::match_spec_from_groups(groups);
  };
  const Expected<HubMatchSpec> fmjd = spec_of({"fmjd64"});
  REQUIRE(fmjd.has_value());
  CHECK(fmjd->draw_rules == DrawRules::Fmjd64);
  CHECK(spec_of({"seed"})->draw_rules == DrawRules::Seed);
  const Expected<HubMatchSpec> bad = spec_of({"lidraughts"});
  REQUIRE_FALSE(bad.has_value());
  CHECK_THAT(bad.error(), Catch::Contains("-draw-rules takes seed, fmjd64 or portuguese"));
}

TEST_CASE("Match command line: -variant is the game of the referee and of the openings",
          "[match][cli][russian]") {
  const std::string ballots = "file=" + std::string(DAMAS_SOURCE_DIR) + "/bench/fmjd64-150-ballots.txt";
  const std::vector<std::string> two{"-engine", "cmd=a", "depth=1", "-engine", "cmd=b", "depth=1"};
  const auto with = [&](std::vector<std::string> words) {
    words.insert(words.begin(), two.begin(), two.end());
    return spec_from(words);
  };
  // Wherever -variant stands, the openings are read as its positions.
  const Expected<HubMatchSpec> russian = with({"-openings", ballots, "-variant", "russian"});
  REQUIRE(russian.has_value());
  CHECK(russian->variant == Variant::Russian);
  REQUIRE(russian->openings.size() == 150);
  CHECK(russian->openings.front().start.variant() == Variant::Russian);
  const Expected<HubMatchSpec> brazilian = with({"-openings", ballots});
  REQUIRE(brazilian.has_value());
  CHECK(brazilian->variant == Variant::Brazilian);
  CHECK(brazilian->openings.front().start.variant() == Variant::Brazilian);
  const Expected<HubMatchSpec> bad = with({"-variant", "italian"});
  REQUIRE_FALSE(bad.has_value());
  CHECK_THAT(
      bad.error(),
      Catch::Contains("-variant takes brazilian russian spanish portuguese pool czech, not \"italian\""));
}

TEST_CASE("Match command line: an option.variant of another game than -variant is a bad argument",
          "[match][cli][russian]") {
  const Expected<HubMatchSpec> bad =
      spec_from({"-engine", "cmd=a", "name=a", "option.variant=brazilian", "-engine", "cmd=b", "-each",
                 "depth=1", "-variant", "russian"});
  REQUIRE_FALSE(bad.has_value());
  CHECK_THAT(bad.error(),
             Catch::Contains("engine a: option.variant=brazilian contradicts the game played, russian"));
  CHECK(spec_from({"-engine", "cmd=a", "option.variant=russian", "-engine", "cmd=b", "-each", "depth=1",
                   "-variant", "russian"})
            .has_value());
}

// ---- The games of the rules table: default openings (issue 49) --------------------------------

namespace {

constexpr Variant kNewGames[] = {Variant::Spanish, Variant::Portuguese, Variant::Pool, Variant::Czech};

Expected<std::vector<Opening>> default_openings(Variant v) {
  return load_openings(cli::data_file(default_openings_file(v)), OpeningFormat::Auto, v);
}

}  // namespace

TEST_CASE("Openings: each game's default file loads as positions of that game", "[match]") {
  CHECK(default_openings_file(Variant::Brazilian) == "openings.txt");
  CHECK(default_openings_file(Variant::Russian) == "fmjd64-150-ballots.txt");
  CHECK(default_openings_file(Variant::Spanish) == "openings-spanish.txt");
  CHECK(default_openings_file(Variant::Czech) == "openings-czech.txt");
  for (const Variant v : kVariants) {
    INFO(to_string(v));
    const Expected<std::vector<Opening>> openings = default_openings(v);
    REQUIRE(openings.has_value());
    CHECK(openings->size() >= 50);
    std::set<Key> seen;
    for (const Opening& o : *openings) {
      CHECK(o.start.variant() == v);
      const Position p = o.position();
      CHECK(p.variant() == v);
      CHECK(has_legal_move(p));
      if (v != Variant::Brazilian && v != Variant::Russian) {
        CHECK(seen.insert(p.key()).second);    // one line per position
        CHECK(o.start == Position::start(v));  // lines of moves from the game's start
        CHECK(o.moves.size() == 4);
      }
    }
  }
}

TEST_CASE("Match command line: without -openings a match plays its game's default openings", "[match][cli]") {
  for (const Variant v : kVariants) {
    INFO(to_string(v));
    const Expected<HubMatchSpec> s = spec_from(
        {"-engine", "cmd=a", "-engine", "cmd=b", "-each", "depth=1", "-variant", std::string(to_string(v))});
    REQUIRE(s.has_value());
    const Expected<std::vector<Opening>> expected = default_openings(v);
    REQUIRE(expected.has_value());
    REQUIRE(s->openings.size() == expected->size());
    CHECK(s->openings.front().position() == expected->front().position());
    CHECK(s->openings.back().position() == expected->back().position());
  }
  // -openings given: that file only.
  const Expected<HubMatchSpec> given =
      spec_from({"-engine", "cmd=a", "-engine", "cmd=b", "-each", "depth=1", "-openings",
                 "file=" + std::string(DAMAS_SOURCE_DIR) + "/bench/openings-wide.txt"});
  REQUIRE(given.has_value());
  CHECK(given->openings.size() == 200);
}

TEST_CASE("Match: damas against damas plays Spanish, Portuguese, Pool and Czech, each told to both engines",
          "[match]") {
  for (const Variant v : kNewGames) {
    const std::string name(to_string(v));
    INFO(name);
    HubMatchSpec spec = damas_match(v, name + ".log");
    const Expected<std::vector<Opening>> openings = default_openings(v);
    REQUIRE(openings.has_value());
    spec.openings = {(*openings)[0], (*openings)[1]};
    const Expected<HubMatchResult> r = run_hub_match(spec);
    REQUIRE(r.has_value());
    REQUIRE(r->games.size() == 4);
    CHECK(total_failures(*r, 0) == 0);  // no illegal move, time loss or error by the game's rules
    CHECK(total_failures(*r, 1) == 0);
    for (const HubGame& g : r->games) {
      INFO(g.pdn);
      CHECK(g.result != GameResult::Ongoing);
      const std::vector<PdnGameOrError> read = read_pdn(g.pdn);  // replayed by its GameType's rules
      REQUIRE(read.size() == 1);
      REQUIRE(read[0].has_value());
      CHECK(read[0]->start.variant() == v);
      CHECK(static_cast<int>(read[0]->moves.size()) == g.plies);
    }
    const Expected<std::string> log = read_text_file(spec.log_path, "log");
    REQUIRE(log.has_value());
    CHECK(log->find("[damas-a] > set-param name=variant value=" + name) != std::string::npos);
    CHECK(log->find("[damas-b] > set-param name=variant value=" + name) != std::string::npos);
  }
}

TEST_CASE("Balanced openings: every line of a few plies, one per position, shuffled by the seed", "[match]") {
  const Position start = Position::start();
  const std::vector<OpeningLine> two = opening_lines(start, 2, 1);
  CHECK(two.size() == 49);  // 7 first moves, 7 answers each, no transposition yet
  const std::vector<OpeningLine> four = opening_lines(start, 4, 1);
  const std::vector<OpeningLine> again = opening_lines(start, 4, 1);
  const std::vector<OpeningLine> other = opening_lines(start, 4, 2);
  REQUIRE(four.size() == again.size());
  REQUIRE(four.size() == other.size());
  std::set<Key> seen;
  std::set<Key> seen_other;
  bool same_order = true;
  for (std::size_t i = 0; i < four.size(); ++i) {
    CHECK(four[i].moves.size() == 4);
    CHECK(four[i].moves == again[i].moves);  // the same seed, the same order
    same_order = same_order && four[i].moves == other[i].moves;
    Position p = start;
    for (const Move& m : four[i].moves) p = p.after(m);
    CHECK(p == four[i].position);
    CHECK(seen.insert(p.key()).second);  // each position once
    seen_other.insert(other[i].position.key());
  }
  CHECK_FALSE(same_order);
  CHECK(seen == seen_other);             // another seed: the same positions in another order
  CHECK(four.size() < perft(start, 4));  // fewer than the lines: transpositions are one position
}

TEST_CASE("Balanced openings: kept within the margin, in order, up to the count", "[match]") {
  const Position start = Position::start(Variant::Spanish);
  const std::vector<OpeningLine> lines = opening_lines(start, 3, 7);
  REQUIRE(lines.size() > 10);
  // A scorer that finds every third line lost for the side to move (Black after three plies).
  std::size_t calls = 0;
  const PositionScorer score = [&](const Position& p) {
    CHECK(p.side_to_move() == Color::Black);
    return Score(calls++ % 3 == 2 ? -50 : 5);
  };
  std::size_t tried = 0;
  const std::vector<BalancedOpening> kept = select_balanced(lines, score, 10, 6, &tried);
  REQUIRE(kept.size() == 6);
  CHECK(tried == 8);  // the 3rd and 6th were out of the margin
  CHECK(kept[0].line.moves == lines[0].moves);
  CHECK(kept[2].line.moves == lines[3].moves);
  CHECK(kept[0].white == -5);  // White's view
  CHECK(balanced(-10, 10));
  CHECK_FALSE(balanced(11, 10));
  // The file's lines read back as the same positions of the game, in its own numbering.
  std::string text;
  for (const BalancedOpening& o : kept) text += balanced_opening_text(start, o) + "\n";
  CHECK_THAT(text, Catch::Contains("# white -0.05"));
  const Expected<std::vector<Opening>> read =
      parse_openings(text, "o", OpeningFormat::Auto, Variant::Spanish);
  INFO(text);
  REQUIRE(read.has_value());
  REQUIRE(read->size() == kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) CHECK((*read)[i].position() == kept[i].line.position);
  // Every line kept when the count is 0.
  CHECK(select_balanced(
            lines, [](const Position&) { return Score(0); }, 0, 0)
            .size() == lines.size());
}
