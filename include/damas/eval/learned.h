// The learned evaluation: a small network trained by trainer/ on self-play data
// (core/training_data.h), run in integer arithmetic.
//
// Inputs (128): for the side to move, its men and kings, then the opponent's men and kings, each
// on the 32 squares seen from the side to move (Black's squares rotated 180 degrees: square n ->
// 33 - n), so the evaluation is colour-symmetric by construction. Layers, with the quantization
// the trainer exports (trainer/model.py):
//
//   L1 128 -> 128  int16 weights w1 = round(127 w), bias the same; the accumulator (b1 plus the
//                  rows of the pieces, wrapping int16 sums) is summed from scratch by
//                  evaluate_learned(p, w), or updated from a nearby position's sums by the
//                  squares that differ (LearnedAccumulator, LearnedEvalStack: the search);
//                  a1 = clamp(acc, 0, 127)
//   L2  128 -> 16  int16 weights round(64 w), int32 bias round(127*64 b); a2 = clamp(z >> 6, 0, 127)
//   L3   16 -> 1   int32 weights round(256*100/127 w), bias round(256*100 b); score = z >> 8
//
// so the score is the float network's output (in men) times 100, to within the quantization
// error (measured by the trainer, bench/learned-eval.md).
//
// Weights file, version 2, little-endian:
//   offset size  field
//        0    8  magic "DAMASNN\0"
//        8    4  version (2)
//       12    4  inputs (128)    16  4  hidden 1 (128, or 64: generations 1 and 2; read as 128
//                                       units of which the last 64 are all zero, same scores)
//       20    4  hidden 2 (16)
//       24    8  checksum: FNV-1a 64 (core/training_data.h) over bytes 32 to the end
//       32    4  the game the network is trained for: its PDN GameType (26 Brazilian, 25 Russian)
//       36    4  reserved, 0
//       40       payload: w1 int16[128][H1] (input-major), b1 int16[H1], w2 int16[16][H1],
//                b2 int32[16], w3 int32[16], b3 int32
// Version 1 (generations 1-3: no game field, the payload at 32, the checksum over it) is Brazilian.
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

inline constexpr int kLearnedInputs = 128;
inline constexpr int kLearnedHidden1 = 128;
inline constexpr int kLearnedHidden2 = 16;
inline constexpr std::uint32_t kLearnedWeightsVersion = 2;

// Position in LearnedWeights::w2 of the weight from L1 output i to L2 output j.
constexpr std::size_t learned_w2_index(std::size_t i, std::size_t j) {
  return (i / 2) * (2 * kLearnedHidden2) + 2 * j + i % 2;
}

struct LearnedWeights {
  alignas(32) std::array<std::int16_t, kLearnedInputs * kLearnedHidden1> w1{};
  alignas(32) std::array<std::int16_t, kLearnedHidden1> b1{};
  // Held as input pairs ([H1/2][16][2], see learned_w2_index) for multiply-add of int16 pairs; the
  // file stores [16][H1].
  alignas(32) std::array<std::int16_t, kLearnedHidden1 * kLearnedHidden2> w2{};
  std::array<std::int32_t, kLearnedHidden2> b2{};
  std::array<std::int32_t, kLearnedHidden2> w3{};
  std::int32_t b3 = 0;
  Variant variant = Variant::Brazilian;  // the game it was trained for
};

// True if the bytes start like a learned-weights file (so eval-file can tell it from classic
// text weights).
bool is_learned_weights(std::span<const unsigned char> bytes);
Expected<LearnedWeights> parse_learned_weights(std::span<const unsigned char> bytes,
                                               const std::string& source = "learned weights");
Expected<LearnedWeights> load_learned_weights(const std::string& path);
std::vector<unsigned char> learned_weights_to_bytes(const LearnedWeights& w);
// The weights file embedded at build time (src/eval/learned.dnn, generated learned_weights.cpp)
// and its parsed weights: the Brazilian network, built in for Russian games too (the Russian one
// trained so far measured no stronger there, bench/russian.md).
std::span<const unsigned char> builtin_learned_weights_file();
const LearnedWeights& builtin_learned_weights();

// The 128 input indices of p's pieces (side to move's view); returns how many.
int learned_features(const Position& p, std::array<int, 2 * rules::kMenPerSide>& out);
// Score of p for the side to move, 1/100 man; like evaluate(), never a mate score. The
// reference: everything from scratch.
Score evaluate_learned(const Position& p, const LearnedWeights& w);

// The first layer's sums of a position's pieces from one colour's view (White's view: the sums
// used when White is to move), so the sums of a nearby position follow by the few squares whose
// piece differs instead of all the pieces.
class LearnedAccumulator {
 public:
  using Sums = std::array<std::int16_t, kLearnedHidden1>;

  // view's sums of p's pieces from scratch.
  void refresh(const Position& p, Color view, const LearnedWeights& w);
  // The sums of p's pieces in from's view, from from's (any position; `from` may be *this): only
  // the squares whose piece differs are added or taken off. Equal to refresh, bit for bit.
  void update(const LearnedAccumulator& from, const Position& p, const LearnedWeights& w);
  // How many squares hold another piece (or none) in p than in the summed position.
  int distance(const Position& p) const {
    return popcount((white_ ^ p.pieces(Color::White)) | (black_ ^ p.pieces(Color::Black)) |
                    (kings_ ^ p.kings()));
  }
  // True if these are view's sums of p's pieces (p's side to move does not matter).
  bool is_for(const Position& p, Color view) const { return view_ == view && distance(p) == 0; }
  Color view() const { return view_; }
  const Sums& sums() const { return sums_; }
  // Score of p from these sums (is_for(p, p.side_to_move())); equals evaluate_learned(p, w).
  Score evaluate(const LearnedWeights& w) const;

 private:
  alignas(32) Sums sums_{};
  // The pieces summed; ghost bits (no position has them) until the first refresh.
  Bitboard white_ = ~kBoard, black_ = ~kBoard, kings_ = ~kBoard;
  Color view_ = Color::White;
};

// The learned evaluation of the positions of a search, by ply: the side to move at a ply is the
// same all through a search, so the sums kept from the last evaluation at the same ply (a sibling
// or cousin) or two plies up are usually a few squares off and updated rather than summed anew.
class LearnedEvalStack {
 public:
  LearnedEvalStack(const LearnedWeights& w, std::size_t plies) : w_(w), acc_(plies) {}
  // evaluate_learned(p, w) for a position p at `ply` (< plies).
  Score evaluate(std::size_t ply, const Position& p);
  // The accumulator evaluate(ply, p) used (tests).
  const LearnedAccumulator& accumulator(std::size_t ply) const { return acc_[ply]; }

 private:
  const LearnedWeights& w_;
  std::vector<LearnedAccumulator> acc_;
};

}  // namespace damas
