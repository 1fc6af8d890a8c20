// Training-data generation: self-play games of one option set at a fixed node budget per move,
// from ballots and random balanced openings, recorded as TrainingRecords (core/training_data.h).
//
// Game g of shard K/N is global game K + N*g; everything random about it (its opening, its random
// plies) comes from (seed, global game number), and each game starts with a cleared table, so a
// shard's output is the same for any number of threads, and shards never share a game.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/training_data.h"
#include "damas/match/selfplay.h"

namespace damas {

struct DatagenConfig {
  OptionList options;                    // engine options (eval, eval-file, hash)
  Variant variant = Variant::Brazilian;  // the game played, told to the engine and named by the data
  std::vector<Opening> ballots;          // half the games start from these (cycled), half at random
  std::uint64_t nodes = 5000;            // per move
  int games = 100;                       // games of this shard
  int threads = 1;                       // games played at once
  std::uint64_t seed = 1;
  int shard = 0;                // K of K/N
  int shards = 1;               // N
  int random_plies = 8;         // random opening: plies played at random from the start
  int ballot_random_plies = 2;  // random plies after a ballot, at most
  // A ballot's second and later rounds (its second game onwards) start with 1 to this many random
  // plies, so that no round replays an earlier one.
  int ballot_repeat_random_plies = 4;
  // A position with a capture pending is represented by the first quiet position of its principal
  // variation (with the search score), unless the game itself plays into it.
  bool quiet_descendants = true;
  Score balance_limit = 80;  // an opening whose searched score exceeds this is redrawn
  int max_plies = 400;       // a longer game is a draw
};

struct DatagenGame {
  std::uint64_t global_index = 0;
  GameResult result = GameResult::Draw;
  std::vector<TrainingRecord> records;
};

// Called in game order (0, 1, 2, ... of the shard), serialised.
using DatagenCallback = std::function<Status(const DatagenGame&)>;

Status validate(const DatagenConfig& config);
// Plays one game (deterministic for config and global index). Exposed for tests.
Expected<DatagenGame> generate_game(const DatagenConfig& config, std::uint64_t global_index, Engine& engine);
// The first quiet position of r's principal variation from root (a position with a capture
// pending), with r's score from that position's side to move; none if the variation ends before a
// quiet position, holds an illegal move, or reaches a position with fewer than two legal moves.
// ply is root's ply in its game. Exposed for tests.
std::optional<TrainingRecord> quiet_descendant(const Position& root, const SearchResult& r, int ply);
Status run_datagen(const DatagenConfig& config, const DatagenCallback& on_game);

}  // namespace damas
