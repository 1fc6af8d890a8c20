// Balanced openings of a game for matches: every line of a few plies from its start position, one
// per position reached, each scored by a search and kept when the score is near equal. Written as a
// file of move lines in the game's own numbering (match/openings.h reads it: selfplay, damas match),
// so a game with no ballot table of its own (Spanish, Portuguese, Pool, Czech) gets openings that
// spread its matches over many games. `damas openings` (cli/tool_openings.cpp) searches and writes;
// bench/openings-<game>.txt are its files, the defaults of their games (default_openings_file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "damas/core/move.h"
#include "damas/core/position.h"

namespace damas {

struct OpeningLine {
  std::vector<Move> moves;  // played from the start
  Position position;        // where they lead
};

// Every line of exactly `plies` legal moves from `start` that ends where the side to move has a
// legal move, one per position reached (the first in move-generation order, depth first), in an
// order shuffled by `seed` (a fixed generator: the same on every platform).
std::vector<OpeningLine> opening_lines(const Position& start, int plies, std::uint64_t seed);

// Within `margin` (1/100 man) of equal, either way.
bool balanced(Score score, Score margin);

// The side to move's score of a position.
using PositionScorer = std::function<Score(const Position&)>;

struct BalancedOpening {
  OpeningLine line;
  Score white = 0;  // White's view
};

// The first `count` lines (0: all) whose score is balanced, in the order of `lines`; `tried`
// receives how many were scored. `on_scored(kept, tried)` follows the progress.
std::vector<BalancedOpening> select_balanced(
    const std::vector<OpeningLine>& lines, const PositionScorer& score, Score margin, std::size_t count,
    std::size_t* tried = nullptr, const std::function<void(std::size_t, std::size_t)>& on_scored = {});

// One line of the file: the moves in the game's PDN numbering, White's score as a comment
// ("9-13 22-18 10-14 24-20   # white +0.04").
std::string balanced_opening_text(const Position& start, const BalancedOpening& opening);

}  // namespace damas
