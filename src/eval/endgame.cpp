#include "damas/eval/endgame.h"

namespace damas {

bool is_lone_king_ending(const Position& p) {
  for (Color lone : {Color::White, Color::Black})
    if (popcount(p.pieces(lone)) == 1 && p.kings(lone))
      return popcount(p.pieces(~lone)) >= 2 && p.kings(~lone) != 0;
  return false;
}

Score evaluate_lone_king_ending(const Position& p) { return evaluate_learned(p, builtin_ending_weights()); }

const LearnedWeights& builtin_ending_weights() {
  // Checked by tests/test_endgame_eval.cpp; an unreadable embedded file would be a build defect.
  static const LearnedWeights kWeights = [] {
    Expected<LearnedWeights> w =
        parse_learned_weights(builtin_ending_weights_file(), "built-in ending weights");
    return w ? *w : LearnedWeights{};
  }();
  return kWeights;
}

}  // namespace damas
