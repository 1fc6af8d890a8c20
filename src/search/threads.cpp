// One search from start to result: the threads of Lazy SMP (a main thread and helpers sharing
// the transposition table), the choice of the thread whose move is played, the weak levels.
#include <algorithm>
#include <array>
#include <thread>

#include "damas/search/search.h"
#include "worker.h"

namespace damas {
namespace {

// Helper k (1, 2, ...) skips depth d when (d + phase) / span is odd, with span and phase from row
// (k - 1) % 20: the first helper searches the even depths only, the next ones skip runs of 1, 2,
// 3 or 4 depths from different offsets, so at any moment the threads are spread over several
// depths rather than all on the main thread's.
constexpr std::array<int, 20> kSkipSpan = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
constexpr std::array<int, 20> kSkipPhase = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};

constexpr bool skips_depth(int helper, int depth) {
  const auto row = static_cast<std::size_t>((helper - 1) % 20);
  return (depth + kSkipPhase[row]) / kSkipSpan[row] % 2 != 0;
}
static_assert(skips_depth(1, 3) && !skips_depth(1, 4), "the first helper: even depths");
static_assert(!skips_depth(2, 3) && skips_depth(2, 4), "the second helper: odd depths");

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

bool helper_skips_depth(int helper, int depth) { return skips_depth(helper, depth); }

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
