// Game analysis for `damas analyze --pdn`: every move of a PDN game searched, its evaluation,
// the moves that lose at least a margin against the best one marked ? or ?? with the best move
// and its line, a summary per game; the annotated game written by Game::to_pdn.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "damas/core/game.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/engine/engine.h"
#include "damas/search/limits.h"

namespace damas::cli {

struct AnalysisConfig {
  SearchLimits limits;                        // per position
  Score margin = 50;                          // a loss of this much (1/100 man) against the best move: "?"
  Score blunder_margin = 150;                 // and of this much: "??"
  DrawRules default_rules = DrawRules::Seed;  // for games without a DrawRules tag
  PdnSquares squares = PdnSquares::Numeric;   // of the annotated PDN
};

struct PlyAnalysis {
  Move played;
  Score eval_after = 0;  // after the move, White's point of view
  Score loss = 0;        // best score minus the played move's, the mover's point of view (>= 0)
  Move best;
  Score best_score = 0;  // the mover's point of view
  std::vector<Move> best_line;
  std::string mark;  // "", "?" or "??"
};

struct GameAnalysis {
  Game game;
  std::vector<PlyAnalysis> plies;
  std::string annotated_pdn;
  std::string summary;  // for people: the largest errors of each side
};

// Called after each searched position: plies done, plies in the game.
using AnalysisProgress = std::function<void(std::size_t done, std::size_t total)>;

GameAnalysis analyse_game(Engine& engine, const PdnGame& pdn, const AnalysisConfig& config,
                          const AnalysisProgress& progress = {});

// A line of moves from p: Hub moves ("22-18 11-15"), or algebraic ("c3-d4 f6-e5").
std::string line_text(Position p, const std::vector<Move>& line, bool algebraic = false,
                      Numbering numbering = Numbering::Standard);

// "+0.35", "-1.20", "White wins in 7", ... from White's point of view.
std::string eval_text(Score white_view);

}  // namespace damas::cli
