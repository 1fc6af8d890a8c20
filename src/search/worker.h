// One search thread (a Worker) and the state the threads of one search share: the private
// interface between the node search, the iterative deepening and the Lazy SMP driver.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "damas/core/draw_rules.h"
#include "damas/core/move.h"
#include "damas/search/history.h"
#include "damas/search/search.h"
#include "damas/search/timeman.h"

namespace damas {

inline constexpr Score kNoScore = -kScoreInfinite;

// What the databases say of a position under the draw law in force.
struct EgdbVerdict {
  Score score = kNoScore;  // kNoScore: not covered
  bool proven = false;     // the score is the value (else an estimate: search on below it)
};

struct RootMove {
  Move move;
  Score score = kNoScore;       // this iteration (kNoScore: failed low or not searched)
  Score last_score = kNoScore;  // last completed iteration
  std::vector<Move> pv;
};

class Worker;

// Lazy SMP: whether helper thread `helper` (1, 2, ...) leaves depth `depth` to the others.
bool helper_skips_depth(int helper, int depth);

// State shared by the threads of one search.
struct Shared {
  const SearchRequest& request;
  TranspositionTable& tt;
  SearchControl& control;
  const InfoCallback& on_info;
  TimeBudget budget;
  std::vector<std::unique_ptr<Worker>> workers;
  std::int64_t go_ns = 0;  // when the search started (for reported times)

  std::uint64_t total_nodes() const;
  std::uint64_t total_tbhits() const;
  bool stopped() const { return control.stop.load(std::memory_order_relaxed); }
  double seconds_since_go() const { return static_cast<double>(SearchControl::now_ns() - go_ns) * 1e-9; }
  double seconds_on_clock() const {
    return static_cast<double>(SearchControl::now_ns() -
                               control.clock_start_ns.load(std::memory_order_relaxed)) *
           1e-9;
  }
};

class Worker {
 public:
  Worker(Shared& shared, int id);

  // Iterative deepening until stopped; the main worker (id 0) also enforces the limits.
  void iterate();

  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  std::uint64_t tbhits() const { return tbhits_.load(std::memory_order_relaxed); }
  const std::vector<RootMove>& root_moves() const { return root_moves_; }
  int completed_depth() const { return completed_depth_; }
  double mean_depth() const {
    return leaves_ ? static_cast<double>(leaf_ply_sum_) / static_cast<double>(leaves_) : 0.0;
  }
  // Calls on_info with the first `lines` root lines (at least one) of the iteration at `depth`.
  void report(int depth, std::size_t lines) const;

 private:
  // The main thread's view of the iterations so far, for the time decision.
  struct IterationTrack {
    Move last_best = kNullMove;
    int best_changes = 0;
    int stable = 0;  // iterations since the best move last changed
  };

  // Iterative deepening (iterate.cpp).
  int deepest_iteration() const;
  bool worth_another_iteration(int depth, IterationTrack& track);
  void search_line(int depth, std::size_t line, std::size_t lines);
  Score root_search(int depth, Score alpha, Score beta, std::size_t first);
  void keep_root_line(std::size_t i, std::size_t first, Score score, int depth);
  // The node search (node_search.cpp).
  Score search(const Position& pos, int depth, Score alpha, Score beta, int ply, bool pv_node);
  Score search_moves(const Position& pos, int depth, Score alpha, Score beta, int ply, bool pv_node,
                     const MoveTag& tt_move, Key key);
  std::optional<Score> probcut(const Position& pos, int depth, Score beta, int ply,
                               const std::optional<TTEntry>& tte);
  Score qsearch(const Position& pos, Score alpha, Score beta, int ply);
  void update_pv(int ply, const Move& m);
  // The node's surroundings (worker.cpp).
  Score static_eval(const Position& pos, int ply);
  // The databases' verdict on pos (score kNoScore when not covered: a sentinel, not
  // std::optional: returning that cost a store-forwarding stall at every node).
  EgdbVerdict probe_egdb(const Position& pos, int ply);
  // Plies before a draw law ends the game at the node of `ply` (seed: the 80-ply count).
  int plies_left(const Position& pos, int ply) const;
  Key tt_key(const Position& pos, int ply) const;
  bool is_repetition(const Position& pos, int ply) const;
  bool should_stop();
  void check_limits();
  void count_node() { nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
  int lmr_reduction(int depth, std::size_t index) const {
    return lmr_[static_cast<std::size_t>(std::min(depth, 63))][std::min<std::size_t>(index, 63)];
  }

  Shared& shared_;
  const SearchRequest& request_;
  const int id_;
  std::atomic<std::uint64_t> nodes_{0};
  std::atomic<std::uint64_t> tbhits_{0};
  std::unique_ptr<egdb::ProbeCache> probe_cache_;
  std::uint64_t leaf_ply_sum_ = 0;
  std::uint64_t leaves_ = 0;
  std::uint64_t next_check_ = 0;
  int completed_depth_ = 0;
  int root_depth_ = 0;  // nominal depth of the running iteration
  bool depth_one_done_ = false;

  std::vector<RootMove> root_moves_;
  const bool counted_laws_ = false;  // counted draw laws (fmjd64, portuguese) instead of the 80-ply rule
  // The laws' counters of the node at each ply (counted laws only).
  std::array<DrawCounters, kMaxPly + 2> draw_{};
  // Keys of the game history followed by the current search path (for repetitions).
  std::vector<Key> keys_;
  std::size_t root_key_index_ = 0;
  // The learned evaluation's first-layer sums by ply (learned evaluation only).
  std::optional<LearnedEvalStack> learned_;
  MoveHistory history_;
  std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1> pv_{};
  std::array<int, kMaxPly + 1> pv_length_{};
  // Late move reductions by [depth][move index], from SearchTuning::lmr_divisor.
  std::array<std::array<std::uint8_t, 64>, 64> lmr_{};
};

}  // namespace damas
