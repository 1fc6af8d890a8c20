#include "damas/search/search.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <thread>

#include "damas/core/movegen.h"
#include "damas/eval/endgame.h"
#include "damas/search/timeman.h"

namespace damas {
namespace {

constexpr Score kNoScore = -kScoreInfinite;

// Order keys of the bands of the move order, highest first; a quiet move's key is its history
// (within +-2^20, below every band above it).
constexpr int kHashMoveKey = 1 << 30;
constexpr int kCaptureKey = 1 << 28;
constexpr int kKillerKey = 1 << 27;
constexpr int kCountermoveKey = kKillerKey - 1;

// A database win (loss) the search cannot take as proven, because a draw law may still end the
// game first (the lone king's long diagonal, FMJD-64 7.2.7): a score in a band below the mate
// scores, shorter wins higher, so the search keeps deepening and still heads for the win.
constexpr Score kKnownWin = kScoreWinThreshold - 500;
static_assert(kKnownWin - egdb::kMaxDistance > 2 * 30 * kMan, "above any evaluation of material");
// A database win longer than the count left: a draw unless a capture or a crowning on the way
// restarts the count, which the search looks for below it. Scored within half a man of a draw,
// shorter wins a little higher, so the loser still makes the winner's way long.
constexpr Score kOutOfCountWin = 40;
static_assert(kOutOfCountWin - egdb::kMaxDistance / 8 > 0);

// A draw-law counter is part of the transposition-table key where its law can end the game within
// this many plies: there the same pieces with another counter can have another value (a win that
// no longer fits inside the count). Further away the same pieces share their entries: keyed from
// 64 plies, three kings converted 90 of 100 wins against a lone king at 0.1 s without databases,
// from 12 plies 95 (bench/endgames.md), the transpositions of king endings being the table's use.
constexpr int kCounterKeyHorizon = 12;

// Lazy SMP: helper k (1, 2, ...) skips depth d when (d + phase) / span is odd, with span and
// phase from row (k - 1) % 20: the first helper searches the even depths only, the next ones
// skip runs of 1, 2, 3 or 4 depths from different offsets, so at any moment the threads are
// spread over several depths rather than all on the main thread's.
constexpr std::array<int, 20> kSkipSpan = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
constexpr std::array<int, 20> kSkipPhase = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};

constexpr bool helper_skips_depth(int helper, int depth) {
  const auto row = static_cast<std::size_t>((helper - 1) % 20);
  return (depth + kSkipPhase[row]) / kSkipSpan[row] % 2 != 0;
}
static_assert(helper_skips_depth(1, 3) && !helper_skips_depth(1, 4), "the first helper: even depths");
static_assert(!helper_skips_depth(2, 3) && helper_skips_depth(2, 4), "the second helper: odd depths");

Key mix_counter(std::uint64_t x) {
  // splitmix64's finaliser: counters 0, 1, 2... spread over all bits, unlike the piece keys.
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// What the databases say of a position under the draw law in force.
struct EgdbVerdict {
  Score score = kNoScore;  // kNoScore: not covered
  bool proven = false;     // the score is the value (else a known-win estimate: search on)
};

struct RootMove {
  Move move;
  Score score = kNoScore;       // this iteration (kNoScore: failed low or not searched)
  Score last_score = kNoScore;  // last completed iteration
  std::vector<Move> pv;
};

class Worker;

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
  Score root_search(int depth, Score alpha, Score beta, std::size_t first);
  Score search(const Position& pos, int depth, Score alpha, Score beta, int ply, bool pv_node);
  Score qsearch(const Position& pos, Score alpha, Score beta, int ply);
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
  void update_pv(int ply, const Move& m);
  void order(const Position& pos, MoveList& moves, const MoveTag& tt_move, int ply,
             std::array<int, MoveList::kCapacity>& keys) const;
  void reward(const Position& pos, const MoveList& moves, std::size_t cut, int depth, int ply);

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
  const bool fmjd64_ = false;  // FMJD-64 draw laws instead of the 80-ply rule
  // FMJD-64 counters of the node at each ply (fmjd64 only).
  std::array<DrawCounters, kMaxPly + 2> draw_{};
  // Keys of the game history followed by the current search path (for repetitions).
  std::vector<Key> keys_;
  std::size_t root_key_index_ = 0;
  // The learned evaluation's first-layer sums by ply (learned evaluation only).
  std::optional<LearnedEvalStack> learned_;
  std::array<std::array<Move, 2>, kMaxPly + 1> killers_{};
  // History heuristic: [side][from bit][to bit]; values saturate at +-kHistoryLimit.
  static constexpr int kHistoryLimit = 1 << 20;
  std::array<std::array<std::array<int, kBitboardBits>, kBitboardBits>, 2> history_{};
  // Countermoves (SearchTuning::countermove): the quiet move that last refuted the opponent's
  // move, by (side, its from bit, its to bit); played_[p] is the move made at ply p.
  static constexpr std::size_t kCounterSlots = 2 * kBitboardBits * kBitboardBits;
  std::array<Move, kCounterSlots> counter_{};
  std::array<Move, kMaxPly + 1> played_{};
  // The countermove slot of the node at ply (none: switched off, or at the root).
  std::optional<std::size_t> counter_slot(const Position& pos, int ply) const {
    if (!request_.tuning.countermove || ply == 0) return std::nullopt;
    const Move& previous = played_[static_cast<std::size_t>(ply - 1)];
    return (index(pos.side_to_move()) * kBitboardBits + previous.from.bit) * kBitboardBits + previous.to.bit;
  }
  std::array<std::array<Move, kMaxPly + 1>, kMaxPly + 1> pv_{};
  std::array<int, kMaxPly + 1> pv_length_{};
  // Late move reductions by [depth][move index], from SearchTuning::lmr_divisor.
  std::array<std::array<std::uint8_t, 64>, 64> lmr_{};
  int lmr_reduction(int depth, std::size_t index) const {
    return lmr_[static_cast<std::size_t>(std::min(depth, 63))][std::min<std::size_t>(index, 63)];
  }
};

std::uint64_t Shared::total_nodes() const {
  std::uint64_t n = 0;
  for (const auto& w : workers) n += w->nodes();
  return n;
}

std::uint64_t Shared::total_tbhits() const {
  std::uint64_t n = 0;
  for (const auto& w : workers) n += w->tbhits();
  return n;
}

Worker::Worker(Shared& shared, int id)
    : shared_(shared), request_(shared.request), id_(id), fmjd64_(request_.draw_rules == DrawRules::Fmjd64) {
  draw_[0] = request_.root_draw;
  keys_.reserve(request_.history.size() + kMaxPly + 2);
  keys_ = request_.history;
  root_key_index_ = keys_.size();
  keys_.push_back(request_.root.key());
  keys_.resize(root_key_index_ + kMaxPly + 2);
  MoveList moves;
  generate_legal_moves(request_.root, moves);
  for (const Move& m : moves) root_moves_.push_back(RootMove{m, kNoScore, kNoScore, {m}});
  if (request_.egdb) probe_cache_ = std::make_unique<egdb::ProbeCache>();
  if (request_.learned) learned_.emplace(*request_.learned, static_cast<std::size_t>(kMaxPly) + 1);
  // The logarithms once per process: datagen starts a search every 1-2 ms, and 8,000 calls of
  // std::log per search were 3% of its time.
  static const std::array<double, 64> logs = [] {
    std::array<double, 64> l{};
    for (std::size_t i = 1; i < l.size(); ++i) l[i] = std::log(static_cast<double>(i));
    return l;
  }();
  for (std::size_t d = 1; d < 64; ++d)
    for (std::size_t i = 1; i < 64; ++i)
      lmr_[d][i] = static_cast<std::uint8_t>(0.5 + logs[d] * logs[i] / request_.tuning.lmr_divisor);
}

Score Worker::static_eval(const Position& pos, int ply) {
  Score s;
  if (is_lone_king_ending(pos)) s = evaluate_lone_king_ending(pos);
  else
    s = learned_ ? learned_->evaluate(static_cast<std::size_t>(ply), pos) : evaluate(pos, request_.weights);
  if (request_.level.eval_noise) s += eval_noise(pos.key(), request_.seed, request_.level.eval_noise);
  return std::clamp(s, -kScoreWinThreshold + 1, kScoreWinThreshold - 1);
}

int Worker::plies_left(const Position& pos, int ply) const {
  return plies_left_by_law(pos, request_.draw_rules, draw_[static_cast<std::size_t>(ply)]);
}

Key Worker::tt_key(const Position& pos, int ply) const {
  return search_key(pos, request_.draw_rules, draw_[static_cast<std::size_t>(ply)]);
}

// A position the databases cover (no capture pending: those are searched) scores as a win or
// loss at its distance to the end of the game, so each move along it makes progress, when that
// distance fits inside the count of the draw law in force. A win that does not fit is about a
// draw, and one that 7.2.7 (the lone king on the long diagonal) may still cut short is only
// about a win: the search goes on below both.
EgdbVerdict Worker::probe_egdb(const Position& pos, int ply) {
  const egdb::Database* db = request_.egdb.get();
  if (!db || popcount(pos.occupied()) > db->max_pieces() || has_capture(pos)) return {};
  const std::optional<egdb::Value> v = db->probe(pos, probe_cache_.get());
  if (!v) return {};
  tbhits_.store(tbhits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  if (v->wdl == egdb::Wdl::Draw) return {kScoreDraw, true};
  const Score sign = v->wdl == egdb::Wdl::Win ? 1 : -1;
  if (v->plies > plies_left(pos, ply)) return {sign * (kOutOfCountWin - v->plies / 8), false};
  if (fmjd64_ && fmjd64_diagonal_law_possible(pos, draw_[static_cast<std::size_t>(ply)], v->plies))
    return {sign * (kKnownWin - v->plies), false};
  return {sign > 0 ? win_in(ply + v->plies) : loss_in(ply + v->plies), true};
}

// A repetition of an earlier position (game history or search path) is scored as a draw: the
// side that could avoid it would have, and the other is happy with it.
bool Worker::is_repetition(const Position& pos, int ply) const {
  const std::size_t index = root_key_index_ + static_cast<std::size_t>(ply);
  const auto reach = static_cast<std::size_t>(pos.reversible_plies());
  const Key key = pos.key();
  for (std::size_t back = 4; back <= reach && back <= index; back += 2)
    if (keys_[index - back] == key) return true;
  return false;
}

void Worker::check_limits() {
  const SearchControl& c = shared_.control;
  const SearchLimits& l = request_.limits;
  if (!depth_one_done_) return;  // a legal, searched move first
  const std::uint64_t nodes = shared_.workers.size() == 1 ? this->nodes() : shared_.total_nodes();
  // A level's cap and the caller's node limit both hold: a weak level stays weak under any budget.
  std::uint64_t node_cap = request_.level.max_nodes;
  if (l.nodes) node_cap = node_cap ? std::min(node_cap, *l.nodes) : *l.nodes;
  if (node_cap && nodes >= node_cap) shared_.control.stop.store(true, std::memory_order_relaxed);
  if (c.pondering.load(std::memory_order_relaxed)) return;
  if (shared_.budget.hard && shared_.seconds_on_clock() >= *shared_.budget.hard)
    shared_.control.stop.store(true, std::memory_order_relaxed);
}

bool Worker::should_stop() {
  if (id_ == 0 && nodes() >= next_check_) {
    // Every 1024 nodes (a fraction of a millisecond): at fixed counts, so one thread stays
    // deterministic under a node limit.
    next_check_ = nodes() + 1024;
    check_limits();
  }
  return shared_.control.stop.load(std::memory_order_relaxed);
}

void Worker::update_pv(int ply, const Move& m) {
  const auto p = static_cast<std::size_t>(ply);
  pv_[p][0] = m;
  const int child_len = pv_length_[p + 1];
  for (int i = 0; i < child_len; ++i)
    pv_[p][static_cast<std::size_t>(i) + 1] = pv_[p + 1][static_cast<std::size_t>(i)];
  pv_length_[p] = child_len + 1;
}

void Worker::order(const Position& pos, MoveList& moves, const MoveTag& tt_move, int ply,
                   std::array<int, MoveList::kCapacity>& keys) const {
  const auto& killers = killers_[static_cast<std::size_t>(ply)];
  const auto& hist = history_[index(pos.side_to_move())];
  const std::optional<std::size_t> slot = counter_slot(pos, ply);
  const Move* counter = slot ? &counter_[*slot] : nullptr;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Move& m = moves[i];
    int k;
    if (tt_move.matches(m)) k = kHashMoveKey;
    else if (m.is_capture()) k = kCaptureKey + m.capture_count();  // all moves are captures then
    else if (m == killers[0]) k = kKillerKey + 1;
    else if (m == killers[1]) k = kKillerKey;
    else if (counter && m == *counter) k = kCountermoveKey;  // after the killers, before any history
    else k = hist[m.from.bit][m.to.bit];
    keys[i] = k;
  }
}

void Worker::reward(const Position& pos, const MoveList& moves, std::size_t cut, int depth, int ply) {
  const Move& m = moves[cut];
  if (m.is_capture()) return;
  auto& killers = killers_[static_cast<std::size_t>(ply)];
  if (!(killers[0] == m)) {
    killers[1] = killers[0];
    killers[0] = m;
  }
  if (const std::optional<std::size_t> slot = counter_slot(pos, ply)) counter_[*slot] = m;
  // The cut move gains, the quiet moves tried before it lose; values saturate at +-kHistoryLimit.
  const int bonus = std::min(depth * depth, 400);
  auto& table = history_[index(pos.side_to_move())];
  const auto update = [&](const Move& x, int delta) {
    int& h = table[x.from.bit][x.to.bit];
    // 64-bit product: h * |delta| reaches kHistoryLimit * 25600, beyond int.
    h += static_cast<int>(delta - static_cast<std::int64_t>(h) * std::abs(delta) / kHistoryLimit);
  };
  update(m, bonus * 64);
  for (std::size_t i = 0; i < cut; ++i)
    if (!moves[i].is_capture()) update(moves[i], -bonus * 16);
}

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

