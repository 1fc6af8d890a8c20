// Endings against a lone king, scored by a network of their own trained on the endgame databases
// up to 5 pieces: every position (or a large random share) of the slices where one side has a
// lone king and the other two to four pieces with a king, scored by its database value (a win in
// d plies 1000 - 15 d, at least 200; a draw 0). The general evaluation sees "a few pieces up" in
// all of them alike; this one knows that three pieces win only while the long diagonal a1-h8 is
// theirs, that two draw, and how far each position is from the end, so the search makes progress
// without the databases (`damas egdb ending-data`, trainer/train_ending.py).
//
// One network per bucket of the strong side's material (two pieces; three kings; three pieces
// with a man; four or more), each trained on its own slices, so the ending that needs the most
// precision, three kings against one, has a network of its own. Inputs (4160) are seen from the
// strong side (its squares as numbered when it is White, rotated 180 degrees when Black) and are
// relative to the lone king, because what decides these endings is where the pieces stand
// against it: for each strong piece, one of
//   ((to_move * 2 + kind) * 32 + lone) * 32 + square      to_move 0 strong, 1 lone; kind 0 man, 1 king
// and for the lone king  4096 + to_move * 32 + lone  (squares 0..31 = standard numbers 1..32).
// Layers, quantized as the learned evaluation's (eval/learned.h):
//   L1  4160 -> 128  int16 weights round(127 w), bias the same; a1 = clamp(sum, 0, 127)
//   L2   128 -> 16   int16 round(64 w), int32 bias round(127*64 b); a2 = clamp(z >> 6, 0, 127)
//   L3    16 -> 1    int32 round(256*100/127 w), bias round(256*100 b); score = z >> 8
// The score is the strong side's, in 1/100 man.
//
// Weights file, version 1, little-endian:
//   offset size  field
//        0    8  magic "DAMASEN\0"
//        8    4  version (1)
//       12    4  inputs (4160)    16  4  hidden 1 (128)    20  4  hidden 2 (16)
//       24    4  buckets (4)      28  4  zero
//       32    8  checksum: FNV-1a 64 (core/binary_io.h) over the payload
//       40       payload, per bucket in order: w1 int16[4160][128] (input-major), b1 int16[128],
//                w2 int16[16][128], b2 int32[16], w3 int32[16], b3 int32
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/position.h"
#include "damas/core/types.h"

namespace damas {

inline constexpr int kEndingInputs = 4160;
inline constexpr int kEndingHidden1 = 128;
inline constexpr int kEndingHidden2 = 16;
inline constexpr int kEndingBuckets = 4;
inline constexpr std::uint32_t kEndingWeightsVersion = 1;

struct EndingNetwork {
  std::vector<std::int16_t> w1 = std::vector<std::int16_t>(std::size_t{kEndingInputs} * kEndingHidden1);
  std::array<std::int16_t, kEndingHidden1> b1{};
  std::array<std::int16_t, kEndingHidden2 * kEndingHidden1> w2{};  // [hidden 2][hidden 1]
  std::array<std::int32_t, kEndingHidden2> b2{};
  std::array<std::int32_t, kEndingHidden2> w3{};
  std::int32_t b3 = 0;
};

struct EndingWeights {
  std::array<EndingNetwork, kEndingBuckets> buckets;
};

// The bucket of a lone-king ending: 0 two pieces, 1 three kings, 2 three pieces with a man, 3 four
// or more.
int ending_bucket(const Position& p);

Expected<EndingWeights> parse_ending_weights(std::span<const unsigned char> bytes,
                                             const std::string& source = "ending weights");
std::vector<unsigned char> ending_weights_to_bytes(const EndingWeights& w);

// One side has a lone king, the other at least two pieces with a king.
bool is_lone_king_ending(const Position& p);

// The input indices of such a position (the strong side's pieces, then the lone king); returns
// how many.
int ending_features(const Position& p, std::array<int, 2 * rules::kMenPerSide + 1>& out);

// The network's score of such a position for the side to move, 1/100 man.
Score evaluate_ending_network(const Position& p, const EndingWeights& w);

// The score the search uses for such a position, for the side to move (no capture pending; never a
// mate score).
Score evaluate_lone_king_ending(const Position& p);

// The embedded weights file and its parsed weights.
std::span<const unsigned char> builtin_ending_weights_file();
const EndingWeights& builtin_ending_weights();

}  // namespace damas
