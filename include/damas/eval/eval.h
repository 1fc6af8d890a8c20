// Static evaluation. Weights live in one struct so they can be learned and loaded from a file.
//
// Every term is computed for each side with bitboard masks and popcounts and scored as
// "ours minus theirs", so the evaluation is colour-symmetric: the 180-degree-rotated,
// colour-swapped position with the other side to move gets the same score.
#pragma once

#include <string>
#include <string_view>

#include "damas/core/expected.h"
#include "damas/core/position.h"
#include "damas/core/types.h"

namespace damas {

// All weights in 1/100 man unless the name says otherwise. Terms at 0 lost Elo in selfplay
// (bench/eval.md) and stay switchable for re-measurement at longer time controls. "Opening" values apply with
// all 24 pieces on the board, "endgame" values with none; in between they are interpolated.
struct EvalWeights {
  Score man = 100;
  Score king = 300;
  // Material is multiplied by 1 + simplify_percent/100 * (pieces taken off)/24: trading down
  // when ahead is worth something.
  Score simplify_percent = 30;
  // Tempo: rows a man has advanced from its own back row, per man and row.
  Score advance_opening = 0;
  Score advance_endgame = 6;
  // Men on the four centre squares (c5 e5 d4 f4 = 14 15 18 19); kings there.
  Score centre_man = 0;
  Score centre_king = 0;
  // Men on their own back row while the opponent has no king (they stop crowning).
  Score back_row = 6;
  // A man no enemy man can intercept (and the opponent has no king): runaway - runaway_per_row
  // * (rows still to go - 1), never below zero.
  Score runaway = 150;
  Score runaway_per_row = 15;
  // Kings on the long diagonal a1-h8 (29 25 22 18 15 11 8 4).
  Score king_long_diagonal = 20;
  // Men whose forward squares are all occupied, at least one by an enemy: only a capture frees them.
  Score blocked_man = 0;
  // Men with empty forward squares where every step is met by a capture.
  Score trapped_man = 8;
  // Quiet forward man steps that are not met by an immediate capture.
  Score safe_mobility = 2;
  // Side to move has men, no king and no safe man step: it must give material.
  Score no_safe_move = 30;
  // Per man of difference between the left (a-d) and right (e-h) wings.
  Score wing_imbalance = 0;
  // A lone king cannot lose against two pieces, nor against three when it holds the long
  // diagonal: the score is divided by this.
  Score lone_king_divisor = 8;
};

// Score of p for the side to move, in 1/100 man. Must not be called with a capture pending
// (the search resolves captures first); never returns a mate score.
Score evaluate(const Position& p, const EvalWeights& w);

// Weights file: one "name value" pair per line, '#' comments. Unknown names are an error;
// weights not named keep their built-in value.
Expected<EvalWeights> load_weights(const std::string& path);
Expected<EvalWeights> parse_weights(std::string_view text, const std::string& source = "weights");
std::string weights_to_text(const EvalWeights& w);
// Sets one weight by name (for tools that vary a feature); unknown name = error.
Status set_weight(EvalWeights& w, std::string_view name, long value);

}  // namespace damas