  if (fmjd64_) {
    // A side without a move has lost even when a law would draw.
    if (fmjd64_drawn(pos, draw_[p])) return has_legal_move(pos) ? kScoreDraw : loss_in(ply);
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

  const SearchTuning& tuning = request_.tuning;
  // ProbCut: when a shallow search already clears beta by a margin, the full one almost surely
  // would too.
  if (!pv_node && tuning.probcut && depth >= tuning.probcut_min_depth && !is_win_score(beta) &&
      !is_loss_score(beta)) {
    const Score raised = beta + tuning.probcut_margin;
    const int shallow = depth - tuning.probcut_reduction;
    const bool hopeless =
        tte && tte->depth >= shallow && tte->bound != Bound::Lower && score_from_tt(tte->score, ply) < raised;
    if (!hopeless) {
      const Score s = search(pos, shallow, raised - 1, raised, ply, false);
      if (shared_.control.stop.load(std::memory_order_relaxed)) return 0;
      if (s >= raised) return s;
    }
  }

  MoveList moves;
  generate_legal_moves(pos, moves);
  if (moves.empty()) return loss_in(ply);

  std::array<int, MoveList::kCapacity> order_keys;
  order(pos, moves, tt_move, ply, order_keys);

  const Score alpha_orig = alpha;
  Score best = kNoScore;
  Move best_move = kNullMove;

  for (std::size_t i = 0; i < moves.size(); ++i) {
    // Selection sort step: the best remaining move to position i.
    std::size_t pick = i;
    for (std::size_t j = i + 1; j < moves.size(); ++j)
      if (order_keys[j] > order_keys[pick]) pick = j;
    // The move is read before the swap writes it: read back after its partial stores, it cost a
    // store-forwarding stall per move.
    const Move m = moves[pick];
    moves[pick] = moves[i];
    moves[i] = m;
    std::swap(order_keys[i], order_keys[pick]);

    const Position child = pos.after(m);
    shared_.tt.prefetch(child.key());
    if (fmjd64_) draw_[p + 1] = fmjd64_advance(draw_[p], pos, child);
    played_[p] = m;
    const int new_depth = depth - 1;
    Score s;
    if (i == 0) {
      s = -search(child, new_depth, -beta, -alpha, ply + 1, pv_node);
    } else {
      // Late quiet moves are searched shallower first; a surprise is re-searched in full. Only
      // history moves: a killer or the countermove is exempt like a capture.
      int reduction = 0;
      if (tuning.lmr && depth >= 3 && i >= 2 && !m.is_capture() && order_keys[i] < kCountermoveKey) {
        reduction = lmr_reduction(depth, i) - (pv_node ? 1 : 0);
        reduction = std::clamp(reduction, 0, new_depth - 1);
      }
      s = -search(child, new_depth - reduction, -alpha - 1, -alpha, ply + 1, false);
      if (s > alpha && reduction) s = -search(child, new_depth, -alpha - 1, -alpha, ply + 1, false);
      if (s > alpha && s < beta && pv_node) s = -search(child, new_depth, -beta, -alpha, ply + 1, true);
    }
    if (shared_.control.stop.load(std::memory_order_relaxed)) return 0;

    if (s > best) {
      best = s;
      if (s > alpha) {
        alpha = s;
        best_move = m;
        if (pv_node) update_pv(ply, m);
        if (s >= beta) {
          reward(pos, moves, i, depth, ply);
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

Score Worker::root_search(int depth, Score alpha, Score beta, std::size_t first) {
  const Position& root = request_.root;
  pv_length_[0] = 0;
  keys_[root_key_index_] = root.key();
  Score best = kNoScore;
  for (std::size_t i = first; i < root_moves_.size(); ++i) {
    const Move m = root_moves_[i].move;
    const Position child = root.after(m);
    if (fmjd64_) draw_[1] = fmjd64_advance(draw_[0], root, child);
    played_[0] = m;
    Score s;
    if (i == first) {
      s = -search(child, depth - 1, -beta, -alpha, 1, true);
    } else {
      s = -search(child, depth - 1, -alpha - 1, -alpha, 1, false);
      if (s > alpha && s < beta) s = -search(child, depth - 1, -beta, -alpha, 1, true);
    }
    if (shared_.control.stop.load(std::memory_order_relaxed)) break;

    RootMove& rm = root_moves_[i];
    if (i == first || s > alpha) {
      rm.score = s;
      rm.pv.assign(1, m);
      for (int k = 0; k < pv_length_[1]; ++k) rm.pv.push_back(pv_[1][static_cast<std::size_t>(k)]);
      // The best so far goes to the front of the lines still open, so a stop keeps it.
      std::rotate(root_moves_.begin() + static_cast<std::ptrdiff_t>(first),
                  root_moves_.begin() + static_cast<std::ptrdiff_t>(i),
                  root_moves_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      if (i != first && id_ == 0 && request_.multipv == 1) report(depth, 0);
    } else {
      rm.score = kNoScore;
    }
    if (s > best) best = s;
    if (s > alpha) {
      alpha = s;
      if (s >= beta) break;
    }
  }
  return best;
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

void Worker::iterate() {
  const SearchLimits& limits = request_.limits;
  int max_depth = kMaxDepth;
  if (limits.depth) max_depth = std::clamp(*limits.depth, 1, kMaxDepth);
  if (request_.level.max_depth) max_depth = std::min(max_depth, request_.level.max_depth);
  const std::size_t lines =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(request_.multipv, 1)), root_moves_.size());

  Move last_best = kNullMove;
  int best_changes = 0;
  int stable = 0;
  Score peak = kNoScore;  // best root score of the completed iterations (not a win or loss)
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
        if (shared_.control.stop.load(std::memory_order_relaxed)) break;
        if (s <= alpha && alpha > -kScoreInfinite) {
          beta = (alpha + beta) / 2;
          alpha = std::max(s - delta, -kScoreInfinite);
        } else if (s >= beta && beta < kScoreInfinite) {
          beta = std::min(s + delta, kScoreInfinite);
        } else {
          break;
        }
        delta += delta;
        if (delta > 400) {
          alpha = -kScoreInfinite;
          beta = kScoreInfinite;
        }
      }
      if (shared_.control.stop.load(std::memory_order_relaxed)) break;
      // Lines after this one keep their order from the last iteration.
      std::stable_sort(root_moves_.begin() + static_cast<std::ptrdiff_t>(line) + 1, root_moves_.end(),
                       [](const RootMove& a, const RootMove& b) { return a.last_score > b.last_score; });
    }
    if (shared_.control.stop.load(std::memory_order_relaxed)) break;
    completed_depth_ = depth;
    depth_one_done_ = true;
    if (id_ != 0) continue;

    report(depth, lines);
    if (root_moves_[0].move == last_best) {
      ++stable;
    } else {
      if (!last_best.is_null()) ++best_changes;
      stable = 0;
      last_best = root_moves_[0].move;
    }
    // Between iterations: is the next one worth starting?
    const Score score = root_moves_[0].score;
    const bool decisive = is_win_score(score) || is_loss_score(score);
    const int drop = request_.tuning.time_score_drop && peak != kNoScore && !decisive ? peak - score : 0;
    if (!decisive) peak = peak == kNoScore ? score : std::max(peak, score);
    if (!shared_.control.pondering.load(std::memory_order_relaxed) && shared_.budget.soft &&
        !shared_.budget.fixed) {
      const double soft = adjust_soft(shared_.budget, best_changes, stable, std::max(drop, 0));
      if (shared_.seconds_on_clock() >= soft * 0.6) break;
    }
    if (is_win_score(root_moves_[0].score) && win_in(depth) <= root_moves_[0].score &&
        request_.mode == GoMode::Think && !shared_.control.pondering.load(std::memory_order_relaxed))
      break;  // a mate within the horizon: deeper search cannot change it
    best_changes = std::max(0, best_changes - 1);
  }
}

SearchResult result_of(const Worker& main, const Shared& shared) {
  SearchResult r;
  const std::vector<RootMove>& rms = main.root_moves();
  if (rms.empty()) return r;
  const RootMove& best = rms.front();
  r.best = best.move;
  r.pv = best.pv;
  if (r.pv.size() > 1) r.ponder = r.pv[1];
  r.score = best.score != kNoScore ? best.score : best.last_score;
  if (r.score == kNoScore) r.score = 0;
  r.depth = main.completed_depth();
  r.nodes = shared.total_nodes();
  r.seconds = shared.seconds_since_go();
  return r;
}

// The thread whose move is played: the main one, or with smp_deepest_thread a helper that
// completed a deeper iteration (its root move is then that iteration's, or a better one its
// next iteration found). Several lines (multipv, weak levels) come from the main thread only.
const Worker& deepest_thread(const SearchRequest& request, const Shared& shared) {
  const Worker* chosen = shared.workers.front().get();
  if (!request.tuning.smp_deepest_thread || request.multipv > 1 || request.level.weak_move_percent > 0)
    return *chosen;
  // A completed iteration leaves its first root move scored (last_score once the next one starts).
  for (const auto& w : shared.workers)
    if (w->completed_depth() > chosen->completed_depth()) chosen = w.get();
  return *chosen;
}

// A single legal move in Think mode: answered at once, without a search.
SearchResult forced_reply(const Move& only, const Shared& shared) {
  SearchResult r;
  r.best = only;
  r.pv = {only};
  if (shared.on_info) {
    SearchInfo info;
    info.pv = r.pv;
    info.seconds = shared.seconds_since_go();
    shared.on_info(info);
  }
  r.seconds = shared.seconds_since_go();
  return r;
}

// Weaker levels: maybe a reasonable second choice among the lines scored by this search.
void apply_level(const SearchRequest& request, const Worker& main, SearchResult& r) {
  const std::vector<RootMove>& rms = main.root_moves();
  const std::size_t lines =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(request.multipv, 1)), rms.size());
  std::vector<ScoredMove> scored;
  for (std::size_t i = 0; i < lines; ++i) {
    const Score sc = rms[i].score != kNoScore ? rms[i].score : rms[i].last_score;
    if (sc == kNoScore) break;
    scored.push_back(ScoredMove{rms[i].move, sc});
  }
  if (scored.empty()) return;
  LevelRandom rng(request.seed ^ request.root.key());
  const std::size_t pick = choose_move(request.level, scored, rng);
  if (pick == 0) return;
  r.best = rms[pick].move;
  r.pv = rms[pick].pv;
  r.ponder = r.pv.size() > 1 ? r.pv[1] : kNullMove;
  r.score = scored[pick].score;
}

}  // namespace

