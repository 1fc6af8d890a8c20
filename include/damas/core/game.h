// A game record and its referee: the moves played from a start position, and whether the
// game is over by the rules (no legal move, threefold repetition, and the draw laws chosen:
// `seed` 80 plies without capture or man move, or the FMJD-64 laws, core/draw_rules.h).
// Used by selfplay, DXP, analysis and tests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "damas/core/draw_rules.h"
#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/notation.h"
#include "damas/core/position.h"

namespace damas {

enum class GameResult { Ongoing, WhiteWins, BlackWins, Draw };
enum class GameEndReason { None, NoLegalMove, Repetition, NoProgress, DrawLaw, Adjudication };

class Game {
 public:
  // `start_plies`: the draw count the start came with (a lidraughts FEN's H; draw_rules.h).
  explicit Game(const Position& start = Position::start(), DrawRules rules = DrawRules::Seed,
                int start_plies = 0);

  // Plays m after checking that it is legal; an error leaves the game unchanged.
  Status play(const Move& m);
  // Takes back the last `plies` plies (clamped to the game length).
  void undo(int plies = 1);

  const Position& start() const { return positions_.front(); }
  const Position& current() const { return positions_.back(); }
  const std::vector<Move>& moves() const { return moves_; }
  const std::vector<Position>& positions() const { return positions_; }  // start .. current
  DrawRules draw_rules() const { return rules_; }
  int start_plies() const { return start_plies_; }
  // FMJD-64 counters of the current position (zero under `seed`).
  const DrawCounters& draw_counters() const { return counters_.back(); }
  // The FMJD-64 law that fits the current position (nullptr under `seed` or when none fits).
  const DrawLaw* draw_law() const;

  // How many times the current position (same pieces, same side to move) has occurred.
  int repetitions() const;
  GameResult result() const;
  GameEndReason end_reason() const;
  bool over() const { return result() != GameResult::Ongoing; }

  // Why the game ended, for people ("threefold repetition", "FMJD-64 7.2.8: ...").
  std::string end_description() const;

  // PDN of the game (PDN 3.0, readable by other programs): the tag pairs given, then GameType
  // ("26" Brazilian, "25" Russian: the start's variant), DrawRules and, when the game does not
  // start from its variant's start position, FEN (the writer's
  // own: given tags of those names are dropped); values escaped (\" and \\). Moves by
  // to_pdn_move, in standard numbers or algebraic squares. A "Result" tag overrides the result by
  // the rules (adjudicated or abandoned games). `annotations`, when given, holds per ply a mark
  // ("?", "??"; may be empty) and a comment (may be empty).
  struct MoveAnnotation {
    std::string mark;
    std::string comment;
  };
  std::string to_pdn(const std::vector<std::pair<std::string, std::string>>& tags = {},
                     const std::vector<MoveAnnotation>& annotations = {},
                     PdnSquares squares = PdnSquares::Numeric) const;

 private:
  std::vector<Position> positions_;
  std::vector<Move> moves_;
  int start_plies_ = 0;
  std::vector<DrawCounters> counters_;  // one per position
  DrawRules rules_ = DrawRules::Seed;
};

std::string to_string(GameResult r);  // PDN draughts scoring: "2-0", "0-2", "1-1", "*"
std::string to_string(GameEndReason r);

}  // namespace damas
