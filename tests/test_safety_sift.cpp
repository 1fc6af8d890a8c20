// `damas safety sift` (match/safety_sift.h): the decided games of PDN files sifted for the safety set.
#include <catch2/catch.hpp>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/match/safety_sift.h"
#include "rules_helpers.h"

using namespace damas;

namespace {

// Black to move; 8-11 walks into 18-14 and a combination (test_safety.cpp), 1-6 keeps the material.
constexpr const char* kShotFen = "B:W18,19,20,21,22,26,27,32:B1,3,7,8,10,12,13,28";

// A game from kShotFen: Black plays 8-11, and White's shot 18-14 wins a king at move 5-1 (the line
// of a 3 M node search after 8-11). `result` is its Result tag.
PdnGame shot_game(const std::string& result) {
  const std::vector<PdnGameOrError> games =
      read_pdn("[FEN \"" + std::string(kShotFen) + "\"]\n[Result \"" + result +
               "\"]\n\n8-11 18-14 10x17 21x14 1-6 14-9 6-10 9-5 11-15 27-24 7-11 5-1 " + result + "\n");
  REQUIRE(games.size() == 1);
  REQUIRE(games.front().has_value());
  return *games.front();
}

}  // namespace

TEST_CASE("safety sift: the loser of a game is read from its result", "[safety]") {
  const auto loser = [](std::string result, std::vector<std::pair<std::string, std::string>> tags) {
    PdnGame game;
    game.result = std::move(result);
    game.tags = std::move(tags);
    return loser_of(game);
  };
  CHECK(loser("2-0", {}) == Color::Black);
  CHECK(loser("0-2", {}) == Color::White);
  CHECK(loser("0-1", {}) == Color::White);
  CHECK_FALSE(loser("2-0", {{"Result", "1-1"}}).has_value());  // the tag first
  CHECK(loser("*", {{"Result", "0-2"}}) == Color::White);
  CHECK_FALSE(loser("*", {}).has_value());
}

TEST_CASE("safety sift: the loser's moves before it loses a man are the candidates", "[safety]") {
  const PdnGame game = shot_game("2-0");
  REQUIRE(loser_of(game) == Color::Black);
  const std::vector<std::size_t> plies = sift_plies(game, Color::Black, SiftRule{12});
  REQUIRE(!plies.empty());
  CHECK(plies.front() == 0);  // 8-11 itself
  for (std::size_t ply : plies) {
    Position p = game.start;
    for (std::size_t k = 0; k < ply; ++k) p = p.after(game.moves[k]);
    CHECK(p.side_to_move() == Color::Black);
    CHECK_FALSE(has_capture(p));
  }
  // The king comes 11 plies after 8-11: a shorter lookahead starts later, and a move of one's own
  // loses nothing.
  const std::vector<std::size_t> near = sift_plies(game, Color::Black, SiftRule{6});
  CHECK(!near.empty());
  CHECK(near.front() > 0);
  CHECK(sift_plies(game, Color::Black, SiftRule{1}).empty());
}

TEST_CASE("safety sift: refuted moves of decided games join the set once, draws give nothing", "[safety]") {
  SiftConfig config;
  config.engine = {{"hash", "4"}};
  config.nodes = 1'000;  // a budget that walks into the shot (at 2000 nodes the engine sees it)
  config.deep_factor = 100;
  config.rule.lookahead = 12;
  const std::vector<SiftGame> games = {{"a game 1", shot_game("2-0")}, {"a game 2", shot_game("1-1")}};
  SafetySet set;
  int seen = 0;
  const Expected<std::vector<SiftReport>> reports =
      sift_games(config, games, set, [&](const SiftReport&, const SafetySet&) { ++seen; });
  REQUIRE(reports.has_value());
  CHECK(seen == 2);
  int candidates = 0, refuted = 0;
  for (const SiftReport& r : *reports) {
    if (r.game == "a game 2") CHECK(r.candidates == 0);
    candidates += r.candidates;
    refuted += r.refuted;
  }
  CHECK(candidates > 0);
  // At 1000 nodes the engine plays 8-11 itself, or another move the deep search refutes.
  CHECK(refuted >= 1);
  CHECK(refuted == static_cast<int>(set.positions.size()));
  for (const SafetyPosition& s : set.positions) {
    CHECK(loses_a_man(s.best.score, s.refuted.front().score));
    CHECK(s.source.find("a game 1 ply ") == 0);
  }
  const Expected<SafetySet> read = parse_safety_set(format_safety_set(set));
  REQUIRE(read.has_value());

  // Again, two games at once: the same set, its positions not verified again.
  config.concurrency = 2;
  const std::string first = format_safety_set(set);
  const Expected<std::vector<SiftReport>> again = sift_games(config, games, set);
  REQUIRE(again.has_value());
  CHECK(format_safety_set(set) == first);
  for (const SiftReport& r : *again) CHECK(r.refuted == 0);

  config.nodes = 0;
  CHECK_FALSE(sift_games(config, games, set).has_value());
}
