// The results of a Hub match: each game's result and failure, each engine's totals, and the
// standing of engine 0 against engine 1 (W-D-L, pentanomial, Elo, SPRT), counted game by game.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "damas/core/game.h"
#include "damas/match/elo.h"

namespace damas {

enum class Failure { None, IllegalMove, TimeLoss, Hang, Crash, ErrorAnswer, kCount };
std::string to_string(Failure f);  // "illegal move", "time forfeit", "no done (killed)", ...

struct HubGame {
  int number = 0;  // 1-based, in schedule order
  int round = 0;   // 1-based
  int white = 0;   // engine indices
  int black = 1;
  int opening = -1;  // index into the openings; -1 = the start position
  GameResult result = GameResult::Ongoing;
  std::string termination;  // PDN Termination
  Failure failure = Failure::None;
  int failed_engine = -1;  // who failed (and lost), when failure != None
  std::string detail;      // "played \"1-2\" at move 12: ...", exit status, ...
  int plies = 0;
  std::string pdn;

  double points(int engine) const;  // 1, 0.5, 0 for that engine (which must have played)
};

struct EngineTotals {
  int games = 0;
  int wins = 0;
  int draws = 0;
  int losses = 0;
  std::array<int, static_cast<std::size_t>(Failure::kCount)> failures{};
  int moves = 0;  // moves it was asked for and answered in time
  int moves_with_depth = 0;
  long long depth_sum = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;  // wall time from go to done, summed

  // Adds the move figures of `other` (moves, depth, nodes, seconds; not the games).
  void add_moves(const EngineTotals& other);
};

struct HubMatchResult {
  std::vector<std::string> names;
  std::vector<HubGame> games;  // in the order they finished
  std::vector<EngineTotals> totals;
  int total_games = 0;  // scheduled
  // Engine 0 against engine 1 (two-engine matches).
  int wins = 0;
  int draws = 0;
  int losses = 0;
  Pentanomial pentanomial;
  std::optional<SprtState> sprt;
  std::string stopped;  // why the match ended early ("" = played out or SPRT ended it)
  double wall_seconds = 0;
  double runner_cpu_seconds = 0;  // our own user+system CPU (children excluded)
  long long engine_moves = 0;     // all moves asked of engines
  // -resume: games read back from the PDN file (counted in the standing, not in depth or speed),
  // and the first line of a cut-off last game that was dropped.
  int resumed_games = 0;
  std::optional<int> resume_dropped_line;

  EloEstimate elo() const;  // engine 0 vs 1: from pairs when there are any, else from games

  // Counts a finished game, played now or read back by -resume, in the standing: both engines'
  // W-D-L, the failure, engine 0's W-D-L and, when the game closes a colour-reversed pair, the
  // pair with `pair_first_points` (engine 0's points in the pair's first game). With an SPRT
  // (from pairs, or from games when `games_per_pairing` is odd and no pair was played) the
  // answer is true once it has decided.
  bool count(const HubGame& game, std::optional<double> pair_first_points,
             const std::optional<SprtConfig>& sprt, int games_per_pairing);
};

}  // namespace damas
