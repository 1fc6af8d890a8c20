// Game review: every position of a game searched, the evaluation across the game, the moves that
// lose against the best one marked (inaccuracy ?!, mistake ?, blunder ??) with the best move and its
// line, per-side counts and average loss, the annotated PDN (Game::to_pdn). One computation for
// `damas analyze --pdn` (whose --plot draws it with review/graph.h) and the board's Review panel (web
// API review-*, whose page draws it): positions are searched one at a time (Reviewer::step) so a
// server can serve other requests between two of them and cancel a review at any position.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/game.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/engine/engine.h"

namespace damas::review {

struct ReviewConfig {
  SearchLimits limits;                        // per position
  Score inaccuracy_margin = 25;               // a loss of this much (1/100 man) against the best move: "?!"
  Score margin = 50;                          // "?"
  Score blunder_margin = 150;                 // "??"
  DrawRules default_rules = DrawRules::Seed;  // for games without a DrawRules tag
  PdnSquares squares = PdnSquares::Numeric;   // of the annotated PDN
};

// Checks the margins (positive, growing); an error says which.
Status check_margins(const ReviewConfig& config);

enum class Mark { None, Inaccuracy, Mistake, Blunder };
// How a mark is written: PDN move strength ("?!", "?", "??"), its name for the API and the page
// ("inaccuracy", "mistake", "blunder") and its colour in both graphs (page and --plot).
struct MarkStyle {
  std::string_view nag;
  std::string_view name;
  std::string_view colour;
};
const MarkStyle& mark_style(Mark m);

struct PlyReview {
  Move played;
  Score eval_after = 0;  // after the move, White's point of view
  Score loss = 0;        // best score minus the played move's, the mover's point of view (>= 0, capped)
  Move best;
  Score best_score = 0;  // the mover's point of view
  std::vector<Move> best_line;
  Mark mark = Mark::None;
};

struct SideSummary {
  int moves = 0;
  int inaccuracies = 0;
  int mistakes = 0;
  int blunders = 0;
  double average_loss = 0;  // in men per move
};

struct GameReview {
  Game game;
  std::vector<Score> evals;  // White's point of view, one per position: start, after each move
  std::vector<PlyReview> plies;
  SideSummary white;
  SideSummary black;
  std::string annotated_pdn;
  std::string summary;  // for people: the largest errors of each side
};

// The evaluation graph's value of a score (White's view): men, clamped to +-kGraphLimit, a won or
// lost score pinned to the edge. The page and review/graph.h both draw these values.
inline constexpr double kGraphLimit = 3.0;
double graph_value(Score white_view);

// A review computed one position at a time; step() from one thread at a time. The game's moves must be legal
// (the PDN reader checked).
class Reviewer {
 public:
  Reviewer(const PdnGame& pdn, const ReviewConfig& config);
  std::size_t total() const { return results_.size(); }  // positions to search
  std::size_t done() const { return done_.load(); }
  bool finished() const { return done_ == results_.size(); }
  const Game& game() const { return game_; }
  // Searches the next position (the engine idle, at full strength and one line). Nothing once finished.
  void step(Engine& engine);
  GameReview result() const;  // once finished

 private:
  PdnGame pdn_;
  ReviewConfig config_;
  Game game_;  // the whole game, refereed by its draw rules
  std::vector<SearchResult> results_;
  std::atomic<std::size_t> done_ = 0;  // read by progress reports while a step runs
};

// Called after each searched position: positions done, positions in the game.
using ReviewProgress = std::function<void(std::size_t done, std::size_t total)>;

// The whole review at once (the command line): a new game for the engine, then every position.
GameReview review_game(Engine& engine, const PdnGame& pdn, const ReviewConfig& config,
                       const ReviewProgress& progress = {});

// A line of moves from p: Hub moves ("22-18 11-15"), or algebraic ("c3-d4 f6-e5").
std::string line_text(Position p, const std::vector<Move>& line, bool algebraic = false,
                      Numbering numbering = Numbering::Standard);

// "14. " or "14... " for ply i of a game whose first mover is `first`.
std::string move_label(std::size_t ply, Color first);

}  // namespace damas::review
