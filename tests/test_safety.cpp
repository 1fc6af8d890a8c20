#include <catch2/catch.hpp>

#include <algorithm>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/match/safety_check.h"
#include "damas/match/safety_mine.h"
#include "damas/match/safety_set.h"
#include "damas/match/safety_verify.h"

using namespace damas;

namespace {

// Black to move; 8-11 walks into 18-14 and a combination (found by `damas safety mine` at 3000 nodes
// a move, verified at 90000): 1-6 keeps the material.
constexpr const char* kShotFen = "B:W18,19,20,21,22,26,27,32:B1,3,7,8,10,12,13,28";

Move move_of(const Position& p, const char* text) {
  const Expected<Move> m = parse_hub_move(p, text);
  REQUIRE(m.has_value());
  return *m;
}

Position position_of(const char* fen) {
  const Expected<Position> p = parse_fen(fen);
  REQUIRE(p.has_value());
  return *p;
}

bool says(const std::string& error, const std::string& part) { return error.find(part) != std::string::npos; }

// A set of one position that parses (the scores are made up; the reader checks their consistency).
const char* const kOneLine =
    "# a header\n"
    "#   second line\n"
    "safety-set 1\n"
    "B:W18,19,20,21,22,26,27,32:B1,3,7,8,10,12,13,28 | refuted 8-11/-529 7-11/-560 | best 1-6/-9 | "
    "line 8-11 18-14 | game B:W18,19,20,21,22,26,27,32:B1,3,7,8,10,12,13,28 | test source\n";

std::string with_position_line(const std::string& line) { return "safety-set 1\n" + line + "\n"; }

}  // namespace

TEST_CASE("safety: a man lost is a man, a win is a win", "[safety]") {
  CHECK(loses_a_man(50, -50));
  CHECK_FALSE(loses_a_man(50, -49));
  CHECK(loses_a_man(win_in(9), 0));
  CHECK_FALSE(loses_a_man(win_in(3), win_in(9)));    // both win
  CHECK_FALSE(loses_a_man(loss_in(9), loss_in(3)));  // both lose
  CHECK(loses_a_man(0, loss_in(20)));
}

TEST_CASE("safety set: the writer and the reader agree", "[safety]") {
  const Expected<SafetySet> set = parse_safety_set(kOneLine, "t.txt");
  REQUIRE(set.has_value());
  REQUIRE(set->positions.size() == 1);
  const SafetyPosition& p = set->positions.front();
  CHECK(set->header == std::vector<std::string>{"# a header", "#   second line"});
  CHECK(to_hub_move(p.played()) == "8-11");
  CHECK(p.refuted.size() == 2);
  CHECK(p.refuted[1].score == -560);
  CHECK(to_hub_move(p.best.move) == "1-6");
  CHECK(p.best.score == -9);
  CHECK(p.line.size() == 2);
  CHECK(p.source == "test source");
  CHECK(p.line_number == 4);
  CHECK(p.is_refuted(move_of(p.position, "7-11")));
  CHECK_FALSE(p.is_refuted(p.best.move));
  CHECK(format_safety_set(*set) == kOneLine);

  // An empty set is a set; a header line without '#' is written as a comment.
  SafetySet empty;
  empty.header = {"made in a test"};
  const Expected<SafetySet> again = parse_safety_set(format_safety_set(empty));
  REQUIRE(again.has_value());
  CHECK(again->positions.empty());
  CHECK(again->header == std::vector<std::string>{"# made in a test"});
}

