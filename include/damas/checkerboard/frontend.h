// The CheckerBoard API front end (protocol/checkerboard.md): getmove, enginecommand and islegal
// as a C++ object over the Engine, with plain values in and out, so tests drive it without a
// shared library. src/checkerboard/exports.cpp holds the one instance the C exports use.
//
// One caller at a time: get_move() blocks until its move is chosen (it polls `play_now` on the
// calling thread while the engine searches), command() and is_legal() answer at once.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/checkerboard/board.h"
#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"

namespace damas::checkerboard {

// getmove's return values (CB_DRAW, CB_WIN, CB_LOSS, CB_UNKNOWN).
enum class CbResult : int { Draw = 0, Win = 1, Loss = 2, Unknown = 3 };

// getmove's `info` bits (cb_interface.h). Exact time asks for what damas does anyway (all of
// maxtime); CB_RESET_MOVES (1) is ignored: the history comes from `set gamehist`.
inline constexpr int kInfoExactTime = 2;
inline constexpr int kInfoIncrementShift = 2;  // bits 2-3: the clock's unit, 0 = no clock given

inline constexpr std::size_t kTextBytes = 1024;  // getmove's str and enginecommand's reply, NUL included

struct MoveRequest {
  Board8x8 board;
  int color = kCbWhite;
  double maxtime = 1.0;  // seconds for this move
  int info = 0;
  int moreinfo = 0;
};

struct MoveAnswer {
  CbResult result = CbResult::Unknown;
  Board8x8 board;              // after the move; the board given when no move is played
  std::optional<CbMove> move;  // set when a move is played
  std::optional<Move> played;  // the same move for the rules core
  std::string text;            // the search's result, or why no move was played
};

struct CommandReply {
  bool understood = false;  // enginecommand returns 1 / 0
  std::string text;
};

// The search time of a request: maxtime, capped at half the remaining time when the clock bits
// of cb_interface.h give one; an error for a maxtime that is not a time (negative, NaN, infinite).
Expected<double> move_seconds(const MoveRequest& request);

class Frontend {
 public:
  explicit Frontend(const Options& options = Options{});
  Frontend(const Frontend&) = delete;
  Frontend& operator=(const Frontend&) = delete;

  // Searches the board and plays the best move on it. `play_now` is polled every few ms on this
  // thread: true stops the search, which answers with the best move found. `progress` (may be
  // empty) gets the search's text as it changes, on this thread.
  MoveAnswer get_move(const MoveRequest& request, const std::function<bool()>& play_now,
                      const std::function<void(std::string_view)>& progress = {});
  // One enginecommand line.
  CommandReply command(std::string_view text);
  // The one legal move of the board from square `from` to square `to` (1..32, 1 = b8).
  Expected<CbMove> is_legal(const Board8x8& board, int color, int from, int to) const;

  Variant variant() const { return engine_.options().variant(); }
  const Engine& engine() const { return engine_; }

 private:
  // `set gamehist`: the game since the last irreversible position, for repetitions.
  struct History {
    Position start;
    std::vector<Move> moves;
    Position last;
  };

  CommandReply set_command(std::string_view name, std::string_view value);
  CommandReply get_command(std::string_view name) const;
  CommandReply set_game_history(std::string_view text);
  CommandReply set_game_type(std::string_view value);
  CommandReply set_book(std::string_view value);
  Status set_root(const Position& position);
  MoveAnswer search(const Position& root, double seconds, const std::function<bool()>& play_now,
                    const std::function<void(std::string_view)>& progress);

  Engine engine_;
  std::optional<History> history_;
};

}  // namespace damas::checkerboard
