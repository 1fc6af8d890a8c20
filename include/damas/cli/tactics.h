// A tactical test suite: positions with a forced winning combination and its first move.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/engine/engine.h"

namespace damas {

// One line of the suite file: "FEN | solution[,solution] | comment". Solutions in numeric
// notation, checked for legality; '#' starts a comment line.
struct TacticsPosition {
  Position position;
  std::vector<Move> solutions;
  std::string fen;
  std::string comment;
  int line = 0;
};

Expected<std::vector<TacticsPosition>> parse_tactics(std::string_view text,
                                                     const std::string& source = "tactics");
Expected<std::vector<TacticsPosition>> load_tactics(const std::string& path);

struct TacticsAttempt {
  bool solved = false;
  SearchResult result;
};

// Searches the position with `limits` on an idle engine (cleared first) and checks the move.
TacticsAttempt attempt(Engine& engine, const TacticsPosition& t, const SearchLimits& limits);

// Every root move scored by a search of `depth` - 1 plies after it (side to move's view),
// best first: the evidence that a solution is the one winning move.
struct RootScore {
  Move move;
  Score score = 0;
};
std::vector<RootScore> score_root_moves(Engine& engine, const Position& p, int depth);

}  // namespace damas
