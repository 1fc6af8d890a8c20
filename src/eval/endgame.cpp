#include "damas/eval/endgame.h"

#include <algorithm>

namespace damas {
namespace {
constexpr int kTwoPiecesDivisor = 16;
}  // namespace

bool is_lone_king_ending(const Position& p) {
  for (Color lone : {Color::White, Color::Black})
    if (popcount(p.pieces(lone)) == 1 && p.kings(lone))
      return popcount(p.pieces(~lone)) >= 2 && p.kings(~lone) != 0;
  return false;
}

Score evaluate_lone_king_ending(const Position& p) {
  const Score net = evaluate_learned(p, builtin_ending_weights());
  // Two pieces against a lone king are a draw but where the lone king is caught at once, which the
  // search sees; the network scores some of them as wins, so a king given away for them looked
  // cheap (a won three-kings ending was drawn that way).
  const int attackers = std::max(popcount(p.pieces(Color::White)), popcount(p.pieces(Color::Black)));
  return attackers <= 2 ? static_cast<Score>(net / kTwoPiecesDivisor) : net;
}

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
