#include <algorithm>
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/training_data.h"
#include "damas/match/datagen.h"
#include "eval_test_helpers.h"

using namespace damas;

namespace {

std::vector<TrainingRecord> sample_records() {
  std::vector<TrainingRecord> out;
  int i = 0;
  for (const Position& p : test::random_quiet_positions(11, 20)) {
    TrainingRecord r;
    r.position = p;
    r.score = static_cast<Score>(i * 37 % 2001 - 1000);
    r.result = i % 3 == 0 ? GameResult::WhiteWins : i % 3 == 1 ? GameResult::Draw : GameResult::BlackWins;
    r.first_of_game = i % 50 == 0;
    r.ply = i % 300;
    out.push_back(r);
    ++i;
  }
  return out;
}

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void write_file(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Writes records with TrainingDataWriter (its writes and finish must succeed).
void write_training_file(const std::string& path, const std::vector<TrainingRecord>& records) {
  Expected<TrainingDataWriter> created = TrainingDataWriter::create(path);
  REQUIRE(created.has_value());
  TrainingDataWriter writer = std::move(created).value();
  for (const TrainingRecord& r : records) REQUIRE(writer.write(r));
  REQUIRE(writer.finish());
}

DatagenConfig small_config() {
  DatagenConfig c;
  c.options = {{"hash", "1"}};
  Expected<std::vector<Opening>> ballots =
      parse_openings("B:W29,22,23,24,17,30,31,32,25,26,27,28:B9,10,11,12,5,6,7,8,1,2,3,4\n22-18 11-15\n");
  REQUIRE(ballots.has_value());
  c.ballots = *ballots;
  c.nodes = 300;
  c.games = 4;
  c.max_plies = 60;
  return c;
}

std::vector<DatagenGame> run(const DatagenConfig& c) {
  std::vector<DatagenGame> games;
  const Status s = run_datagen(c, [&](const DatagenGame& g) -> Status {
    games.push_back(g);
    return Ok{};
  });
  REQUIRE(s);
  return games;
}

}  // namespace

TEST_CASE("training data round-trips through its file", "[datagen]") {
  const std::vector<TrainingRecord> records = sample_records();
  REQUIRE(records.size() > 500);
  const std::string path = "test_training_data.bin";
  write_training_file(path, records);
  CHECK(file_bytes(path).size() == kTrainingHeaderBytes + records.size() * kTrainingRecordBytes);
  const Expected<std::vector<TrainingRecord>> back = read_training_data(path);
  std::remove(path.c_str());
  REQUIRE(back.has_value());
  CHECK(*back == records);
}

TEST_CASE("corrupt, truncated and unfinished training data is refused", "[datagen]") {
  const std::string path = "test_training_data_bad.bin";
  write_training_file(path, sample_records());
  const std::vector<char> good = file_bytes(path);
  auto refused = [&](const std::vector<char>& bytes, const std::string& why) {
    write_file(path, bytes);
    const Expected<std::vector<TrainingRecord>> r = read_training_data(path);
    REQUIRE_FALSE(r.has_value());
    CHECK_THAT(r.error(), Catch::Contains(why));
  };
  std::vector<char> flipped = good;
  flipped[kTrainingHeaderBytes + 5] ^= 4;
  refused(flipped, "checksum");
  refused(std::vector<char>(good.begin(), good.end() - 3), "truncated");
  std::vector<char> version = good;
  version[8] = 9;
  refused(version, "version 9");
  refused(std::vector<char>(good.begin(), good.begin() + 10), "too short");
  refused(std::vector<char>(40, 'x'), "not a damas training-data file");
  std::remove(path.c_str());
  CHECK_FALSE(read_training_data("no-such-file.bin").has_value());
}

TEST_CASE("datagen records quiet positions with scores and the game result", "[datagen]") {
  const std::vector<DatagenGame> games = run(small_config());
  REQUIRE(games.size() == 4);
  for (const DatagenGame& g : games) {
    REQUIRE_FALSE(g.records.empty());
    CHECK(g.records.front().first_of_game);
    for (std::size_t i = 0; i < g.records.size(); ++i) {
      const TrainingRecord& r = g.records[i];
      CHECK_FALSE(has_capture(r.position));
      CHECK(r.result == g.result);
      CHECK_FALSE(is_win_score(r.score));
      CHECK(r.first_of_game == (i == 0));
    }
  }
}

TEST_CASE("datagen is deterministic for a seed and independent of threads", "[datagen]") {
  DatagenConfig c = small_config();
  const std::vector<DatagenGame> one = run(c);
  c.threads = 2;
  const std::vector<DatagenGame> two = run(c);
  REQUIRE(one.size() == two.size());
  for (std::size_t i = 0; i < one.size(); ++i) CHECK(one[i].records == two[i].records);
  c.seed = 2;
  const std::vector<DatagenGame> other = run(c);
  bool differs = false;
  for (std::size_t i = 0; i < one.size(); ++i) differs |= !(one[i].records == other[i].records);
  CHECK(differs);
}

TEST_CASE("datagen shards play disjoint games", "[datagen]") {
  DatagenConfig c = small_config();
  c.games = 3;
  c.shards = 2;
  std::set<std::uint64_t> seen;
  for (int k = 0; k < 2; ++k) {
    c.shard = k;
    for (const DatagenGame& g : run(c)) {
      CHECK(g.global_index % 2 == static_cast<std::uint64_t>(k));
      CHECK(seen.insert(g.global_index).second);
    }
  }
  CHECK(seen.size() == 6);
  c.shard = 2;
  CHECK_FALSE(validate(c));
}

TEST_CASE("datagen: a ballot's later rounds do not replay its first game", "[datagen]") {
  DatagenConfig c = small_config();  // one ballot: games 0, 2, 4 of the shard start from it
  c.games = 5;
  const std::vector<DatagenGame> games = run(c);
  REQUIRE(games.size() == 5);
  CHECK_FALSE(games[0].records == games[2].records);
  CHECK_FALSE(games[0].records == games[4].records);
  CHECK_FALSE(games[2].records == games[4].records);
  c.ballot_repeat_random_plies = 0;
  CHECK_FALSE(validate(c));
}

TEST_CASE("datagen: a capture pending is recorded as the first quiet position of its variation",
          "[datagen]") {
  // White to move must take 18 (22x15); Black, with men on 6 and 13, then has two quiet moves.
  const Expected<Position> root = parse_fen("W:W22,30:B6,13,18");
  REQUIRE(root.has_value());
  REQUIRE(has_capture(*root));
  const Expected<std::vector<Move>> pv = parse_move_list(*root, "22x15 6-10");
  REQUIRE(pv.has_value());
  SearchResult r;
  r.score = 37;
  r.pv = *pv;
  const std::optional<TrainingRecord> rec = quiet_descendant(*root, r, 20);
  REQUIRE(rec.has_value());
  CHECK(rec->position == root->after((*pv)[0]));
  CHECK(rec->score == -37);  // Black's view
  CHECK(rec->ply == 21);
  CHECK_FALSE(has_capture(rec->position));

  SearchResult short_pv;  // the variation stops before the capture is made
  CHECK_FALSE(quiet_descendant(*root, short_pv, 20).has_value());
  SearchResult wrong = r;  // a move of the other side first
  wrong.pv = {(*pv)[1]};
  CHECK_FALSE(quiet_descendant(*root, wrong, 20).has_value());
}

TEST_CASE("datagen: quiet descendants add records, never with a capture pending", "[datagen]") {
  DatagenConfig c = small_config();
  c.games = 8;
  c.max_plies = 120;
  c.quiet_descendants = false;
  std::multiset<std::pair<Key, Score>> without;
  for (const DatagenGame& g : run(c))
    for (const TrainingRecord& rec : g.records) without.emplace(rec.position.key(), rec.score);
  c.quiet_descendants = true;
  std::multiset<std::pair<Key, Score>> with;
  for (const DatagenGame& g : run(c)) {
    for (const TrainingRecord& rec : g.records) {
      CHECK_FALSE(has_capture(rec.position));
      with.emplace(rec.position.key(), rec.score);
    }
  }
  // The games are the same: every record of the plain run is there, the descendants come on top
  // (how many depends on the evaluation: a descendant the game plays into is left out).
  CHECK(std::includes(with.begin(), with.end(), without.begin(), without.end()));
}

TEST_CASE("datagen: an engine told another game than the data's is refused", "[datagen][russian]") {
  DatagenConfig c = small_config();
  c.options.emplace_back("variant", "russian");
  const Status s = validate(c);
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error(), Catch::Contains("variant=russian contradicts the game played, brazilian"));
  c.options.back().second = "brazilian";
  CHECK(validate(c));
}

