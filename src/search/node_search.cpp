// The node search: principal variation search with the transposition table, ProbCut, late move
// reductions of the History band, and the capture quiescence below the horizon.
#include <algorithm>

#include "damas/core/movegen.h"
#include "damas/search/move_picker.h"
#include "worker.h"

namespace damas {

Score Worker::qsearch(const Position& pos, Score alpha, Score beta, int ply) {
  count_node();
  if (should_stop()) return 0;
  const bool capture = has_capture(pos);
  if (ply >= kMaxPly) return capture ? 0 : static_eval(pos, ply);
  if (!capture) {
    if (!has_legal_move(pos)) return loss_in(ply);
    leaf_ply_sum_ += static_cast<std::uint64_t>(ply);
    ++leaves_;
    return static_eval(pos, ply);  // quiet: stand pat is the whole story here
  }
  // A capture is pending: it is forced, so there is no stand-pat.
  MoveList moves;
  generate_legal_moves(pos, moves);
  Score best = kNoScore;
  for (const Move& m : moves) {
    const Score s = -qsearch(pos.after(m), -beta, -alpha, ply + 1);
    if (s > best) {
      best = s;
      if (s > alpha) {
        alpha = s;
        if (s >= beta) break;
      }
    }
  }
  return best;
}

Score Worker::search(const Position& pos, int depth, Score alpha, Score beta, int ply, bool pv_node) {
  const auto p = static_cast<std::size_t>(ply);
  pv_length_[p] = 0;
  keys_[root_key_index_ + p] = pos.key();

  if (counted_laws_) {
    // A side without a move has lost even when a law would draw.
    if (drawn_by_law(pos, request_.draw_rules, draw_[p]))
      return has_legal_move(pos) ? kScoreDraw : loss_in(ply);
  } else if (pos.reversible_plies() >= rules::kNoProgressDrawPlies) {
    return kScoreDraw;
  }
  if (is_repetition(pos, ply)) return kScoreDraw;
  const EgdbVerdict egdb = probe_egdb(pos, ply);
  if (egdb.score != kNoScore && (egdb.proven || depth <= 0 || ply >= kMaxPly)) return egdb.score;
  if (ply >= kMaxPly) return qsearch(pos, alpha, beta, ply);
  if (depth <= 0) {
    const bool threatened = request_.tuning.threat_extension && ply < 2 * root_depth_ && !has_capture(pos) &&
                            has_capture(pos, ~pos.side_to_move());
    if (!threatened) return qsearch(pos, alpha, beta, ply);
    depth = 1;
  }

  count_node();
  if (should_stop()) return 0;

  // Mate distance: nothing here can beat a shorter mate already found.
  alpha = std::max(alpha, loss_in(ply));
  beta = std::min(beta, win_in(ply + 1));
  if (alpha >= beta) return alpha;

  const Key key = tt_key(pos, ply);
  const std::optional<TTEntry> tte = shared_.tt.probe(key);
  MoveTag tt_move;
  if (tte) {
    tt_move = tte->move;
    const Score s = score_from_tt(tte->score, ply);
    if (!pv_node && tte->depth >= depth &&
        (tte->bound == Bound::Exact || (tte->bound == Bound::Lower && s >= beta) ||
         (tte->bound == Bound::Upper && s <= alpha)))
      return s;
  }
  if (!pv_node)
    if (const std::optional<Score> cut = probcut(pos, depth, beta, ply, tte)) return *cut;
  return search_moves(pos, depth, alpha, beta, ply, pv_node, tt_move, key);
}

// ProbCut: when a shallow search already clears beta by a margin, the full one almost surely
// would too, except in the middle of a capture sequence. Its score, or nothing (also when stopped: the
// caller's loop sees the stop).
std::optional<Score> Worker::probcut(const Position& pos, int depth, Score beta, int ply,
                                     const std::optional<TTEntry>& tte) {
  const SearchTuning& tuning = request_.tuning;
  if (!tuning.probcut || depth < tuning.probcut_min_depth || is_win_score(beta) || is_loss_score(beta))
    return std::nullopt;
  // Not where a capture is pending: a shot is a forced capture sequence, and the shallow search
  // misjudges one (issue 40: 7-IX's 19-23 was cut; bench/safety.md).
  if (has_capture(pos)) return std::nullopt;
  const Score raised = beta + tuning.probcut_margin;
  const int shallow = depth - tuning.probcut_reduction;
  const bool hopeless =
      tte && tte->depth >= shallow && tte->bound != Bound::Lower && score_from_tt(tte->score, ply) < raised;
  if (hopeless) return std::nullopt;
  const Score s = search(pos, shallow, raised - 1, raised, ply, false);
  if (shared_.stopped()) return 0;
  if (s >= raised) return s;
  return std::nullopt;
}

Score Worker::search_moves(const Position& pos, int depth, Score alpha, Score beta, int ply, bool pv_node,
                           const MoveTag& tt_move, Key key) {
  MoveList moves;
  generate_legal_moves(pos, moves);
  if (moves.empty()) return loss_in(ply);
  MovePicker picker(pos, moves, tt_move, history_, ply);

  const auto p = static_cast<std::size_t>(ply);
  const Score alpha_orig = alpha;
  Score best = kNoScore;
  Move best_move = kNullMove;
  while (const std::optional<PickedMove> picked = picker.next()) {
    const Move& m = picked->move;
    const Position child = pos.after(m);
    shared_.tt.prefetch(child.key());
    if (counted_laws_) draw_[p + 1] = advance_counters(request_.draw_rules, draw_[p], pos, child);
    history_.note_played(ply, m);
    const int new_depth = depth - 1;
    Score s;
    if (picked->index == 0) {
      s = -search(child, new_depth, -beta, -alpha, ply + 1, pv_node);
    } else {
      // Late quiet moves of the History band are searched shallower first; a surprise is
      // re-searched in full.
      int reduction = 0;
      if (request_.tuning.lmr && depth >= 3 && picked->index >= 2 && picked->band == Band::History) {
        reduction = lmr_reduction(depth, picked->index) - (pv_node ? 1 : 0);
        reduction = std::clamp(reduction, 0, new_depth - 1);
      }
      s = -search(child, new_depth - reduction, -alpha - 1, -alpha, ply + 1, false);
      if (s > alpha && reduction) s = -search(child, new_depth, -alpha - 1, -alpha, ply + 1, false);
      if (s > alpha && s < beta && pv_node) s = -search(child, new_depth, -beta, -alpha, ply + 1, true);
    }
    if (shared_.stopped()) return 0;

    if (s > best) {
      best = s;
      if (s > alpha) {
        alpha = s;
        best_move = m;
        if (pv_node) update_pv(ply, m);
        if (s >= beta) {
          history_.reward_cut(pos, picker.picked(), depth, ply);
          break;
        }
      }
    }
  }

  const Bound bound = best >= beta ? Bound::Lower : best > alpha_orig ? Bound::Exact : Bound::Upper;
  shared_.tt.store(key, TTEntry{best_move.is_null() ? tt_move : MoveTag::of(best_move),
                                score_to_tt(best, ply), 0, depth, bound});
  return best;
}

void Worker::update_pv(int ply, const Move& m) {
  const auto p = static_cast<std::size_t>(ply);
  pv_[p][0] = m;
  const int child_len = pv_length_[p + 1];
  for (int i = 0; i < child_len; ++i)
    pv_[p][static_cast<std::size_t>(i) + 1] = pv_[p + 1][static_cast<std::size_t>(i)];
  pv_length_[p] = child_len + 1;
}

}  // namespace damas
