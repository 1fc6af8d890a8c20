// The time control of a match engine and the clock the match runner keeps for it in each game.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "damas/core/expected.h"

namespace damas {

// How an engine is limited on every move.
struct TimeControl {
  enum class Kind { Clock, MoveTime, Depth, Nodes };
  Kind kind = Kind::Clock;
  double base = 10;         // Clock: seconds for the game (or for `moves` moves)
  double increment = 0;     // Clock: added before each move (Hub convention)
  int moves = 0;            // Clock: moves per period, 0 = the whole game
  double move_time = 0;     // MoveTime: seconds per move
  int depth = 0;            // Depth
  std::uint64_t nodes = 0;  // Nodes

  std::string text() const;  // PDN TimeControl: "10+0.1", "40/60+0", "st=1", "depth=5", "nodes=1000"
};

// "10+0.1", "60", "40/60+0.5" (seconds); also "0:10+0.1" (minutes:seconds).
Expected<TimeControl> parse_time_control(std::string_view text);

// The PDN TimeControl tag of a game between these two: "10+0.1", or "10+0.1 - 5+0.05" when they differ.
std::string time_control_tag(const TimeControl& white, const TimeControl& black);

// Seconds as the runner writes them: at most three decimals, no trailing zeros ("0.1", "10").
std::string seconds_text(double seconds);

// One engine's clock in one game: the limit of its next move and the time its moves used.
class MatchClock {
 public:
  // `margin`: seconds over the budget before a move is late; `timeout`: the budget of a depth= or
  // nodes= search (hang detection).
  MatchClock(const TimeControl& tc, double margin, double timeout);

  // The Hub `level` line of the next move, and its budget: the seconds after which `done` is late.
  struct Limit {
    std::string level;
    double budget = 0;
  };
  Limit next_move() const;
  // The move just made took `seconds`: the increment is added, the time taken (the clock does not
  // go below zero: within the margin a move is not late), a new period begun.
  void charge(double seconds);
  int moves_made() const { return moves_made_; }

 private:
  TimeControl tc_;
  double margin_;
  double timeout_;
  double time_left_;  // Clock: seconds left in the period
  int moves_made_ = 0;
};

}  // namespace damas
