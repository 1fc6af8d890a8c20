#include "damas/match/hub_match.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

#include "damas/core/file_check.h"
#include "damas/core/notation.h"
#include "damas/core/text_lines.h"
#include "damas/match/match_record.h"

namespace damas {

// ---- Time controls --------------------------------------------------------------------------

namespace {

std::string number_text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", v);
  std::string s = buffer;
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::optional<double> parse_seconds(std::string_view text) {
  // "m:ss" or plain seconds
  double minutes = 0;
  if (const std::size_t colon = text.find(':'); colon != std::string_view::npos) {
    const std::optional<double> m = parse_seconds(text.substr(0, colon));
    if (!m) return std::nullopt;
    minutes = *m;
    text = text.substr(colon + 1);
  }
  const std::string s(text);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v) || v < 0) return std::nullopt;
  return minutes * 60 + v;
}

}  // namespace

std::string TimeControl::text() const {
  switch (kind) {
    case Kind::MoveTime:
      return "st=" + number_text(move_time);
    case Kind::Depth:
      return "depth=" + std::to_string(depth);
    case Kind::Nodes:
      return "nodes=" + std::to_string(nodes);
    case Kind::Clock:
      break;
  }
  return (moves > 0 ? std::to_string(moves) + "/" : "") + number_text(base) + "+" + number_text(increment);
}

Expected<TimeControl> parse_time_control(std::string_view text) {
  const Error bad{"bad time control \"" + std::string(text) + "\" (expected e.g. 10+0.1, 60, 40/60+0.5)"};
  TimeControl tc;
  if (const std::size_t slash = text.find('/'); slash != std::string_view::npos) {
    const std::optional<double> m = parse_seconds(text.substr(0, slash));
    if (!m || *m < 1 || *m != std::floor(*m) || *m > 10000) return bad;
    tc.moves = static_cast<int>(*m);
    text = text.substr(slash + 1);
  }
  const std::size_t plus = text.find('+');
  const std::optional<double> base = parse_seconds(text.substr(0, plus));
  if (!base || *base <= 0 || *base > 1e6) return bad;
  tc.base = *base;
  if (plus != std::string_view::npos) {
    const std::optional<double> inc = parse_seconds(text.substr(plus + 1));
    if (!inc || *inc > 1e4) return bad;
    tc.increment = *inc;
  }
  return tc;
}

std::string to_string(Failure f) {
  switch (f) {
    case Failure::IllegalMove:
      return "illegal move";
    case Failure::TimeLoss:
      return "time forfeit";
    case Failure::Hang:
      return "no done (killed)";
    case Failure::Crash:
      return "crash";
    case Failure::ErrorAnswer:
      return "error answer";
    case Failure::None:
    case Failure::kCount:
      break;
  }
  return "none";
}

double HubGame::points(int engine) const {
  if (result == GameResult::Draw || result == GameResult::Ongoing) return 0.5;
  const bool white_won = result == GameResult::WhiteWins;
  return (engine == white) == white_won ? 1.0 : 0.0;
}

EloEstimate HubMatchResult::elo() const {
  if (pentanomial.pairs() > 0) return pentanomial.elo();
  return elo_estimate(wins, draws, losses);
}

// ---- The referee loop -----------------------------------------------------------------------

