// A game record and its referee: the moves played from a start position, and whether the
// game is over by the rules (no legal move, threefold repetition, 80 plies without capture
// or man move). Used by selfplay, DXP and tests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"

namespace damas {

enum class GameResult { Ongoing, WhiteWins, BlackWins, Draw };
enum class GameEndReason { None, NoLegalMove, Repetition, NoProgress, Adjudication };

class Game {
 public:
  explicit Game(const Position& start = Position::start());

  // Plays m after checking that it is legal; an error leaves the game unchanged.
  Status play(const Move& m);
  // Takes back the last `plies` plies (clamped to the game length).
  void undo(int plies = 1);

  const Position& start() const { return positions_.front(); }
  const Position& current() const { return positions_.back(); }
  const std::vector<Move>& moves() const { return moves_; }
  const std::vector<Position>& positions() const { return positions_; }  // start .. current

  // How many times the current position (same pieces, same side to move) has occurred.
  int repetitions() const;
  GameResult result() const;
  GameEndReason end_reason() const;
  bool over() const { return result() != GameResult::Ongoing; }

  // PDN of the game (standard numbering), with optional tag pairs. A "Result" tag overrides the
  // result by the rules (adjudicated or abandoned games).
  std::string to_pdn(const std::vector<std::pair<std::string, std::string>>& tags = {}) const;

 private:
  std::vector<Position> positions_;
  std::vector<Move> moves_;
};

std::string to_string(GameResult r);  // PDN draughts scoring: "2-0", "0-2", "1-1", "*"
std::string to_string(GameEndReason r);

}  // namespace damas
