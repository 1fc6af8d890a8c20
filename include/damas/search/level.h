// Strength levels: per-level search limits and human-like imprecision. `full` has none.
// Lower levels search shallower, see a noisy evaluation, and sometimes prefer a reasonable but
// weaker root move, so they play like weaker people rather than like a random mover.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "damas/core/move.h"
#include "damas/core/types.h"

namespace damas {

struct LevelParams {
  std::string_view name = "full";
  int max_depth = 0;            // nominal depth cap, 0 = none
  std::uint64_t max_nodes = 0;  // node cap per move, 0 = none
  Score eval_noise = 0;         // evaluation noise, +- centi-men, deterministic per position
  int weak_move_percent = 0;    // chance of choosing a weaker reasonable root move
  Score weak_move_margin = 0;   // how much worse (centi-men) such a move may score
  int candidates = 1;           // root moves given exact scores for that choice
  int book_ply = 0;             // the opening book is followed up to this ply at most, 0 = no cap
  bool full_strength() const {
    return max_depth == 0 && max_nodes == 0 && eval_noise == 0 && weak_move_percent == 0;
  }
};

// The table of levels (beginner, easy, medium, hard, full); nullopt for an unknown name.
std::optional<LevelParams> level_params(std::string_view name);

// A scored root move, best first.
struct ScoredMove {
  Move move;
  Score score = 0;
};

// Small deterministic random generator (splitmix64) for level choices and noise.
class LevelRandom {
 public:
  explicit LevelRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  int below(int n);  // uniform in [0, n), n > 0

 private:
  std::uint64_t state_;
};

// Picks the index of the move to play among `moves` (sorted best first, non-empty): usually 0,
// sometimes a weaker one within the level's margin. Never a losing blunder when a non-losing move
// exists, never a move outside the margin.
std::size_t choose_move(const LevelParams& level, const std::vector<ScoredMove>& moves, LevelRandom& rng);

// Deterministic evaluation noise in [-noise, noise] for a position key.
Score eval_noise(std::uint64_t key, std::uint64_t seed, Score noise);

}  // namespace damas
