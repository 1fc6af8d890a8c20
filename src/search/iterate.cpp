// Iterative deepening of one search thread: the root moves, aspiration windows per line, the
// progress reports and, on the main thread, whether the next iteration is worth starting.
#include <algorithm>

#include "worker.h"

namespace damas {

Score Worker::root_search(int depth, Score alpha, Score beta, std::size_t first) {
  const Position& root = request_.root;
  pv_length_[0] = 0;
  keys_[root_key_index_] = root.key();
  Score best = kNoScore;
  for (std::size_t i = first; i < root_moves_.size(); ++i) {
    const Move m = root_moves_[i].move;
    const Position child = root.after(m);
    if (counted_laws_) draw_[1] = advance_counters(request_.draw_rules, draw_[0], root, child);
    history_.note_played(0, m);
    Score s;
    if (i == first) {
      s = -search(child, depth - 1, -beta, -alpha, 1, true);
    } else {
      s = -search(child, depth - 1, -alpha - 1, -alpha, 1, false);
      if (s > alpha && s < beta) s = -search(child, depth - 1, -beta, -alpha, 1, true);
    }
    if (shared_.stopped()) break;

    if (i == first || s > alpha) keep_root_line(i, first, s, depth);
    else root_moves_[i].score = kNoScore;
    if (s > best) best = s;
    if (s > alpha) {
      alpha = s;
      if (s >= beta) break;
    }
  }
  return best;
}

// Root move i scored s, the best so far among the lines from `first`: it keeps its line and goes
// to the front of them, so a stop keeps it.
void Worker::keep_root_line(std::size_t i, std::size_t first, Score s, int depth) {
  RootMove& rm = root_moves_[i];
  rm.score = s;
  rm.pv.assign(1, rm.move);
  for (int k = 0; k < pv_length_[1]; ++k) rm.pv.push_back(pv_[1][static_cast<std::size_t>(k)]);
  std::rotate(root_moves_.begin() + static_cast<std::ptrdiff_t>(first),
              root_moves_.begin() + static_cast<std::ptrdiff_t>(i),
              root_moves_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  if (i != first && id_ == 0 && request_.multipv == 1) report(depth, 0);
}

void Worker::report(int depth, std::size_t lines) const {
  if (!shared_.on_info) return;
  const std::size_t count = std::max<std::size_t>(lines, 1);
  for (std::size_t i = 0; i < count && i < root_moves_.size(); ++i) {
    const RootMove& rm = root_moves_[i];
    SearchInfo info;
    info.depth = depth;
    info.mean_depth = mean_depth();
    info.score = rm.score != kNoScore ? rm.score : rm.last_score;
    info.nodes = shared_.total_nodes();
    info.tbhits = shared_.total_tbhits();
    info.seconds = shared_.seconds_since_go();
    info.pv = rm.pv;
    info.multipv_index = static_cast<int>(i) + 1;
    shared_.on_info(info);
  }
}

// The root line `line` (the best of the moves from it on) at depth: a window around the last
// iteration's score, widened on each fail, full width past 400.
void Worker::search_line(int depth, std::size_t line, std::size_t lines) {
  const Score previous = root_moves_[line].last_score;
  Score delta = request_.tuning.aspiration_delta;
  Score alpha = -kScoreInfinite;
  Score beta = kScoreInfinite;
  if (depth >= 4 && lines == 1 && previous != kNoScore && !is_win_score(previous) &&
      !is_loss_score(previous)) {
    alpha = std::max(previous - delta, -kScoreInfinite);
    beta = std::min(previous + delta, kScoreInfinite);
  }
  while (true) {
    const Score s = root_search(depth, alpha, beta, line);
    if (shared_.stopped()) return;
    if (s <= alpha && alpha > -kScoreInfinite) {
      beta = (alpha + beta) / 2;
      alpha = std::max(s - delta, -kScoreInfinite);
    } else if (s >= beta && beta < kScoreInfinite) {
      beta = std::min(s + delta, kScoreInfinite);
    } else {
      return;
    }
    delta += delta;
    if (delta > 400) {
      alpha = -kScoreInfinite;
      beta = kScoreInfinite;
    }
  }
}

int Worker::deepest_iteration() const {
  int max_depth = kMaxDepth;
  if (request_.limits.depth) max_depth = std::clamp(*request_.limits.depth, 1, kMaxDepth);
  if (request_.level.max_depth) max_depth = std::min(max_depth, request_.level.max_depth);
  return max_depth;
}

void Worker::iterate() {
  const int max_depth = deepest_iteration();
  const std::size_t lines =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(request_.multipv, 1)), root_moves_.size());
  IterationTrack track;
  // Helpers start at staggered depths so the threads spread over the tree.
  for (int depth = 1 + (id_ % 2); depth <= max_depth; ++depth) {
    // A helper never skips the last depth it may search: it would end with nothing to do.
    if (id_ != 0 && request_.tuning.smp_skip_depths && depth < max_depth && helper_skips_depth(id_, depth))
      continue;
    root_depth_ = depth;
    for (RootMove& rm : root_moves_) {
      rm.last_score = rm.score;
      rm.score = kNoScore;
    }
    for (std::size_t line = 0; line < lines; ++line) {
      search_line(depth, line, lines);
      if (shared_.stopped()) break;
      // Lines after this one keep their order from the last iteration.
      std::stable_sort(root_moves_.begin() + static_cast<std::ptrdiff_t>(line) + 1, root_moves_.end(),
                       [](const RootMove& a, const RootMove& b) { return a.last_score > b.last_score; });
    }
    if (shared_.stopped()) break;
    completed_depth_ = depth;
    depth_one_done_ = true;
    if (id_ != 0) continue;
    report(depth, lines);
    if (!worth_another_iteration(depth, track)) break;
  }
}

// Between iterations of the main thread: the clock (stretched by a changing best move) and a mate
// inside the horizon say whether to go on.
bool Worker::worth_another_iteration(int depth, IterationTrack& track) {
  const RootMove& best = root_moves_[0];
  if (best.move == track.last_best) {
    ++track.stable;
  } else {
    if (!track.last_best.is_null()) ++track.best_changes;
    track.stable = 0;
    track.last_best = best.move;
  }
  const bool pondering = shared_.control.pondering.load(std::memory_order_relaxed);
  if (!pondering && shared_.budget.soft && !shared_.budget.fixed) {
    const double soft = adjust_soft(shared_.budget, track.best_changes, track.stable);
    if (shared_.seconds_on_clock() >= soft * 0.6) return false;
  }
  // A mate within the horizon: deeper search cannot change it.
  if (is_win_score(best.score) && win_in(depth) <= best.score && request_.mode == GoMode::Think && !pondering)
    return false;
  track.best_changes = std::max(0, track.best_changes - 1);
  return true;
}

}  // namespace damas
