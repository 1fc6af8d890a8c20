// The search: iterative deepening PVS alpha-beta over a shared transposition table, run by one
// or more threads (Lazy SMP). The Engine facade owns threads, options and history; this module
// runs one search to completion on the calling thread (plus helper threads it starts itself).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "damas/core/draw_rules.h"
#include "damas/core/position.h"
#include "damas/egdb/egdb.h"
#include "damas/eval/eval.h"
#include "damas/eval/learned.h"
#include "damas/search/level.h"
#include "damas/search/limits.h"
#include "damas/search/tt.h"

namespace damas {

// Signals between the facade and a running search.
struct SearchControl {
  std::atomic<bool> stop{false};
  std::atomic<bool> pondering{false};
  // steady_clock time (ns since epoch) from which the budget runs: go, or ponder_hit.
  std::atomic<std::int64_t> clock_start_ns{0};

  static std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

// Switches and constants of the selective search, so each can be measured against its absence
// (fixed-depth node counts, matches). The defaults are what the engine plays with.
struct SearchTuning {
  bool lmr = true;           // late move reductions
  double lmr_divisor = 1.8;  // reduction = ln(depth) * ln(move index) / divisor
  // Half width of the first aspiration window around the last iteration's score; doubled after
  // each fail, the full window past 400.
  int aspiration_delta = 25;
  bool probcut = true;  // a shallow search far above beta predicts a cut
  int probcut_min_depth = 5;
  int probcut_reduction = 4;
  Score probcut_margin = 60;
  // At the horizon, a quiet position where the opponent threatens a capture gets one more ply
  // (the side to move may still parry) instead of the static evaluation.
  bool threat_extension = false;
  // Lazy SMP: helper threads search other depths than the main thread (a table of skipped
  // depths), so that two threads are not two copies of one iteration.
  bool smp_skip_depths = true;
  // Lazy SMP: the move played is that of the thread with the deepest completed iteration.
  bool smp_deepest_thread = true;
  // Time management: the soft budget of a clock times this (1 = as planned by plan_time).
  double time_use = 1.0;
};

struct SearchRequest {
  Position root;
  std::vector<Key> history;  // keys of the game positions before the root, oldest first
  DrawRules draw_rules = DrawRules::Seed;
  DrawCounters root_draw;  // FMJD-64 counters of the root (fmjd64 only)
  SearchLimits limits;
  GoMode mode = GoMode::Think;
  int threads = 1;
  int multipv = 1;
  double move_overhead = 0.03;  // seconds
  EvalWeights weights;
  std::shared_ptr<const LearnedWeights> learned;  // set: the learned evaluation; null: classic
  LevelParams level;                              // strength limits (full strength: no limits)
  std::uint64_t seed = 0;                         // randomness of weak levels and evaluation noise
  SearchTuning tuning;
  // Endgame databases probed in the tree (null: none); positions with more pieces are searched.
  std::shared_ptr<const egdb::Database> egdb;
  // Root moves left out of the search (the book builder's best move outside the book); with every
  // legal move left out the result has a null best move.
  std::vector<Move> excluded;
};

// The transposition-table key of pos: its pieces and side to move and, where a draw law can end
// the game within the search's reach, that law's counters (the same pieces with another count can
// have another value).
Key search_key(const Position& pos, DrawRules rules, const DrawCounters& counters);

// Runs the search to its end (limits, stop, or nothing left to search). Never returns a null best
// move while the root has a legal move. `on_info` is called from the calling thread only.
SearchResult run_search(const SearchRequest& request, TranspositionTable& tt, SearchControl& control,
                        const InfoCallback& on_info);

}  // namespace damas
