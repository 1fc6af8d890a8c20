// Unbalanced start positions (an "unbalanced opening book" in chess testing) for sensitive engine tests:
// positions from our own self-play data (core/training_data.h) a few plies past the opening, material level,
// where one side stands clearly but not decisively better. Between two close versions of the engine the FMJD
// ballots are drawn about 95% of the time at 5+0.05; from such positions, played in colour-reversed pairs,
// the better side wins more often (the idea of chess's unbalanced opening books). Measured at
// 5+0.05 (bench/sprt.md), the book of bench/ halves the draws but does not tell two engines apart
// faster than the ballots.
//
// The book is a ballot file ("FEN | name" per line, match/openings.h reads it). Its writer is
// unbalanced_line() here; `damas unbalanced` (cli/tool_unbalanced.cpp) selects, re-searches and writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "damas/core/training_data.h"

namespace damas {

struct UnbalancedCriteria {
  int min_ply = 10;  // ply of the game (the ballot's three moves count)
  int max_ply = 16;
  // The side to move's advantage in either direction, 1/100 man: |score| in [min_score, max_score].
  Score min_score = 40;
  Score max_score = 90;
  std::uint64_t seed = 1;  // order of the candidates
};

struct UnbalancedCandidate {
  Position position;
  Score score = 0;  // the data's search score, side to move's view
  int ply = 0;
};

// The records that fit: inside the ply and score bands, no kings, as many men on each side;
// at most one position per game (its first that fits), each position once. Returned in an order
// shuffled by the seed (the same for the same records and seed on every platform), so a book
// made of the first ones spreads over the games.
std::vector<UnbalancedCandidate> select_unbalanced_candidates(const std::vector<TrainingRecord>& records,
                                                              const UnbalancedCriteria& criteria);

// Whether a searched score keeps the position in the book's band.
bool in_score_band(Score score, const UnbalancedCriteria& criteria);

// One line of the book file: "FEN | book-N ply P white +0.52" (White's advantage in men).
std::string unbalanced_line(const Position& position, Score side_to_move_score, int ply, std::size_t number);

}  // namespace damas