namespace {

struct ScheduledGame {
  int number = 0;
  int round = 0;
  int white = 0;
  int black = 1;
  int opening = -1;
  bool closes_pair = false;  // the second game of a colour-reversed pair (two-engine matches)
  // -resume: the points (engine 0) of the other game of the pair, read from the PDN file.
  std::optional<double> partner_points;
};

using Job = std::vector<ScheduledGame>;  // played in order on one slot

// One side of a game: its engine, its settings, its clock and its scores so far.
struct Side {
  HubEngine* engine = nullptr;
  const MatchEngine* config = nullptr;
  int index = 0;
  double time_left = 0;
  int moves_made = 0;
  std::vector<std::optional<int>> scores;  // one per own move
};

// The `level` line and the deadline for the next move of `side`.
std::pair<std::string, double> level_for(const Side& side) {
  const TimeControl& tc = side.config->tc;
  switch (tc.kind) {
    case TimeControl::Kind::MoveTime:
      return {"level move-time=" + number_text(tc.move_time), tc.move_time + side.config->margin};
    case TimeControl::Kind::Depth:
      return {"level depth=" + std::to_string(tc.depth), side.config->timeout};
    case TimeControl::Kind::Nodes:
      return {"level nodes=" + std::to_string(tc.nodes), side.config->timeout};
    case TimeControl::Kind::Clock:
      break;
  }
  std::string level = "level";
  if (tc.moves > 0) level += " moves=" + std::to_string(tc.moves - side.moves_made % tc.moves);
  level += " time=" + number_text(side.time_left);
  if (tc.increment > 0) level += " inc=" + number_text(tc.increment);
  return {level, side.time_left + tc.increment + side.config->margin};
}

void charge_clock(Side& side, double seconds) {
  const TimeControl& tc = side.config->tc;
  ++side.moves_made;
  if (tc.kind != TimeControl::Kind::Clock) return;
  // Within the margin a move is not late, but the clock does not go below zero.
  side.time_left = std::max(0.0, side.time_left + tc.increment - seconds);
  if (tc.moves > 0 && side.moves_made % tc.moves == 0) side.time_left += tc.base;
}

// The last n scores all satisfy pred (and there are n).
template <typename Pred>
bool last_scores(const Side& side, int n, Pred pred) {
  if (n <= 0 || static_cast<int>(side.scores.size()) < n) return false;
  for (auto it = side.scores.end() - n; it != side.scores.end(); ++it)
    if (!*it || !pred(**it)) return false;
  return true;
}

struct Outcome {
  GameResult result = GameResult::Ongoing;
  std::string termination;
  Failure failure = Failure::None;
  int failed_engine = -1;
  std::string detail;
};

Outcome loss_of(const Side& loser, Color loser_colour, Failure failure, std::string detail) {
  Outcome o;
  o.result = loser_colour == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
  o.failure = failure;
  o.failed_engine = loser.index;
  o.termination = to_string(failure);
  o.detail = std::move(detail);
  return o;
}

std::optional<Outcome> adjudicate(const HubMatchSpec& spec, const Game& game, const Side& white,
                                  const Side& black) {
  const int plies = static_cast<int>(game.moves().size());
  if (spec.max_moves > 0 && white.moves_made + black.moves_made >= 2 * spec.max_moves)
    return Outcome{GameResult::Draw, "adjudication: move limit", Failure::None, -1, ""};
  if (spec.draw && plies / 2 + 1 >= spec.draw->move_number) {
    const auto level = [&](int s) { return std::abs(s) <= spec.draw->score; };
    if (last_scores(white, spec.draw->move_count, level) && last_scores(black, spec.draw->move_count, level))
      return Outcome{GameResult::Draw, "adjudication: draw by score", Failure::None, -1, ""};
  }
  if (spec.resign) {
    const auto lost = [&](int s) { return s <= -spec.resign->score; };
    if (last_scores(white, spec.resign->move_count, lost))
      return Outcome{GameResult::BlackWins, "adjudication: resignation", Failure::None, -1, ""};
    if (last_scores(black, spec.resign->move_count, lost))
      return Outcome{GameResult::WhiteWins, "adjudication: resignation", Failure::None, -1, ""};
  }
  return std::nullopt;
}

// Asks `side` for a move and plays it; a failure ends the game with its loss.
std::optional<Outcome> play_move(Game& game, Side& side, EngineTotals& totals) {
  const Color colour = game.current().side_to_move();
  const auto [level, budget] = level_for(side);
  const ThinkReply reply = side.engine->think(game.start(), game.moves(), level, budget);
  const std::string at = " at move " + std::to_string(game.moves().size() / 2 + 1);
  switch (reply.outcome) {
    case ThinkReply::Outcome::Done:
      break;
    case ThinkReply::Outcome::TimeLoss:
      return loss_of(side, colour, Failure::TimeLoss, "done after " + number_text(reply.seconds) + " s" + at);
    case ThinkReply::Outcome::Hang:
      return loss_of(side, colour, Failure::Hang, "no done within " + number_text(budget) + " s" + at);
    case ThinkReply::Outcome::Closed:
      return loss_of(side, colour, Failure::Crash, "engine " + reply.detail + at);
    case ThinkReply::Outcome::Error:
      return loss_of(side, colour, Failure::ErrorAnswer, "error '" + reply.detail + "'" + at);
  }
  const Expected<Move> move = parse_hub_move(game.current(), reply.move, side.config->spec.numbering);
  if (!move)
    return loss_of(side, colour, Failure::IllegalMove, "'" + reply.move + "'" + at + ": " + move.error());
  ++totals.moves;
  totals.seconds += reply.seconds;
  totals.nodes += reply.info.nodes;
  if (reply.info.depth > 0) {
    ++totals.moves_with_depth;
    totals.depth_sum += reply.info.depth;
  }
  charge_clock(side, reply.seconds);
  side.scores.push_back(reply.info.score);
  (void)game.play(*move);  // legal: parse_hub_move matched it against the legal moves
  return std::nullopt;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y.%m.%d", &tm);
  return buffer;
}

struct PlayedGame {
  HubGame game;
  std::array<EngineTotals, 2> totals;  // white, black
  long long moves_asked = 0;
};

// The PDN TimeControl tag of a game between these two engines.
std::string time_control_tag(const MatchEngine& white, const MatchEngine& black) {
  return white.tc.text() == black.tc.text() ? white.tc.text() : white.tc.text() + " - " + black.tc.text();
}

PlayedGame play_game(const HubMatchSpec& spec, const ScheduledGame& g, HubEngine& white_engine,
                     HubEngine& black_engine) {
  PlayedGame played;
  const Opening* opening = g.opening >= 0 ? &spec.openings[static_cast<std::size_t>(g.opening)] : nullptr;
  Game game(opening ? opening->start : Position::start(), spec.draw_rules);
  if (opening)
    for (const Move& m : opening->moves) (void)game.play(m);  // checked when the openings were read
  const MatchEngine& wc = spec.engines[static_cast<std::size_t>(g.white)];
  const MatchEngine& bc = spec.engines[static_cast<std::size_t>(g.black)];
  Side white{&white_engine, &wc, g.white, wc.tc.base, 0, {}};
  Side black{&black_engine, &bc, g.black, bc.tc.base, 0, {}};

  std::optional<Outcome> outcome;
  if (!white_engine.new_game()) outcome = loss_of(white, Color::White, Failure::Crash, "closed its input");
  else if (!black_engine.new_game())
    outcome = loss_of(black, Color::Black, Failure::Crash, "closed its input");
  while (!outcome) {
    if (game.over()) {
      outcome = Outcome{game.result(), game.end_description(), Failure::None, -1, ""};
      break;
    }
    if ((outcome = adjudicate(spec, game, white, black))) break;
    const bool white_to_move = game.current().side_to_move() == Color::White;
    ++played.moves_asked;
    outcome = play_move(game, white_to_move ? white : black, played.totals[white_to_move ? 0 : 1]);
  }

  HubGame& h = played.game;
  h.number = g.number;
  h.round = g.round;
  h.white = g.white;
  h.black = g.black;
  h.opening = g.opening;
  h.result = outcome->result;
  h.termination = outcome->termination;
  h.failure = outcome->failure;
  h.failed_engine = outcome->failed_engine;
  h.detail = outcome->detail;
  h.plies = static_cast<int>(game.moves().size());
  std::string termination = h.termination;
  if (h.failure != Failure::None)
    termination +=
        " by " + spec.engines[static_cast<std::size_t>(h.failed_engine)].spec.name + ": " + h.detail;
  std::vector<std::pair<std::string, std::string>> tags{{"Event", spec.event},
                                                        {"Date", today()},
                                                        {"Round", std::to_string(g.round)},
                                                        {"White", wc.spec.name},
                                                        {"Black", bc.spec.name},
                                                        {"Result", to_string(h.result)},
                                                        {"TimeControl", time_control_tag(wc, bc)},
                                                        {"Termination", termination}};
  if (opening && !opening->name.empty()) tags.emplace_back("Opening", opening->name);
  h.pdn = game.to_pdn(tags);
  return played;
}

// ---- Schedule -------------------------------------------------------------------------------

std::vector<int> opening_order(const HubMatchSpec& spec) {
  std::vector<int> order(spec.openings.size());
  std::iota(order.begin(), order.end(), 0);
  if (spec.random_order) {
    std::mt19937_64 rng(spec.seed);
    std::shuffle(order.begin(), order.end(), rng);
  }
  if (!order.empty()) {
    const std::size_t start = static_cast<std::size_t>(spec.opening_start - 1) % order.size();
    std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(start), order.end());
  }
  return order;
}

