// Time management: turns the GUI's limits into two budgets for one move.
//   soft: after an iteration, do not start the next one past this point;
//   hard: abort the search at once (checked every few hundred nodes).
// Clock forms: fixed move time, sudden death, moves-in-time, Fischer increment (the increment
// is already added to `time` by the Hub convention: available = time + inc). A move-overhead
// margin is always kept back so the engine never loses on time.
#pragma once

#include <chrono>
#include <optional>

#include "damas/search/limits.h"

namespace damas {

using Clock = std::chrono::steady_clock;

struct TimeBudget {
  std::optional<double> soft;  // seconds; nullopt = no time limit
  std::optional<double> hard;
  bool fixed = false;  // fixed move time: use all of it, no early stop
};

// Budgets for one move. `pieces` (both sides) helps guess how many moves are left.
TimeBudget plan_time(const SearchLimits& limits, double move_overhead_seconds, int pieces);

// Scales the soft budget after an iteration: an unstable best move asks for more time, a stable
// one for less. Never exceeds the hard budget.
double adjust_soft(const TimeBudget& b, int best_move_changes, int stable_iterations);

// The soft budget of a clock scaled by `factor` (the option time-use), never past the hard one; a
// fixed move time and no limit are left as they are.
TimeBudget scale_soft(TimeBudget b, double factor);

}  // namespace damas