namespace {

std::vector<TrainingRecord> as_variant(std::vector<TrainingRecord> records, Variant v) {
  for (TrainingRecord& r : records) r.position = r.position.with_variant(v);
  return records;
}

}  // namespace

TEST_CASE("training data: a file names its game and gives its positions back in it", "[datagen][russian]") {
  const std::vector<TrainingRecord> records = as_variant(sample_records(), Variant::Russian);
  const std::string path = "test_training_data_russian.bin";
  Expected<TrainingDataWriter> created = TrainingDataWriter::create(path, Variant::Russian);
  REQUIRE(created.has_value());
  TrainingDataWriter writer = std::move(created).value();
  // A Brazilian position does not go into a Russian file.
  const Status other = writer.write(sample_records().front());
  REQUIRE_FALSE(other);
  CHECK_THAT(other.error(), Catch::Contains("holds russian positions, not brazilian"));
  for (const TrainingRecord& r : records) REQUIRE(writer.write(r));
  REQUIRE(writer.finish());
  std::vector<char> bytes = file_bytes(path);
  CHECK(bytes[32] == 25);  // PDN GameType 25
  const Expected<std::vector<TrainingRecord>> back = read_training_data(path);
  REQUIRE(back.has_value());
  CHECK(*back == records);
  CHECK(back->front().position.variant() == Variant::Russian);
  // The game is inside the checksum: a file relabelled Brazilian is refused.
  bytes[32] = 26;
  write_file(path, bytes);
  const Expected<std::vector<TrainingRecord>> relabelled = read_training_data(path);
  REQUIRE_FALSE(relabelled.has_value());
  CHECK_THAT(relabelled.error(), Catch::Contains("checksum"));
  // A game damas does not play is named.
  bytes[32] = 20;
  write_file(path, bytes);
  const Expected<std::vector<TrainingRecord>> unknown = read_training_data(path);
  REQUIRE_FALSE(unknown.has_value());
  CHECK_THAT(unknown.error(), Catch::Contains("unknown game (PDN GameType 20)"));
  std::remove(path.c_str());
}

