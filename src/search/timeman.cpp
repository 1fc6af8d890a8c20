#include "damas/search/timeman.h"

#include <algorithm>

namespace damas {

TimeBudget plan_time(const SearchLimits& limits, double overhead, int pieces) {
  TimeBudget b;
  if (limits.infinite) return b;
  std::optional<double> hard;
  std::optional<double> soft;
  if (limits.move_time) {
    const double t = std::max(*limits.move_time - overhead, 0.001);
    hard = t;
    soft = t;  // fixed time: use all of it
    b.fixed = true;
  }
  if (limits.time) {
    const double available = std::max(*limits.time + limits.increment - overhead, 0.001);
    // Moves still to play before the clock is refilled: the GUI says, or a guess from material.
    const int guess = std::clamp(pieces + 6, 12, 30);
    const int moves_left = limits.moves_to_go > 0 ? std::min(limits.moves_to_go, guess + 10) : guess;
    const double increment_share = limits.increment * (moves_left - 1);
    double target = (available + increment_share) / moves_left;
    const double max_share = moves_left == 1 ? 0.85 : 0.6;
    const double clock_hard = std::min(available * max_share, target * 4.0);
    target = std::min(target, clock_hard);
    hard = hard ? std::min(*hard, clock_hard) : clock_hard;
    soft = soft ? std::min(*soft, target) : target;
    b.fixed = false;
  }
  b.hard = hard;
  b.soft = soft;
  return b;
}

TimeBudget scale_soft(TimeBudget b, double factor) {
  if (b.fixed || !b.soft) return b;
  b.soft = *b.soft * factor;
  if (b.hard) b.soft = std::min(*b.soft, *b.hard);
  return b;
}

double adjust_soft(const TimeBudget& b, int best_move_changes, int stable_iterations) {
  if (b.fixed || !b.soft) return b.soft.value_or(0);
  double factor = 1.0;
  if (best_move_changes > 0) factor = 1.0 + 0.35 * std::min(best_move_changes, 4);
  else if (stable_iterations >= 4) factor = 0.7;
  double soft = b.soft.value_or(0) * factor;
  if (b.hard) soft = std::min(soft, *b.hard);
  return soft;
}

}  // namespace damas
