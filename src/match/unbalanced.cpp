#include "damas/match/unbalanced.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

#include "damas/core/notation.h"
#include "damas/core/score_text.h"

namespace damas {
namespace {

bool level_men_only(const Position& p) {
  return p.kings() == 0 && popcount(p.pieces(Color::White)) == popcount(p.pieces(Color::Black));
}

}  // namespace

bool in_score_band(Score score, const UnbalancedCriteria& criteria) {
  const Score magnitude = static_cast<Score>(std::abs(score));
  return magnitude >= criteria.min_score && magnitude <= criteria.max_score;
}

std::vector<UnbalancedCandidate> select_unbalanced_candidates(const std::vector<TrainingRecord>& records,
                                                              const UnbalancedCriteria& criteria) {
  std::vector<UnbalancedCandidate> found;
  std::set<std::tuple<Bitboard, Bitboard, Bitboard, Color>> seen;
  bool game_done = false;  // this game already gave its position
  for (const TrainingRecord& r : records) {
    if (r.first_of_game) game_done = false;
    if (game_done || r.ply < criteria.min_ply || r.ply > criteria.max_ply) continue;
    if (!in_score_band(r.score, criteria) || !level_men_only(r.position)) continue;
    const Position& p = r.position;
    if (!seen.insert({p.pieces(Color::White), p.pieces(Color::Black), p.kings(), p.side_to_move()}).second)
      continue;
    found.push_back(UnbalancedCandidate{p, r.score, r.ply});
    game_done = true;
  }
  std::uint64_t state = criteria.seed;
  for (std::size_t i = found.size(); i > 1; --i)                     // Fisher-Yates with a fixed generator
    std::swap(found[i - 1], found[zobrist::splitmix64(state) % i]);  // the same on every platform
  return found;
}

std::string unbalanced_line(const Position& position, Score side_to_move_score, int ply, std::size_t number) {
  const Score white = position.side_to_move() == Color::White ? side_to_move_score : -side_to_move_score;
  return to_fen(position) + " | book-" + std::to_string(number) + " ply " + std::to_string(ply) + " white " +
         score_text(white);
}

}  // namespace damas