TEST_CASE("safety set: malformed input is refused with its line", "[safety]") {
  struct Case {
    std::string text;
    std::string says;
  };
  const std::string fen = std::string(kShotFen) + " | ";
  const std::string game = " | game " + std::string(kShotFen) + " |";
  const std::vector<Case> cases = {
      {"", "t.txt:1: expected the version line"},
      {"safety-set 2\n", "t.txt:1: expected the version line"},
      {"# only\n" + with_position_line(fen + "refuted 8-11/-529 | best 1-6/-9 | line 8-11 | source"),
       "t.txt:3: expected \"FEN |"},
      {with_position_line("W:W99:B1 | refuted 8-11/-529 | best 1-6/-9 | line 8-11" + game), "t.txt:2:"},
      {with_position_line(fen + "refuted 8-12/-529 | best 1-6/-9 | line 8-12" + game), "t.txt:2:"},
      {with_position_line(fen + "refuted 8-11 | best 1-6/-9 | line 8-11" + game), "expected move/score"},
      {with_position_line(fen + "refuted 8-11/-5x | best 1-6/-9 | line 8-11" + game), "bad score"},
      {with_position_line(fen + "refuted | best 1-6/-9 | line 8-11" + game), "\"refuted\" is empty"},
      {with_position_line(fen + "refused 8-11/-529 | best 1-6/-9 | line 8-11" + game),
       "expected the field \"refuted"},
      {with_position_line(fen + "refuted 8-11/-529 8-11/-529 | best 1-6/-9 | line 8-11" + game),
       "listed twice"},
      {with_position_line(fen + "refuted 8-11/-529 | best 1-6/-9 7-11/-5 | line 8-11" + game),
       "takes one move"},
      {with_position_line(fen + "refuted 8-11/-529 | best 8-11/-9 | line 8-11" + game), "is refuted"},
      {with_position_line(fen + "refuted 8-11/-60 | best 1-6/-9 | line 8-11" + game), "does not lose a man"},
      {with_position_line(fen + "refuted 8-11/-529 | best 1-6/-9 | line 7-11" + game), "does not start with"},
      {with_position_line(fen + "refuted 8-11/-529 | best 1-6/-9 | line 8-11 18-11" + game), "line, move 2"},
      {with_position_line(fen + "refuted 8-11/-529 | best 1-6/-9 |" + game), "expected the field \"line"},
      {with_position_line(fen + "refuted 8-11/-529 | best 1-6/-9 | line 8-11 | gam W:W21:B1 |"),
       "expected the field \"game"},
      {with_position_line(fen + "refuted 8-11/-529 | best 1-6/-9 | line 8-11 | game W:W21:B1 |"),
       "the game does not reach the position"},
      {with_position_line(fen + "refuted 8-11/-529 | best 1-6/-9 | line 8-11 | game W:W21:B1 21-18 |"),
       "game, move 1"},
      {"safety-set 1\n" + fen + "refuted 8-11/-529 | best 1-6/-9 | line 8-11" + game + " a\n" + fen +
           "refuted 7-11/-529 | best 1-6/-9 | line 7-11" + game + " b\n",
       "t.txt:3: the position of line 2 again"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const Expected<SafetySet> set = parse_safety_set(c.text, "t.txt");
    REQUIRE_FALSE(set.has_value());
    CHECK(says(set.error(), c.says));
  }
}

TEST_CASE("safety: the deep search refutes a move that hands over a shot", "[safety]") {
  const Position p = position_of(kShotFen);
  SafetyVerifier verifier(90'000);
  REQUIRE(verifier.configure({}));
  const Verdict v = verifier.verify(p, move_of(p, "8-11"));
  INFO(v.why);
  REQUIRE(v.refuted);
  CHECK(v.step == 0);
  CHECK(v.entry.played() == move_of(p, "8-11"));
  CHECK(!(v.entry.best.move == move_of(p, "8-11")));
  CHECK_FALSE(v.entry.is_refuted(v.entry.best.move));
  CHECK(loses_a_man(v.entry.best.score, v.entry.refuted.front().score));
  CHECK(v.entry.line.size() >= 2);
  CHECK(v.entry.line.front() == v.entry.played());
  MoveList moves;
  generate_legal_moves(p, moves);
  CHECK(v.searches == 4 + static_cast<int>(moves.size()) - 1);  // root, played, two pruning-free, the others
  // The entry is a line of the file.
  SafetySet set;
  set.positions.push_back(v.entry);
  const Expected<SafetySet> read = parse_safety_set(format_safety_set(set));
  REQUIRE(read.has_value());
  CHECK(format_safety_set(*read) == format_safety_set(set));

  // The deep search's own move is not refuted, and it takes at most two searches to say so.
  const Verdict best = verifier.verify(p, v.entry.best.move);
  INFO(best.why);
  CHECK_FALSE(best.refuted);
  CHECK(best.searches <= 2);  // step 1 when the root search plays it, else step 2
}

TEST_CASE("safety check: the same figure on every run", "[safety]") {
  const Position p = position_of(kShotFen);
  SafetyVerifier verifier(90'000);
  REQUIRE(verifier.configure({}));
  SafetySet set;
  set.positions.push_back(verifier.verify(p, move_of(p, "8-11")).entry);
  // A second position: the start, where a made-up "refuted" move must be avoided.
  SafetyPosition start;
  start.position = Position::start();
  start.refuted = {{move_of(start.position, "21-17"), -200}};
  start.best = {move_of(start.position, "22-18"), 0};
  start.line = {start.refuted.front().move};
  start.game_start = start.position;
  set.positions.push_back(start);

  Engine engine;
  REQUIRE(engine.set_option("threads", "1"));
  for (const std::uint64_t nodes : {2'000ULL, 90'000ULL}) {
    const SafetyCheck first = check_safety_set(engine, set, nodes);
    const SafetyCheck second = check_safety_set(engine, set, nodes);
    // Without earlier moves, the position in its game is the position alone.
    CHECK(check_safety_set(engine, set, nodes, SafetyContext::Game).nodes == first.nodes);
    REQUIRE(first.attempts.size() == 2);
    CHECK(first.handled == second.handled);
    CHECK(first.nodes == second.nodes);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK(first.attempts[i].result.best == second.attempts[i].result.best);
      CHECK(first.attempts[i].handled == !set.positions[i].is_refuted(first.attempts[i].result.best));
    }
  }
  // At the deep budget the search plays the deep move.
  CHECK(check_safety_position(engine, set.positions.front(), 90'000).handled);
}

TEST_CASE("safety mine: candidates are the moves after which the engine's score falls", "[safety]") {
  // A quiet game (two rows of men each, no captures yet), A White; A's scores made up.
  Opening opening;
  opening.start = position_of("W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8");
  GameRecord game;
  Position p = opening.start;
  const std::vector<Score> a_scores = {10, 20, 0, -80, -85, -90};
  for (std::size_t i = 0; i < 2 * a_scores.size(); ++i) {
    MoveList moves;
    generate_legal_moves(p, moves);
    // The first move after which the other side has a choice and nothing to capture.
    const Move* m = std::find_if(moves.begin(), moves.end(), [&](const Move& x) {
      return count_legal_moves(p.after(x)) >= 2 && !has_capture(p.after(x));
    });
    REQUIRE(m != moves.end());
    game.played.push_back({*m, i % 2 == 0, i % 2 == 0 ? a_scores[i / 2] : Score{0}, 5, 100});
    p = p.after(*m);
  }
  auto candidate_plies = [&](const CandidateRule& rule) {
    std::vector<int> plies;
    for (const Candidate& c : find_candidates(opening, game, rule)) {
      CHECK(says(c.reason, "score"));
      plies.push_back(c.ply);
    }
    return plies;
  };
  CandidateRule rule;  // a fall of 0.8 man within 3 of A's moves
  // 10 -> -80 on its 3rd move after, 20 -> -80 on its 2nd, 0 -> -80 on the next; -80 falls no more.
  CHECK(candidate_plies(rule) == std::vector<int>{0, 2, 4});
  rule.lookahead = 1;
  CHECK(candidate_plies(rule) == std::vector<int>{4});
  rule.lookahead = 3;
  rule.decided = 15;  // 20 is beyond the band
  CHECK(candidate_plies(rule) == std::vector<int>{0, 4});
  // A move played without a search (a forced one: depth 0, score 0) has no score to fall from or to.
  rule.decided = 300;
  game.played[6] = {game.played[6].move, true, 0, 0, 0};   // A's 4th move, -80 before
  CHECK(candidate_plies(rule) == std::vector<int>{2, 4});  // 20 and 0 fall to -85 on A's 5th move
}

TEST_CASE("safety mine: a tiny run is deterministic and idempotent", "[safety]") {
  const Expected<std::vector<Opening>> openings = parse_openings("22-17 9-13\n22-18 11-15\n");
  REQUIRE(openings.has_value());
  MineConfig config;
  config.engine = {{"hash", "4"}};
  config.opponents = {{"probcut=false lmr=false", {{"hash", "4"}, {"probcut", "false"}, {"lmr", "false"}}},
                      {"eval=classic", {{"hash", "4"}, {"eval", "classic"}}}};
  config.openings = *openings;
  config.nodes = 4'000;
  config.deep_factor = 30;
  config.games = 4;
  config.max_plies = 100;

  SafetySet first;
  int pairs_seen = 0;
  const Expected<std::vector<MinePair>> pairs =
      mine_safety(config, first, [&](const MinePair&, const SafetySet&) { ++pairs_seen; });
  REQUIRE(pairs.has_value());
  REQUIRE(pairs->size() == 2);
  CHECK(pairs_seen == 2);
  CHECK((*pairs)[0].first_game == 1);
  CHECK((*pairs)[1].first_game == 3);
  CHECK((*pairs)[1].opponent == "eval=classic");
  for (const MinePair& pair : *pairs) CHECK(pair.plies > 0);
  CHECK(!first.positions.empty());  // at 4000 nodes a move the engine walks into shots
  Engine engine;
  REQUIRE(configure_in_process_engine(engine, config.engine, DrawRules::Seed, Variant::Brazilian));
  for (const SafetyPosition& s : first.positions) {
    CHECK(loses_a_man(s.best.score, s.refuted.front().score));
    CHECK(says(s.source, "game "));
    CHECK(!s.game.empty());
    // Searched in its game, as the miner's games searched it, the engine plays the game's move again.
    CHECK(check_safety_position(engine, s, config.nodes, SafetyContext::Game).result.best == s.played());
  }
  const Expected<SafetySet> read = parse_safety_set(format_safety_set(first));
  REQUIRE(read.has_value());

  // Two pairs at once give the same set; running again on it adds nothing and verifies its
  // positions no more.
  config.concurrency = 2;
  SafetySet second;
  REQUIRE(mine_safety(config, second).has_value());
  CHECK(format_safety_set(second) == format_safety_set(first));
  config.concurrency = 1;
  const Expected<std::vector<MinePair>> again = mine_safety(config, second);
  REQUIRE(again.has_value());
  CHECK(format_safety_set(second) == format_safety_set(first));
  int known = 0;
  for (const MinePair& pair : *again) known += pair.known;
  CHECK(known >= static_cast<int>(first.positions.size()));

  // Bad settings are refused before any game.
  config.games = 3;
  CHECK_FALSE(mine_safety(config, second).has_value());
  config.games = 2;
  config.first_game = 2;
  CHECK_FALSE(mine_safety(config, second).has_value());
}

TEST_CASE("safety set: the set of bench/ reads", "[safety]") {
  const Expected<SafetySet> set = load_safety_set(std::string(DAMAS_SOURCE_DIR) + "/bench/safety.txt");
  REQUIRE(set.has_value());
  CHECK(!set->positions.empty());
  for (const SafetyPosition& p : set->positions) {
    INFO(p.line_number);
    CHECK((!p.game.empty() || p.game_start == p.position));  // its game reaches it
    CHECK(p.line.size() >= 2);                               // the game move and at least the reply
    CHECK(says(p.source, "game "));
  }
}
