// Sifting games already played (PDN, e.g. the SPRT games of bench/sprt/) for the safety set.
//
// mine_safety plays its own games, and finds a refuted move only when the opponent plays the refutation:
// about one in 30 games. A decided game holds one for certain: the loser lost material somewhere. In
// each decided game the loser's positions shortly before it loses a man are searched by the engine
// under test at the node budget on a cleared engine (the check's Cleared context), and its move is
// verified as mine_safety verifies one (safety_verify.h), whatever the game's own move was.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/pdn.h"
#include "damas/match/safety_check.h"
#include "damas/match/safety_set.h"
#include "damas/match/selfplay.h"

namespace damas {

// A loser's position is a candidate when it has a choice (two moves or more, no capture to make), it
// is at most one man down, and within `lookahead` plies of the game its material (men 1, kings 3,
// counted where the side to move has no capture to make) is a man lower than there.
struct SiftRule {
  int lookahead = 6;
  Score decided = 300;  // the engine's move scored beyond +-this is not verified (the game is decided)
};

// The side that lost the game (its Result tag, or the result of its move text: 2-0, 0-2, 1-0, 0-1),
// nothing for a draw or an unknown result.
std::optional<Color> loser_of(const PdnGame& game);

// The plies (indices into game.moves) whose positions are the loser's candidates, in order.
std::vector<std::size_t> sift_plies(const PdnGame& game, Color loser, const SiftRule& rule);

struct SiftGame {
  std::string name;  // where it is: "file game N"
  PdnGame game;
};

struct SiftConfig {
  OptionList engine;                      // the engine under test
  std::uint64_t nodes = kGameSpeedNodes;  // its search of each candidate
  int deep_factor = 20;                   // the verification's budget is deep_factor * nodes
  int concurrency = 1;                    // games sifted at once
  SiftRule rule;
};

// What one game gave.
struct SiftReport {
  std::string game;
  int candidates = 0;
  int decided = 0;  // the engine's score said the game was decided: not verified
  int known = 0;    // in the set already, or verified already in this run
  int refuted = 0;  // new positions
  int searches = 0;
  double seconds = 0;
  std::vector<std::string> notes;  // per candidate
};

// The games, each decided one sifted; `set` gets the refuted positions in game order after the ones
// it had (each position once, whatever the concurrency). `on_game` is called after each game,
// serialised, with the set as it is then (a caller writes it, so an interrupted run keeps its finds).
using SiftCallback = std::function<void(const SiftReport&, const SafetySet&)>;
Expected<std::vector<SiftReport>> sift_games(const SiftConfig& config, const std::vector<SiftGame>& games,
                                             SafetySet& set, const SiftCallback& on_game = {});

}  // namespace damas