int round_count(const HubMatchSpec& spec) {
  if (spec.rounds > 0) return spec.rounds;
  const int n = static_cast<int>(spec.openings.size());
  if (n == 0) return 1;
  return spec.repeat ? n : (n + spec.games - 1) / spec.games;
}

std::vector<Job> schedule(const HubMatchSpec& spec) {
  const std::vector<int> order = opening_order(spec);
  const int engines = static_cast<int>(spec.engines.size());
  const bool paired = engines == 2 && spec.repeat && spec.games % 2 == 0;
  std::vector<Job> jobs;
  int number = 0;
  for (int r = 0; r < round_count(spec); ++r) {
    for (int a = 0; a < engines; ++a) {
      for (int b = a + 1; b < engines; ++b) {
        Job job;
        for (int i = 0; i < spec.games; ++i) {
          ScheduledGame g;
          g.number = ++number;
          g.round = r + 1;
          const bool a_white = (i + r) % 2 == 0;
          g.white = a_white ? a : b;
          g.black = a_white ? b : a;
          const int key = spec.repeat ? r : r * spec.games + i;
          if (!order.empty()) g.opening = order[static_cast<std::size_t>(key) % order.size()];
          g.closes_pair = paired && i % 2 == 1;
          job.push_back(g);
        }
        jobs.push_back(std::move(job));
      }
    }
  }
  return jobs;
}

