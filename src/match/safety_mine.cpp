#include "damas/match/safety_mine.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"
#include "damas/match/safety_finds.h"
#include "damas/match/safety_verify.h"

namespace damas {

std::vector<std::string> default_safety_opponents() {
  return {"probcut=false lmr=false", "eval=classic", "level=hard seed=1", "level=medium seed=1"};
}

int material_balance(const Position& p, Color side) {
  auto count = [&](Color c) { return popcount(p.men(c)) + 3 * popcount(p.kings(c)); };
  return count(side) - count(~side);
}

namespace {

// Why A's move at `a` (an index into a_moves) is suspicious, or nothing.
std::optional<std::string> suspicion(const std::vector<Position>& before, const GameRecord& game,
                                     const std::vector<std::size_t>& a_moves, std::size_t a,
                                     const CandidateRule& rule) {
  const std::size_t i = a_moves[a];
  const Score score = game.played[i].score;
  const Color side = before[i].side_to_move();
  const int material_now = material_balance(before[i], side);
  for (std::size_t j = a + 1; j < a_moves.size() && j <= a + static_cast<std::size_t>(rule.lookahead); ++j) {
    if (game.played[a_moves[j]].depth == 0) continue;  // a forced move, played without a search: no score
    const Score later = game.played[a_moves[j]].score;
    const std::string within = " within " + std::to_string(j - a) + " moves";
    if (later <= score - rule.drop) return "score " + score_text(score) + " to " + score_text(later) + within;
    // Material lost without the compensation A believed in: its score falls too, if less.
    const Position& p = before[a_moves[j]];
    if (later <= score - rule.drop / 2 && !has_capture(p) && material_balance(p, side) <= material_now - 1)
      return "material " + std::to_string(material_balance(p, side) - material_now) + ", score " +
             score_text(score) + " to " + score_text(later) + within;
  }
  return std::nullopt;
}

}  // namespace

std::vector<Candidate> find_candidates(const Opening& opening, const GameRecord& game,
                                       const CandidateRule& rule) {
  std::vector<Position> before{opening.position()};
  std::vector<std::size_t> a_moves;
  for (std::size_t i = 0; i < game.played.size(); ++i) {
    if (game.played[i].by_a) a_moves.push_back(i);
    before.push_back(before.back().after(game.played[i].move));
  }
  std::vector<Candidate> out;
  for (std::size_t a = 0; a < a_moves.size(); ++a) {
    const std::size_t i = a_moves[a];
    const Score score = game.played[i].score;
    if (game.played[i].depth == 0 || std::abs(score) >= rule.decided) continue;
    MoveList moves;
    generate_legal_moves(before[i], moves);
    if (moves.size() < 2) continue;
    std::optional<std::string> why = suspicion(before, game, a_moves, a, rule);
    if (!why) continue;
    Candidate c{before[i], game.played[i].move, before[0], {}, static_cast<int>(opening.moves.size() + i),
                score,     std::move(*why)};
    for (std::size_t k = 0; k < i; ++k) c.game.push_back(game.played[k].move);
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

Status check_config(const MineConfig& c) {
  if (c.openings.empty()) return Error{"no openings"};
  if (c.opponents.empty()) return Error{"no opponents"};
  if (c.nodes == 0) return Error{"the node budget must be positive"};
  if (c.deep_factor < 1) return Error{"the deep factor must be at least 1"};
  if (c.first_game < 1 || c.first_game % 2 == 0)
    return Error{"the first game must be odd (games come in pairs)"};
  if (c.games < 2 || c.games % 2 != 0) return Error{"the number of games must be even and positive"};
  if (c.concurrency < 1) return Error{"concurrency must be at least 1"};
  if (c.max_plies < 0) return Error{"max plies cannot be negative"};
  return Ok{};
}

// The openings in the order of the seed (Fisher-Yates with a fixed generator).
std::vector<std::size_t> opening_order(std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  std::uint64_t state = seed;
  for (std::size_t i = count; i > 1; --i) std::swap(order[i - 1], order[zobrist::splitmix64(state) % i]);
  return order;
}

// The run's shared state: the pairs played, the first error.
struct MineState {
  std::mutex mutex;
  std::vector<MinePair> pairs;
  std::optional<std::string> error;
};

std::string source_text(const MinePair& pair, int game_in_pair, const Candidate& c) {
  return "game " + std::to_string(pair.first_game + game_in_pair) + " ply " + std::to_string(c.ply + 1) +
         ", " + (game_in_pair == 0 ? "White" : "Black") + " against " + pair.opponent + ", opening \"" +
         pair.opening + "\"; " + c.reason;
}

// Verifies one candidate unless the run has verified it (or the set holds it).
void verify_candidate(SafetyFinds& finds, SafetyVerifier& verifier, MinePair& pair, int game_in_pair,
                      const Candidate& c) {
  const CandidatePlace place{
      {pair.first_game + game_in_pair, c.ply}, c.game_start, c.game, source_text(pair, game_in_pair, c)};
  const FindOutcome f = finds.verify(verifier, c.position, c.played, place);
  pair.searches += f.searches;
  pair.known += f.known;
  pair.refuted += !f.known && f.refuted;
  pair.notes.push_back("game " + std::to_string(place.order.first) + " ply " + std::to_string(c.ply + 1) +
                       " " + to_hub_move(c.played) + " (" + c.reason + "): " + f.note);
}

// Pair k of the run (counted from game 1): its two games, then their candidates verified.
Expected<MinePair> play_pair(const MineConfig& config, SafetyFinds& finds, SafetyVerifier& verifier, int k,
                             const std::vector<std::size_t>& order) {
  const auto started = std::chrono::steady_clock::now();
  const Opening& opening = config.openings[order[static_cast<std::size_t>(k) % order.size()]];
  const Opponent& opponent = config.opponents[static_cast<std::size_t>(k) % config.opponents.size()];
  MinePair pair;
  pair.first_game = 2 * k + 1;
  pair.opening = opening.name.empty() ? opening.text : opening.name;
  pair.opponent = opponent.name;
  MatchConfig match;
  match.options_a = config.engine;
  match.options_b = opponent.options;
  match.limits.nodes = config.nodes;
  match.openings = {opening};
  match.max_plies = config.max_plies;
  Expected<MatchResult> games = run_match(match);
  if (!games)
    return Error{"games " + std::to_string(pair.first_game) + "-" + std::to_string(pair.first_game + 1) +
                 ": " + games.error()};
  for (int g = 0; g < 2; ++g) {
    const GameRecord& game = games->games[static_cast<std::size_t>(g)];
    pair.a_points += game.a_points();
    pair.plies += game.plies;
    for (const Candidate& c : find_candidates(opening, game, config.rule)) {
      ++pair.candidates;
      verify_candidate(finds, verifier, pair, g, c);
    }
  }
  pair.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return pair;
}

}  // namespace

Expected<std::vector<MinePair>> mine_safety(const MineConfig& config, SafetySet& set,
                                            const MinePairCallback& on_pair) {
  if (Status s = check_config(config); !s) return Error{s.error()};
  MineState state;
  SafetyFinds finds(set.positions);
  const std::vector<std::size_t> order = opening_order(config.openings.size(), config.seed);
  const int first_pair = (config.first_game - 1) / 2;
  const int pairs = config.games / 2;
  std::atomic<int> next{0};
  auto worker = [&]() {
    SafetyVerifier verifier(config.nodes * static_cast<std::uint64_t>(config.deep_factor));
    const Status configured = verifier.configure(config.engine);
    for (int i = next++; i < pairs; i = next++) {
      Expected<MinePair> pair = configured ? play_pair(config, finds, verifier, first_pair + i, order)
                                           : Expected<MinePair>(Error{"engine: " + configured.error()});
      const std::lock_guard lock(state.mutex);
      if (!pair || state.error) {
        if (!state.error) state.error = pair.error();
        next = pairs;  // the others stop after their pair
        return;
      }
      state.pairs.push_back(*pair);
      set.positions = finds.positions();
      if (on_pair) on_pair(*pair, set);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min(config.concurrency, pairs); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (state.error) return Error{*state.error};
  set.positions = finds.positions();
  std::sort(state.pairs.begin(), state.pairs.end(),
            [](const MinePair& a, const MinePair& b) { return a.first_game < b.first_game; });
  return state.pairs;
}

}  // namespace damas
