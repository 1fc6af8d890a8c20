// A search thread's surroundings of a node: construction, evaluation, databases, draw laws,
// repetitions, transposition keys and the limits.
#include "worker.h"

#include <algorithm>
#include <cmath>

#include "damas/core/movegen.h"
#include "damas/eval/endgame.h"

namespace damas {
namespace {

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

Key mix_counter(std::uint64_t x) {
  // splitmix64's finaliser: counters 0, 1, 2... spread over all bits, unlike the piece keys.
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Late move reductions by [depth][move index]: ln(depth) * ln(index) / divisor, rounded.
std::array<std::array<std::uint8_t, 64>, 64> reduction_table(double divisor) {
  // The logarithms once per process: datagen starts a search every 1-2 ms, and 8,000 calls of
  // std::log per search were 3% of its time.
  static const std::array<double, 64> logs = [] {
    std::array<double, 64> l{};
    for (std::size_t i = 1; i < l.size(); ++i) l[i] = std::log(static_cast<double>(i));
    return l;
  }();
  std::array<std::array<std::uint8_t, 64>, 64> table{};
  for (std::size_t d = 1; d < 64; ++d)
    for (std::size_t i = 1; i < 64; ++i)
      table[d][i] = static_cast<std::uint8_t>(0.5 + logs[d] * logs[i] / divisor);
  return table;
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
  // The forcada's count (portuguese) is the other counter a law reads.
  return key ^ mix_counter(counters.plies | diagonal(Color::White) << 16 | diagonal(Color::Black) << 24 |
                           std::uint64_t{counters.rio} << 32);
}

Worker::Worker(Shared& shared, int id)
    : shared_(shared),
      request_(shared.request),
      id_(id),
      counted_laws_(counts_plies(request_.draw_rules)),
      lmr_(reduction_table(request_.tuning.lmr_divisor)) {
  draw_[0] = request_.root_draw;
  keys_.reserve(request_.history.size() + kMaxPly + 2);
  keys_ = request_.history;
  root_key_index_ = keys_.size();
  keys_.push_back(request_.root.key());
  keys_.resize(root_key_index_ + kMaxPly + 2);
  MoveList moves;
  generate_legal_moves(request_.root, moves);
  for (const Move& m : moves)
    if (std::find(request_.excluded.begin(), request_.excluded.end(), m) == request_.excluded.end())
      root_moves_.push_back(RootMove{m, kNoScore, kNoScore, {m}});
  if (request_.egdb) probe_cache_ = std::make_unique<egdb::ProbeCache>();
  if (request_.learned) learned_.emplace(*request_.learned, static_cast<std::size_t>(kMaxPly) + 1);
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
// draw. One that a later law (7.2.7, the forcada) may still cut short keeps its distance, so the
// search takes the shortest win as it does elsewhere (scored below every exact win, it turned
// away from the shortest line and went round in circles: bench/egdb.md), but is not proven: the
// search goes on below it, where such a law ending within the horizon is seen.
EgdbVerdict Worker::probe_egdb(const Position& pos, int ply) {
  const egdb::Database* db = request_.egdb.get();
  if (!db || popcount(pos.occupied()) > db->max_pieces() || has_capture(pos)) return {};
  const std::optional<egdb::Value> v = db->probe(pos, probe_cache_.get());
  if (!v) return {};
  tbhits_.store(tbhits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  if (v->wdl == egdb::Wdl::Draw) return {kScoreDraw, true};
  const Score sign = v->wdl == egdb::Wdl::Win ? 1 : -1;
  if (v->plies > plies_left(pos, ply)) return {sign * (kOutOfCountWin - v->plies / 8), false};
  const Score score = sign > 0 ? win_in(ply + v->plies) : loss_in(ply + v->plies);
  const bool cut_short = counted_laws_ && law_may_cut_short(pos, request_.draw_rules,
                                                            draw_[static_cast<std::size_t>(ply)], v->plies);
  return {score, !cut_short};
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
  return shared_.stopped();
}

}  // namespace damas