Status check_spec(const HubMatchSpec& spec) {
  if (spec.engines.size() < 2) return Error{"a match needs at least two engines"};
  if (spec.games < 1) return Error{"games must be at least 1"};
  if (spec.rounds < 0) return Error{"rounds cannot be negative"};
  if (spec.concurrency < 1 || spec.concurrency > 256) return Error{"concurrency must be between 1 and 256"};
  if (spec.opening_start < 1) return Error{"the first opening is number 1"};
  if (spec.resume && spec.pdn_path.empty()) return Error{"-resume needs the -pdnout file of the match"};
  if (spec.resume)
    for (std::size_t i = 0; i < spec.engines.size(); ++i)
      for (std::size_t j = i + 1; j < spec.engines.size(); ++j)
        if (spec.engines[i].spec.name == spec.engines[j].spec.name)
          return Error{"-resume needs distinct engine names (the PDN file names the players)"};
  if (spec.sprt && spec.engines.size() != 2) return Error{"SPRT needs exactly two engines"};
  if (spec.sprt && !(spec.sprt->elo0 < spec.sprt->elo1)) return Error{"SPRT needs elo0 < elo1"};
  if (spec.sprt &&
      !(spec.sprt->alpha > 0 && spec.sprt->alpha < 1 && spec.sprt->beta > 0 && spec.sprt->beta < 1))
    return Error{"SPRT alpha and beta must be between 0 and 1"};
  for (const MatchEngine& e : spec.engines) {
    if (e.spec.process.command.empty()) return Error{"engine " + e.spec.name + " has no cmd"};
    if (e.margin < 0 || e.timeout <= 0) return Error{"engine " + e.spec.name + ": bad margin or timeout"};
  }
  return Ok{};
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto secs = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return secs(usage.ru_utime) + secs(usage.ru_stime);
}

void add_totals(EngineTotals& to, const EngineTotals& from) {
  to.moves += from.moves;
  to.moves_with_depth += from.moves_with_depth;
  to.depth_sum += from.depth_sum;
  to.nodes += from.nodes;
  to.seconds += from.seconds;
}

// ---- The match ------------------------------------------------------------------------------

class MatchRun {
 public:
  MatchRun(const HubMatchSpec& spec, const HubGameCallback& on_game, int log_fd)
      : spec_(spec), on_game_(on_game), log_fd_(log_fd), jobs_(schedule(spec)) {
    for (const MatchEngine& e : spec.engines) result_.names.push_back(e.spec.name);
    result_.totals.resize(spec.engines.size());
    for (const Job& j : jobs_) result_.total_games += static_cast<int>(j.size());
  }

  Status open_pdn() {
    if (spec_.pdn_path.empty()) return Ok{};
    if (Status s = check_output_file(spec_.pdn_path, "PDN file"); !s) return s;
    std::vector<std::string> kept;
    if (spec_.resume)
      if (Status s = resume(kept); !s) return s;
    // Rewritten from the games kept (a cut-off last game is gone), then appended to.
    pdn_.open(spec_.pdn_path, std::ios::trunc);
    for (const std::string& text : kept) pdn_ << text << "\n";
    pdn_.flush();
    if (!pdn_) return Error{"cannot write the PDN file " + spec_.pdn_path};
    return Ok{};
  }

