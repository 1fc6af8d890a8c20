#include "damas/match/datagen.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_set>

#include "damas/core/movegen.h"
#include "damas/engine/options.h"
#include "damas/match/match_variant.h"

namespace damas {
namespace {

// Random numbers of one game: splitmix64 seeded from (seed, game).
class GameRng {
 public:
  GameRng(std::uint64_t seed, std::uint64_t game)
      : state_(seed * 0x9E3779B97F4A7C15ULL ^ (game + 1) * 0xD1B54A32D192ED03ULL) {}
  std::uint64_t next() { return zobrist::splitmix64(state_); }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

 private:
  std::uint64_t state_;
};

// Plays `plies` random legal moves; false if the game ended on the way.
bool play_random(Game& game, int plies, GameRng& rng) {
  MoveList moves;
  for (int i = 0; i < plies; ++i) {
    if (game.over()) return false;
    generate_legal_moves(game.current(), moves);
    if (moves.size() == 0) return false;
    if (!game.play(moves[static_cast<std::size_t>(rng.below(static_cast<int>(moves.size())))])) return false;
  }
  return !game.over();
}

SearchResult search_now(Engine& engine, const Game& game, std::uint64_t nodes) {
  engine.set_position(game.start(), game.moves());
  SearchLimits limits;
  limits.nodes = nodes;
  return engine.search(limits);
}

// An opening from ballots or random plies whose searched score is within the balance limit.
Expected<Game> draw_opening(const DatagenConfig& config, std::uint64_t global_index, GameRng& rng,
                            Engine& engine) {
  const bool from_ballot = !config.ballots.empty() && global_index % 2 == 0;
  for (int attempt = 0; attempt < 50; ++attempt) {
    Game game(Position::start(config.variant));
    int plies = config.random_plies;
    if (from_ballot) {
      const Opening& o = config.ballots[(global_index / 2) % config.ballots.size()];
      game = Game(o.start);
      for (const Move& m : o.moves)
        if (Status s = game.play(m); !s) return Error{"ballot \"" + o.text + "\": " + s.error()};
      // Searches at a fixed node budget repeat themselves: a ballot's later rounds get random plies
      // of their own, or every round would replay the first round's game.
      const bool first_round = global_index / 2 < config.ballots.size();
      if (first_round) plies = attempt == 0 ? 0 : rng.below(config.ballot_random_plies + 1);
      else plies = 1 + rng.below(config.ballot_repeat_random_plies);
    }
    if (!play_random(game, plies, rng)) continue;
    engine.new_game();
    const SearchResult r = search_now(engine, game, config.nodes);
    if (r.score >= -config.balance_limit && r.score <= config.balance_limit) return game;
  }
  return Error{"no balanced opening found for game " + std::to_string(global_index)};
}

// A position the data keeps: nothing to capture, and a choice of moves.
bool recordable(const Position& p) { return !has_capture(p) && count_legal_moves(p) > 1; }

TrainingRecord make_record(const Position& p, Score score, int ply) {
  TrainingRecord rec;
  rec.position = p;
  rec.score = std::clamp(score, Score{-32000}, Score{32000});
  rec.ply = ply;
  return rec;
}

}  // namespace

// The evaluation is asked about the ends of capture sequences, which a game's own positions cover
// only when they are played.
std::optional<TrainingRecord> quiet_descendant(const Position& root, const SearchResult& r, int ply) {
  Position p = root;
  Score score = r.score;
  std::size_t steps = 0;
  MoveList legal;
  for (; steps < r.pv.size() && has_capture(p); ++steps) {
    generate_legal_moves(p, legal);
    if (std::find(legal.begin(), legal.end(), r.pv[steps]) == legal.end()) return std::nullopt;
    p = p.after(r.pv[steps]);
    score = -score;
  }
  if (!recordable(p)) return std::nullopt;
  return make_record(p, score, ply + static_cast<int>(steps));
}

Status validate(const DatagenConfig& c) {
  if (c.nodes == 0) return Error{"the node budget must be positive"};
  if (c.games < 0) return Error{"the number of games cannot be negative"};
  if (c.threads < 1) return Error{"threads must be at least 1"};
  if (c.shards < 1 || c.shard < 0 || c.shard >= c.shards) return Error{"shard K/N needs 0 <= K < N"};
  if (c.random_plies < 0 || c.ballot_random_plies < 0) return Error{"random plies cannot be negative"};
  if (c.ballot_repeat_random_plies < 1) return Error{"a ballot's later rounds need at least one random ply"};
  if (c.max_plies < 1) return Error{"max plies must be positive"};
  if (Status s = check_variant_option(c.options, c.variant); !s) return s;
  return check_openings_variant(c.ballots, c.variant);
}

Expected<DatagenGame> generate_game(const DatagenConfig& config, std::uint64_t global_index, Engine& engine) {
  GameRng rng(config.seed, global_index);
  Expected<Game> opening = draw_opening(config, global_index, rng, engine);
  if (!opening) return Error{opening.error()};
  Game game = std::move(opening).value();
  engine.new_game();
  DatagenGame out;
  out.global_index = global_index;
  std::unordered_set<Key> played;  // the game's own positions: a descendant equal to one is left out
  std::vector<std::pair<TrainingRecord, bool>> kept;  // record, whether a descendant
  while (!game.over() && static_cast<int>(game.moves().size()) < config.max_plies) {
    const Position& p = game.current();
    played.insert(p.key());
    const SearchResult r = search_now(engine, game, config.nodes);
    if (r.best.is_null()) return Error{"no move returned at " + std::to_string(game.moves().size())};
    const int ply = static_cast<int>(game.moves().size());
    if (!is_win_score(r.score) && !is_loss_score(r.score)) {
      if (recordable(p)) {
        kept.emplace_back(make_record(p, r.score, ply), false);
      } else if (has_capture(p) && config.quiet_descendants) {
        if (std::optional<TrainingRecord> rec = quiet_descendant(p, r, ply)) kept.emplace_back(*rec, true);
      }
    }
    if (Status s = game.play(r.best); !s) return Error{"illegal move from the engine: " + s.error()};
  }
  for (const auto& [rec, descendant] : kept)
    if (!descendant || played.count(rec.position.key()) == 0) out.records.push_back(rec);
  out.result = game.over() ? game.result() : GameResult::Draw;
  for (TrainingRecord& rec : out.records) rec.result = out.result;
  if (!out.records.empty()) out.records.front().first_of_game = true;
  return out;
}

Status run_datagen(const DatagenConfig& config, const DatagenCallback& on_game) {
  if (Status s = validate(config); !s) return s;
  std::atomic<int> next{0};
  std::mutex mutex;
  std::map<int, DatagenGame> finished;  // waiting for the games before them
  int emitted = 0;
  std::optional<std::string> error;

  auto worker = [&]() {
    Engine engine;
    // The book stays off: the data are searched positions only.
    if (Status s = configure_in_process_engine(engine, config.options, DrawRules::Seed, config.variant); !s) {
      const std::lock_guard lock(mutex);
      if (!error) error = s.error();
      return;
    }
    for (int i = next++; i < config.games; i = next++) {
      {
        const std::lock_guard lock(mutex);
        if (error) return;
      }
      const std::uint64_t global = static_cast<std::uint64_t>(config.shard) +
                                   static_cast<std::uint64_t>(config.shards) * static_cast<std::uint64_t>(i);
      Expected<DatagenGame> game = generate_game(config, global, engine);
      const std::lock_guard lock(mutex);
      if (!game) {
        if (!error) error = game.error();
        return;
      }
      finished.emplace(i, std::move(game).value());
      for (auto it = finished.find(emitted); it != finished.end(); it = finished.find(emitted)) {
        if (Status s = on_game(it->second); !s && !error) error = s.error();
        finished.erase(it);
        ++emitted;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < config.threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (error) return Error{*error};
  return Ok{};
}

}  // namespace damas
