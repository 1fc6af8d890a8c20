// What a search is asked (limits, mode) and what it reports (progress, result). Shared by the
// search, which fills them, and the Engine facade, which passes them to its callers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "damas/core/move.h"
#include "damas/core/types.h"

namespace damas {

inline constexpr int kMaxPly = 128;    // deepest ply the search reaches (incl. captures)
inline constexpr int kMaxDepth = 100;  // deepest nominal iteration

// Limits of one search. Nothing set = search until stop().
struct SearchLimits {
  std::optional<int> depth;            // nominal depth in plies
  std::optional<std::uint64_t> nodes;  // node budget
  std::optional<double> move_time;     // seconds for this move
  std::optional<double> time;          // seconds left on our clock (may be <= 0)
  double increment = 0;                // Fischer increment, seconds, added before each move
  int moves_to_go = 0;                 // moves to the next time control; 0 = rest of the game
  bool infinite = false;               // analysis: ignore time, run until stop()
};

enum class GoMode {
  Think,    // play a move; a single legal move is answered at once
  Ponder,   // search on the opponent's time; the clock starts at ponder_hit()
  Analyze,  // no shortcuts; report as much as possible
};

// Progress of a search, reported after every iteration and whenever the best move changes.
struct SearchInfo {
  int depth = 0;          // completed nominal depth (0: no search, e.g. forced move)
  double mean_depth = 0;  // average leaf depth
  Score score = 0;        // side to move's view; mate scores per types.h
  std::uint64_t nodes = 0;
  std::uint64_t tbhits = 0;  // endgame database probes answered
  double seconds = 0;
  std::vector<Move> pv;   // from the root position
  int multipv_index = 1;  // 1-based line number when several lines are searched
  bool book = false;      // the move came from the opening book, without a search
};

struct SearchResult {
  Move best = kNullMove;    // null only when the root has no legal move
  Move ponder = kNullMove;  // expected reply, null when unknown
  Score score = 0;
  int depth = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::vector<Move> pv;
};

using InfoCallback = std::function<void(const SearchInfo&)>;
using DoneCallback = std::function<void(const SearchResult&)>;

}  // namespace damas