TEST_CASE("training data: a version 1 file is read as Brazilian", "[datagen][russian]") {
  const std::vector<TrainingRecord> records = sample_records();
  const std::string path = "test_training_data_v1.bin";
  write_training_file(path, records);
  // Version 1 as datagen wrote it before: a 32-byte header, the checksum over the records alone.
  const std::vector<char> v2 = file_bytes(path);
  std::vector<char> v1(v2.begin(), v2.begin() + 32);
  v1.insert(v1.end(), v2.begin() + kTrainingHeaderBytes, v2.end());
  v1[8] = 1;
  const std::uint64_t sum = fnv1a64(reinterpret_cast<const unsigned char*>(v1.data()) + 32, v1.size() - 32);
  for (int i = 0; i < 8; ++i) v1[24 + static_cast<std::size_t>(i)] = static_cast<char>(sum >> (8 * i) & 0xff);
  write_file(path, v1);
  const Expected<std::vector<TrainingRecord>> back = read_training_data(path);
  std::remove(path.c_str());
  REQUIRE(back.has_value());
  CHECK(*back == records);
  CHECK(back->front().position.variant() == Variant::Brazilian);
}

TEST_CASE("datagen --variant russian plays Russian games and records Russian positions",
          "[datagen][russian]") {
  DatagenConfig c = small_config();
  Expected<std::vector<Opening>> ballots =
      parse_openings("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n22-18 11-15\n",
                     "ballots", OpeningFormat::Auto, Variant::Russian);
  REQUIRE(ballots.has_value());
  c.ballots = *ballots;
  c.variant = Variant::Russian;
  REQUIRE(validate(c));
  const std::vector<DatagenGame> games = run(c);
  REQUIRE(games.size() == 4);
  for (const DatagenGame& g : games) {
    REQUIRE_FALSE(g.records.empty());
    for (const TrainingRecord& r : g.records) CHECK(r.position.variant() == Variant::Russian);
  }
  // Brazilian ballots are no Russian openings.
  c.ballots = small_config().ballots;
  const Status s = validate(c);
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error(), Catch::Contains("brazilian"));
}