  Expected<HubMatchResult> run() {
    const double cpu0 = cpu_seconds();
    const auto t0 = SteadyClock::now();
    const int slots = std::min<int>(spec_.concurrency, static_cast<int>(jobs_.size()));
    std::vector<std::thread> threads;
    for (int s = 1; s < slots; ++s) threads.emplace_back([this] { slot(); });
    slot();
    for (std::thread& t : threads) t.join();
    if (error_) return Error{*error_};
    result_.wall_seconds = std::chrono::duration<double>(SteadyClock::now() - t0).count();
    result_.runner_cpu_seconds = cpu_seconds() - cpu0;
    return result_;
  }

 private:
  void stop_with(const std::string& why, bool is_error) {
    const std::lock_guard lock(mutex_);
    if (is_error && !error_) error_ = why;
    if (!is_error && result_.stopped.empty()) result_.stopped = why;
    stop_ = true;
  }

  // The slot's process for engine i, started (or restarted) when needed.
  HubEngine* engine(std::vector<std::unique_ptr<HubEngine>>& engines, int i) {
    auto& e = engines[static_cast<std::size_t>(i)];
    if (!e) {
      EngineSpec spec = spec_.engines[static_cast<std::size_t>(i)].spec;
      spec.draw_rules = std::string(to_string(spec_.draw_rules));
      e = std::make_unique<HubEngine>(std::move(spec), log_fd_, spec_.debug);
    }
    if (!e->alive())
      if (Status s = e->start(); !s) {
        stop_with(s.error(), true);
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
        PlayedGame played = play_game(spec_, g, *white, *black);
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
      add_totals(result_.totals[static_cast<std::size_t>(i)], played.totals[static_cast<std::size_t>(side)]);
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
    for (int side = 0; side < 2; ++side) {
      const int i = side == 0 ? g.white : g.black;
      EngineTotals& t = result_.totals[static_cast<std::size_t>(i)];
      ++t.games;
      const double p = g.points(i);
      (p == 1.0 ? t.wins : p == 0.0 ? t.losses : t.draws) += 1;
    }
    if (g.failure != Failure::None)
      ++result_.totals[static_cast<std::size_t>(g.failed_engine)]
            .failures[static_cast<std::size_t>(g.failure)];
    if (spec_.engines.size() == 2) {
      const double p = g.points(0);
      (p == 1.0 ? result_.wins : p == 0.0 ? result_.losses : result_.draws) += 1;
      if (pair_first_points) result_.pentanomial.add_pair(*pair_first_points, p);
    }
    if (spec_.sprt) {
      result_.sprt = result_.pentanomial.pairs() > 0 || spec_.games % 2 == 0
                         ? sprt_from_pairs(result_.pentanomial, *spec_.sprt)
                         : sprt_from_games(result_.wins, result_.draws, result_.losses, *spec_.sprt);
      if (result_.sprt->verdict != SprtVerdict::Continue) stop_ = true;
    }
    result_.games.push_back(g);
  }

  // -resume: the games of the PDN file are counted and taken out of the schedule; `kept` gets
  // their text. A game the schedule does not have means another match's file: refused.
  Status resume(std::vector<std::string>& kept) {
    std::error_code ec;
    if (!std::filesystem::exists(spec_.pdn_path, ec)) return Ok{};  // nothing played yet
    Expected<std::string> text = read_text_file(spec_.pdn_path, "PDN file");
    if (!text) return Error{text.error()};
    Expected<RecordedMatch> record = read_match_record(*text, spec_.pdn_path);
    if (!record) return Error{record.error()};
    result_.resume_dropped_line = record->dropped_line;
    std::vector<std::vector<std::optional<HubGame>>> done(jobs_.size());
    for (std::size_t j = 0; j < jobs_.size(); ++j) done[j].resize(jobs_[j].size());
    for (const RecordedGame& r : record->games) {
      Status placed =
          Error{line_location(spec_.pdn_path, r.line) + "round " + std::to_string(r.round) + ", " + r.white +
                " - " + r.black +
                " is not a game of this match (resume with the interrupted match's command line)"};
      for (std::size_t j = 0; j < jobs_.size() && !placed; ++j)
        for (std::size_t k = 0; k < jobs_[j].size() && !placed; ++k)
          if (!done[j][k] && is_scheduled_as(r, jobs_[j][k])) {
            Expected<HubGame> h = hub_game_of(r, jobs_[j][k]);
            if (!h) return Error{line_location(spec_.pdn_path, r.line) + h.error()};
            done[j][k] = std::move(*h);
            placed = Ok{};
          }
      if (!placed) return placed;
      kept.push_back(r.text);
    }
    for (std::size_t j = 0; j < jobs_.size(); ++j) {
      Job& job = jobs_[j];
      for (std::size_t k = 0; k < job.size(); ++k) {
        if (!done[j][k]) continue;
        const double points = done[j][k]->points(0);
        // The pair's other game: the one before (this closes the pair) or the one after.
        const std::size_t other = job[k].closes_pair ? k - 1 : k + 1;
        const bool paired = job[k].closes_pair || (other < job.size() && job[other].closes_pair);
        std::optional<double> pair_first;
        if (paired && job[k].closes_pair && done[j][other]) pair_first = done[j][other]->points(0);
        if (paired && !done[j][other]) {
          job[other].partner_points = points;
          job[other].closes_pair = true;  // the game still to play completes the pair
        }
        count(*done[j][k], pair_first);
        ++result_.resumed_games;
      }
      Job left;
      for (std::size_t k = 0; k < job.size(); ++k)
        if (!done[j][k]) left.push_back(job[k]);
      job = std::move(left);
    }
    std::erase_if(jobs_, [](const Job& job) { return job.empty(); });
    return Ok{};
  }

  bool is_scheduled_as(const RecordedGame& r, const ScheduledGame& g) const {
    if (r.round != g.round || r.white != name(g.white) || r.black != name(g.black)) return false;
    if (g.opening < 0) return r.start == Position::start();
    const Opening& o = spec_.openings[static_cast<std::size_t>(g.opening)];
    return r.start == o.start && r.moves.size() >= o.moves.size() &&
           std::equal(o.moves.begin(), o.moves.end(), r.moves.begin());
  }

  Expected<HubGame> hub_game_of(const RecordedGame& r, const ScheduledGame& g) const {
    const std::string tc = time_control_tag(spec_.engines[static_cast<std::size_t>(g.white)],
                                            spec_.engines[static_cast<std::size_t>(g.black)]);
    if (r.time_control != tc)
      return Error{"played at " + r.time_control + ", this match is " + tc +
                   " (resume with the same -each tc)"};
    HubGame h;
    h.number = g.number;
    h.round = g.round;
    h.white = g.white;
    h.black = g.black;
    h.opening = g.opening;
    h.result = r.result;
    h.termination = r.termination;
    h.plies = static_cast<int>(r.moves.size());
    h.pdn = r.text;
    // "time forfeit by NAME: detail": a failure, charged to the loser.
    for (int f = 1; f < static_cast<int>(Failure::kCount); ++f) {
      const std::string prefix = to_string(static_cast<Failure>(f)) + " by ";
      if (r.termination.rfind(prefix, 0) != 0 || r.result == GameResult::Draw) continue;
      h.failure = static_cast<Failure>(f);
      h.failed_engine = r.result == GameResult::WhiteWins ? g.black : g.white;
      h.termination = to_string(h.failure);
      const std::string rest = r.termination.substr(prefix.size());
      const std::string who = name(h.failed_engine) + ": ";
      h.detail = rest.rfind(who, 0) == 0 ? rest.substr(who.size()) : rest;
    }
    return h;
  }

  const std::string& name(int engine) const {
    return spec_.engines[static_cast<std::size_t>(engine)].spec.name;
  }

  const HubMatchSpec& spec_;
  const HubGameCallback& on_game_;
  int log_fd_;
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
  if (Status s = check_spec(spec); !s) return Error{s.error()};
  const int log_fd = ::open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return Error{"cannot write the engine log " + spec.log_path};
  Expected<HubMatchResult> result = Error{""};
  {
    MatchRun run(spec, on_game, log_fd);
    if (Status s = run.open_pdn(); !s) result = Error{s.error()};
    else result = run.run();
  }
  ::close(log_fd);
  return result;
}

}  // namespace damas
