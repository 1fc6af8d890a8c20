// Puzzles from reviewed games (`damas puzzles`): a move that lost at least a man against the
// engine's choice, where the best line wins that man by force. The puzzle is the position before
// the mistake, its side to move, the solution (the solver's moves and the forced replies, ending
// with the solver's move that keeps the man) and the game it came from. Each solver move of the
// solution is the only one that wins (a second-best search is at least a man worse), so a player
// who finds another move has really missed the point.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "damas/review/review.h"

namespace damas::review {

struct PuzzleConfig {
  SearchLimits limits;         // of the checks that each solver move is the only winning one
  Score min_gain = 100;        // the best move wins at least this much more than the played one
  std::size_t max_plies = 15;  // of the solution
};

struct Puzzle {
  Position start;
  std::vector<Move> solution;  // from start: solver, reply, solver, ... ending with the solver
  std::vector<std::pair<std::string, std::string>> source_tags;  // Event, White, Black, Date, Round
  std::string source;  // "games.pdn, game 3: 14... 10-15??" for people
  Score gain = 0;      // men won against the played move (1/100 man)
};

// The puzzles of one reviewed game; `source_name` (a file name) and `game_number` label them.
std::vector<Puzzle> find_puzzles(Engine& engine, const GameReview& review, const PdnGame& pdn,
                                 const PuzzleConfig& config, const std::string& source_name, int game_number);

// A puzzle as one standard PDN game (Game::to_pdn): its FEN tag, the solution as the move text,
// the source game in tags (PuzzleSource, and White, Black, Event, Date, Round of the source).
std::string puzzle_pdn(const Puzzle& puzzle, int number);

}  // namespace damas::review
