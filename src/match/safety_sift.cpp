#include "damas/match/safety_sift.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"
#include "damas/match/safety_finds.h"
#include "damas/match/safety_mine.h"

namespace damas {

std::optional<Color> loser_of(const PdnGame& game) {
  const std::string result = game.tag("Result").value_or(game.result);
  if (result == "2-0" || result == "1-0") return Color::Black;
  if (result == "0-2" || result == "0-1") return Color::White;
  return std::nullopt;
}

namespace {

// The positions of the game: before each move, then the last.
std::vector<Position> positions_of(const PdnGame& game) {
  std::vector<Position> out{game.start};
  for (const Move& m : game.moves) out.push_back(out.back().after(m));
  return out;
}

std::vector<std::size_t> candidate_plies(const std::vector<Position>& before, Color loser,
                                         const SiftRule& rule) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i + 1 < before.size(); ++i) {
    const Position& p = before[i];
    if (p.side_to_move() != loser || has_capture(p) || count_legal_moves(p) < 2) continue;
    const int now = material_balance(p, loser);
    if (now < -1) continue;
    for (std::size_t j = i + 1; j < before.size() && j <= i + static_cast<std::size_t>(rule.lookahead); ++j) {
      if (has_capture(before[j]) || material_balance(before[j], loser) > now - 1) continue;
      out.push_back(i);
      break;
    }
  }
  return out;
}

}  // namespace

std::vector<std::size_t> sift_plies(const PdnGame& game, Color loser, const SiftRule& rule) {
  return candidate_plies(positions_of(game), loser, rule);
}

namespace {

Status check_config(const SiftConfig& c) {
  if (c.nodes == 0) return Error{"the node budget must be positive"};
  if (c.deep_factor < 1) return Error{"the deep factor must be at least 1"};
  if (c.concurrency < 1) return Error{"concurrency must be at least 1"};
  if (c.rule.lookahead < 1) return Error{"the lookahead must be at least one ply"};
  return Ok{};
}

// One game: each candidate searched at the budget by `engine`, its move verified unless decided.
SiftReport sift_game(const SiftConfig& config, const SiftGame& g, int index, Engine& engine,
                     SafetyVerifier& verifier, SafetyFinds& finds) {
  const auto started = std::chrono::steady_clock::now();
  SiftReport report;
  report.game = g.name;
  const std::optional<Color> loser = loser_of(g.game);
  if (!loser) return report;
  SearchLimits limits;
  limits.nodes = config.nodes;
  const std::vector<Position> before = positions_of(g.game);
  for (const std::size_t ply : candidate_plies(before, *loser, config.rule)) {
    ++report.candidates;
    const Position& p = before[ply];
    const std::vector<Move> moves(g.game.moves.begin(), g.game.moves.begin() + static_cast<long>(ply));
    engine.new_game();
    if (!engine.set_position(p)) continue;
    const SearchResult r = engine.search(limits, GoMode::Think);
    const std::string where =
        "ply " + std::to_string(ply + 1) + " " + to_hub_move(r.best) + " (" + score_text(r.score) + "): ";
    if (std::abs(r.score) >= config.rule.decided || r.best.is_null()) {
      ++report.decided;
      report.notes.push_back(where + "decided");
      continue;
    }
    const std::string side = *loser == Color::White ? "White" : "Black";
    const CandidatePlace place{{index, static_cast<int>(ply)},
                               g.game.start,
                               moves,
                               g.name + " ply " + std::to_string(ply + 1) + ", " + side +
                                   " lost the game; the engine's move at the budget"};
    const FindOutcome f = finds.verify(verifier, p, r.best, place);
    report.searches += f.searches;
    report.known += f.known;
    report.refuted += !f.known && f.refuted;
    report.notes.push_back(where + f.note);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

}  // namespace

Expected<std::vector<SiftReport>> sift_games(const SiftConfig& config, const std::vector<SiftGame>& games,
                                             SafetySet& set, const SiftCallback& on_game) {
  if (Status s = check_config(config); !s) return Error{s.error()};
  SafetyFinds finds(set.positions);
  std::mutex mutex;
  std::vector<SiftReport> reports;
  std::optional<std::string> error;
  std::atomic<std::size_t> next{0};
  auto worker = [&]() {
    Engine engine;
    SafetyVerifier verifier(config.nodes * static_cast<std::uint64_t>(config.deep_factor));
    Status ready = configure_in_process_engine(engine, config.engine, DrawRules::Seed, Variant::Brazilian);
    if (ready) ready = engine.set_option(option::kThreads, "1");
    if (ready) ready = verifier.configure(config.engine);
    if (!ready) {
      const std::lock_guard lock(mutex);
      if (!error) error = "engine: " + ready.error();
      next = games.size();  // the others stop after their game
      return;
    }
    for (std::size_t i = next++; i < games.size(); i = next++) {
      SiftReport report = sift_game(config, games[i], static_cast<int>(i), engine, verifier, finds);
      const std::lock_guard lock(mutex);
      set.positions = finds.positions();
      if (on_game) on_game(report, set);
      reports.push_back(std::move(report));
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1;
       t < std::min<std::size_t>(static_cast<std::size_t>(config.concurrency), games.size()); ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (error) return Error{*error};
  set.positions = finds.positions();
  return reports;
}

}  // namespace damas
