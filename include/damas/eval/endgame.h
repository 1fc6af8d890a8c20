// Endings against a lone king, scored by a network of their own (src/eval/ending.dnn, the
// format and inference of eval/learned.h) trained on the endgame databases up to 5 pieces:
// every position of the slices where one side has a lone king and the other two to four pieces
// with a king, scored by its database value (a win in d plies 1000 - 15 d, at least 200; a draw
// 0). The general evaluation sees "a few pieces up" in all of them alike; this one knows that
// three pieces win only while the long diagonal a1-h8 is theirs, that two draw, and which
// positions are closer to the end, so the search makes progress without the databases
// (`damas egdb ending-data`, trainer/README.md).
#pragma once

#include <span>

#include "damas/core/position.h"
#include "damas/core/types.h"
#include "damas/eval/learned.h"

namespace damas {

// One side has a lone king, the other at least two pieces with a king.
bool is_lone_king_ending(const Position& p);

// The score of such a position for the side to move, 1/100 man (no capture pending; never a mate
// score).
Score evaluate_lone_king_ending(const Position& p);

// The embedded weights file and its parsed weights.
std::span<const unsigned char> builtin_ending_weights_file();
const LearnedWeights& builtin_ending_weights();

}  // namespace damas