Key search_key(const Position& pos, DrawRules rules, const DrawCounters& counters) {
  const Key key = pos.key();
  if (plies_left_by_law(pos, rules, counters) > kCounterKeyHorizon) return key;
  if (rules == DrawRules::Seed) return key ^ mix_counter(static_cast<std::uint64_t>(pos.reversible_plies()));
  // The lone king's 7.2.7 count matters up to the 5 moves that bring its law into force.
  const auto diagonal = [&](Color c) {
    return static_cast<std::uint64_t>(
        std::min<int>(counters.lone_king_diagonal[index(c)], fmjd64::kLongDiagonalPlies));
  };
  return key ^ mix_counter(counters.plies | diagonal(Color::White) << 16 | diagonal(Color::Black) << 24);
}

SearchResult run_search(const SearchRequest& request, TranspositionTable& tt, SearchControl& control,
                        const InfoCallback& on_info) {
  Shared shared{request, tt, control, on_info, {}, {}, SearchControl::now_ns()};
  shared.budget =
      scale_soft(plan_time(request.limits, request.move_overhead, popcount(request.root.occupied())),
                 request.tuning.time_use);
  tt.new_search();

  const int threads = std::clamp(request.threads, 1, 64);
  for (int i = 0; i < threads; ++i) shared.workers.push_back(std::make_unique<Worker>(shared, i));
  Worker& main = *shared.workers.front();
  if (main.root_moves().empty()) return SearchResult{};
  if (request.mode == GoMode::Think && main.root_moves().size() == 1)
    return forced_reply(main.root_moves().front().move, shared);

  std::vector<std::thread> helpers;
  for (std::size_t i = 1; i < shared.workers.size(); ++i)
    helpers.emplace_back([&shared, i] { shared.workers[i]->iterate(); });
  main.iterate();
  control.stop.store(true, std::memory_order_relaxed);
  for (std::thread& t : helpers) t.join();

  const Worker& chosen = deepest_thread(request, shared);
  // The GUI's last line is the one played.
  if (&chosen != &main) chosen.report(chosen.completed_depth(), 1);
  SearchResult r = result_of(chosen, shared);
  if (request.level.weak_move_percent > 0) apply_level(request, main, r);
  return r;
}

}  // namespace damas
