// Mining the safety set: fast games against other settings of damas, suspicious moves verified deeply.
//
// The engine under test (A) plays colour-reversed pairs of games (selfplay's run_match) at a node
// budget per move against opponents that are damas with other settings (no pruning, the hand-written
// evaluation, weaker levels), from ballot and opening files. Its moves that look bad afterwards
// (candidates: its own score falls, or it loses material, within its next few moves) are verified by
// SafetyVerifier at deep_factor times the budget; the refuted ones join the set, each position once.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "damas/core/expected.h"
#include "damas/match/openings.h"
#include "damas/match/safety_check.h"
#include "damas/match/safety_set.h"
#include "damas/match/selfplay.h"

namespace damas {

struct Opponent {
  std::string name;  // the option list as written ("eval=classic")
  OptionList options;
};

// Men count one, kings three: the material of `side` less the other's.
int material_balance(const Position& p, Color side);

// "probcut=false lmr=false", "eval=classic", "level=hard seed=1", "level=medium seed=1".
std::vector<std::string> default_safety_opponents();

// A's move is a candidate when, within `lookahead` of its next moves, its own score falls by `drop`,
// or its material (men 1, kings 3; counted where it has no capture to make) by a man while its score
// falls by half of `drop`.
struct CandidateRule {
  Score drop = 80;      // 1/100 man
  int lookahead = 3;    // A's moves after the candidate
  Score decided = 300;  // a move made with a score beyond +-this is not a candidate (the game is decided)
};

struct Candidate {
  Position position;  // before the move
  Move played;
  Position game_start;     // the game's position after the opening
  std::vector<Move> game;  // from game_start to `position`
  int ply = 0;             // of the game, opening moves included (0: the first move)
  Score score = 0;         // A's search score of its move
  std::string reason;
};

// A's moves in a game that the rule finds suspicious, in game order (positions with one legal move
// are not: there is nothing to choose). A move played without a search (depth 0: the only legal
// move, whose score is 0) gives no score to compare. `game.played` must be the moves of the game
// from `opening`.
std::vector<Candidate> find_candidates(const Opening& opening, const GameRecord& game,
                                       const CandidateRule& rule);

struct MineConfig {
  OptionList engine;  // the engine under test, A
  std::vector<Opponent> opponents;
  std::vector<Opening> openings;
  std::uint64_t nodes = kGameSpeedNodes;  // per move in the games
  int deep_factor = 20;                   // the verification's budget is deep_factor * nodes
  int first_game = 1;                     // games are numbered from 1; a pair starts at an odd number
  int games = 2;                          // even: colour-reversed pairs
  std::uint64_t seed = 1;                 // the order of the openings
  int concurrency = 1;                    // pairs played and verified at once
  int max_plies = 160;                    // a game stops (drawn) after this many plies; 0 = never
  CandidateRule rule;
};

// What one pair of games gave.
struct MinePair {
  int first_game = 0;  // its games are first_game and first_game + 1 (A White in the first)
  std::string opening;
  std::string opponent;
  double a_points = 0;  // of 2
  int plies = 0;        // of both games
  int candidates = 0;
  int known = 0;    // already in the set (or already verified in this run): not searched again
  int refuted = 0;  // new positions
  int searches = 0;
  double seconds = 0;
  std::vector<std::string> notes;  // per candidate: where, why it was one, what the verification found
};

// Pair k of the run plays opening perm[k % openings] against opponent k % opponents, perm the
// openings shuffled by the seed (the same on every platform); k counts from game 1, so a run with
// --first-game continues another. `set` gets the refuted positions (one per position; those it held
// are not verified again), the run's in game order after the ones it had, whatever the concurrency.
// `on_pair` is called after each pair, serialised, with the set as it is then.
using MinePairCallback = std::function<void(const MinePair&, const SafetySet&)>;
Expected<std::vector<MinePair>> mine_safety(const MineConfig& config, SafetySet& set,
                                            const MinePairCallback& on_pair = {});

}  // namespace damas
