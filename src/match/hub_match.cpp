#include "damas/match/hub_match.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#include "damas/core/file_check.h"
#include "damas/core/platform.h"
#include "hub_game.h"
#include "match_resume.h"
#include "match_schedule.h"

namespace damas {

namespace {

// The match: its jobs shared by the slots (threads), each slot with its own engine processes,
// every finished game counted, written to the PDN file and reported.
class MatchRun {
 public:
  MatchRun(const HubMatchSpec& spec, const HubGameCallback& on_game, std::shared_ptr<const LogFile> log)
      : spec_(spec), on_game_(on_game), log_(std::move(log)), jobs_(schedule_match(spec)) {
    for (const MatchEngine& e : spec.engines) result_.names.push_back(e.spec.name);
    result_.totals.resize(spec.engines.size());
    for (const Job& j : jobs_) result_.total_games += static_cast<int>(j.size());
  }

  Status open_pdn() {
    if (spec_.pdn_path.empty()) return Ok{};
    if (Status s = check_output_file(spec_.pdn_path, "PDN file"); !s) return s;
    std::vector<std::string> kept;
    if (spec_.resume) {
      Expected<ResumedMatch> resumed = resume_match(spec_, jobs_);
      if (!resumed) return Error{resumed.error()};
      count_resumed(*resumed);
      kept = std::move(resumed.value().texts);
    }
    // Rewritten from the games kept (a cut-off last game is gone), then appended to.
    pdn_.open(spec_.pdn_path, std::ios::trunc);
    for (const std::string& text : kept) pdn_ << text << "\n";
    pdn_.flush();
    if (!pdn_) return Error{"cannot write the PDN file " + spec_.pdn_path};
    return Ok{};
  }

  Expected<HubMatchResult> run() {
    const double cpu0 = platform::process_cpu_seconds();
    const auto t0 = SteadyClock::now();
    const int slots = std::min<int>(spec_.concurrency, static_cast<int>(jobs_.size()));
    std::vector<std::thread> threads;
    for (int s = 1; s < slots; ++s) threads.emplace_back([this] { slot(); });
    slot();
    for (std::thread& t : threads) t.join();
    if (error_) return Error{*error_};
    result_.wall_seconds = std::chrono::duration<double>(SteadyClock::now() - t0).count();
    result_.runner_cpu_seconds = platform::process_cpu_seconds() - cpu0;
    return result_;
  }

 private:
  // A failure of the runner itself (an engine that cannot start): the match ends with this error.
  void fail(const std::string& why) {
    const std::lock_guard lock(mutex_);
    if (!error_) error_ = why;
    stop_ = true;
  }

  // The slot's process for engine i, started (or restarted) when needed.
  HubEngine* engine(std::vector<std::unique_ptr<HubEngine>>& engines, int i) {
    auto& e = engines[static_cast<std::size_t>(i)];
    if (!e) {
      EngineSpec spec = spec_.engines[static_cast<std::size_t>(i)].spec;
      spec.draw_rules =
          std::string(to_string(spec_.draw_rules.value_or(rules::of(spec_.variant).draw_rules)));
      spec.variant = spec_.variant;
      e = std::make_unique<HubEngine>(std::move(spec), log_, spec_.debug);
    }
    if (!e->alive())
      if (Status s = e->start(); !s) {
        fail(s.error());
        return nullptr;
      }
    return e.get();
  }

  void slot() {
    std::vector<std::unique_ptr<HubEngine>> engines(spec_.engines.size());
    while (!stop_) {
      const std::size_t j = next_job_++;
      if (j >= jobs_.size()) break;
      double first_points = 0;
      for (const ScheduledGame& g : jobs_[j]) {
        if (stop_) break;
        HubEngine* white = engine(engines, g.white);
        HubEngine* black = white ? engine(engines, g.black) : nullptr;
        if (!black) break;
        PlayedGame played = play_hub_game(spec_, g, *white, *black);
        if (!g.closes_pair) first_points = played.game.points(0);
        record(played,
               g.closes_pair ? std::optional<double>(g.partner_points.value_or(first_points)) : std::nullopt);
      }
    }
  }

  void record(const PlayedGame& played, std::optional<double> pair_first_points) {
    const std::lock_guard lock(mutex_);
    const HubGame& g = played.game;
    result_.engine_moves += played.moves_asked;
    for (int side = 0; side < 2; ++side) {
      const int i = side == 0 ? g.white : g.black;
      result_.totals[static_cast<std::size_t>(i)].add_moves(played.totals[static_cast<std::size_t>(side)]);
    }
    count(g, pair_first_points);
    if (g.failure == Failure::Crash && !spec_.recover && result_.stopped.empty()) {
      result_.stopped = "engine " + spec_.engines[static_cast<std::size_t>(g.failed_engine)].spec.name +
                        " crashed (" + g.detail + "); -recover restarts it and goes on";
      stop_ = true;
    }
    if (pdn_.is_open()) {
      pdn_ << g.pdn << "\n";
      pdn_.flush();
    }
    if (on_game_) on_game_(g, result_);
  }

  // The standing after a finished game, played now or read back by -resume.
  void count(const HubGame& g, std::optional<double> pair_first_points) {
    if (result_.count(g, pair_first_points, spec_.sprt, spec_.games)) stop_ = true;
  }

  void count_resumed(const ResumedMatch& resumed) {
    result_.resume_dropped_line = resumed.dropped_line;
    for (const ResumedGame& r : resumed.games) {
      count(r.game, r.pair_first_points);
      ++result_.resumed_games;
    }
  }

  const HubMatchSpec& spec_;
  const HubGameCallback& on_game_;
  std::shared_ptr<const LogFile> log_;
  std::vector<Job> jobs_;
  std::atomic<std::size_t> next_job_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  HubMatchResult result_;
  std::optional<std::string> error_;
  std::ofstream pdn_;
};

}  // namespace

Expected<HubMatchResult> run_hub_match(const HubMatchSpec& spec, const HubGameCallback& on_game) {
  if (Status s = check_match_spec(spec); !s) return Error{s.error()};
  Expected<std::shared_ptr<LogFile>> log = LogFile::open(spec.log_path);
  if (!log) return Error{log.error()};
  MatchRun run(spec, on_game, *log);
  if (Status s = run.open_pdn(); !s) return Error{s.error()};
  return run.run();
}

}  // namespace damas
