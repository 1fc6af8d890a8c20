#include "damas/search/level.h"

#include <array>

#include "damas/core/position.h"

namespace damas {
namespace {

// First values, to be calibrated with selfplay matches (see bench/README.md).
constexpr std::array<LevelParams, 5> kLevels = {{
    {"beginner", 2, 3'000, 60, 35, 120, 4, 4},
    {"easy", 4, 30'000, 35, 20, 70, 4, 6},
    {"medium", 8, 300'000, 15, 10, 40, 3, 10},
    {"hard", 14, 3'000'000, 5, 3, 20, 2, 16},
    {"full", 0, 0, 0, 0, 0, 1, 0},
}};

}  // namespace

std::optional<LevelParams> level_params(std::string_view name) {
  for (const LevelParams& l : kLevels)
    if (l.name == name) return l;
  return std::nullopt;
}

std::uint64_t LevelRandom::next() { return zobrist::splitmix64(state_); }

int LevelRandom::below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

std::size_t choose_move(const LevelParams& level, const std::vector<ScoredMove>& moves, LevelRandom& rng) {
  if (moves.size() < 2 || level.weak_move_percent <= 0) return 0;
  if (rng.below(100) >= level.weak_move_percent) return 0;
  const Score best = moves.front().score;
  // Mates are not given away: a found win is played, a loss is not walked into.
  if (is_win_score(best)) return 0;
  std::vector<std::size_t> reasonable;
  for (std::size_t i = 1; i < moves.size(); ++i) {
    const Score s = moves[i].score;
    if (is_loss_score(s) && !is_loss_score(best)) continue;
    if (best - s <= level.weak_move_margin) reasonable.push_back(i);
  }
  if (reasonable.empty()) return 0;
  return reasonable[static_cast<std::size_t>(rng.below(static_cast<int>(reasonable.size())))];
}

Score eval_noise(std::uint64_t key, std::uint64_t seed, Score noise) {
  if (noise <= 0) return 0;
  LevelRandom r(key ^ (seed * 0xD1B54A32D192ED03ULL));
  return static_cast<Score>(r.below(2 * noise + 1)) - noise;
}

}  // namespace damas
