#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "damas/core/binary_io.h"
#include "damas/core/file_check.h"
#include "damas/core/notation.h"
#include "damas/core/text_lines.h"
#include "damas/core/training_data.h"
#include "damas/engine/engine.h"
#include "damas/eval/endgame.h"
#include "damas/eval/eval.h"
#include "damas/eval/learned.h"
#include "eval_test_helpers.h"

using namespace damas;

namespace {

std::string check_file() { return std::string(DAMAS_SOURCE_DIR) + "/tests/data/learned-eval-positions.txt"; }

// Largest |integer - float| the check file may show, 1/100 man: the rounding of ~100 weights
// per output; the trainer prints the measured error on its validation set (bench/learned-eval.md).
constexpr double kQuantizationBound = 35.0;

void write_bytes(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Arbitrary but fixed small weights, different from the built-in ones.
LearnedWeights synthetic_weights() {
  LearnedWeights w;
  for (std::size_t i = 0; i < w.w1.size(); ++i)
    w.w1[i] = static_cast<std::int16_t>(static_cast<int>(i * 37 % 61) - 30);
  for (std::size_t i = 0; i < w.b1.size(); ++i) w.b1[i] = static_cast<std::int16_t>(i % 7 * 9);
  for (std::size_t i = 0; i < w.w2.size(); ++i)
    w.w2[i] = static_cast<std::int16_t>(static_cast<int>(i * 13 % 41) - 20);
  for (std::size_t i = 0; i < w.b2.size(); ++i) w.b2[i] = static_cast<std::int32_t>(i * 100) - 500;
  for (std::size_t i = 0; i < w.w3.size(); ++i) w.w3[i] = static_cast<std::int32_t>(i * 53 % 97) - 48;
  w.b3 = 77;
  return w;
}

// Every line "FEN | integer score | float score" of a trainer check file: the engine must give
// the integer score exactly, which must be within the quantization bound of the float one.
template <typename Evaluate>
int check_against_trainer(const std::string& path, Evaluate evaluate) {
  const Expected<std::string> text = read_text_file(path, "check file");
  REQUIRE(text.has_value());
  int checked = 0;
  for (const DataLine& line : data_lines(*text)) {
    std::string row(line.text);
    const auto bar1 = row.find('|');
    const auto bar2 = row.find('|', bar1 + 1);
    REQUIRE(bar2 != std::string::npos);
    const Expected<Position> p = parse_fen(row.substr(0, bar1 - 1));
    REQUIRE(p.has_value());
    const int expected = std::stoi(row.substr(bar1 + 1, bar2 - bar1 - 1));
    const double float_score = std::stod(row.substr(bar2 + 1));
    INFO(row);
    CHECK(evaluate(*p) == expected);
    CHECK(std::abs(expected - float_score) <= kQuantizationBound);
    ++checked;
  }
  return checked;
}

int check_against_trainer(const std::string& path, const LearnedWeights& w) {
  return check_against_trainer(path, [&w](const Position& p) { return evaluate_learned(p, w); });
}

}  // namespace

TEST_CASE("learned inference equals the trainer's output on its check positions", "[learned]") {
  CHECK(check_against_trainer(check_file(), builtin_learned_weights()) >= 100);
}

TEST_CASE("the lone-king ending network equals its trainer's output on its check positions",
          "[learned][endgame]") {
  CHECK(check_against_trainer(
            std::string(DAMAS_SOURCE_DIR) + "/tests/data/ending-eval-positions.txt",
            [](const Position& p) { return evaluate_ending_network(p, builtin_ending_weights()); }) >= 100);
}

// Each generation's data is reproduced with the previous generation playing (trainer/README.md):
// the kept files must still load and give their trainer's integer scores.
TEST_CASE("weights kept for reproducing a later generation's data equal their trainer's output",
          "[learned]") {
  const std::string dir = std::string(DAMAS_SOURCE_DIR) + "/trainer/weights/";
  for (const std::string generation : {"gen1", "gen2"}) {
    INFO(generation);
    const Expected<LearnedWeights> w = load_learned_weights(dir + generation + ".dnn");
    REQUIRE(w.has_value());
    CHECK(check_against_trainer(dir + generation + "-check.txt", *w) >= 100);
  }
}

// The Russian network trained so far (bench/russian.md): kept to be loaded with eval-file in a
// Russian game and to start the next generation from.
TEST_CASE("the Russian generation 1 network names its game and equals its trainer's output",
          "[learned][russian]") {
  const std::string dir = std::string(DAMAS_SOURCE_DIR) + "/trainer/weights/";
  const Expected<LearnedWeights> w = load_learned_weights(dir + "russian-gen1.dnn");
  REQUIRE(w.has_value());
  CHECK(w->variant == Variant::Russian);
  CHECK(check_against_trainer(dir + "russian-gen1-check.txt", *w) >= 100);
}

// tools/test-trainer: the weights and check file of a fresh training run.
TEST_CASE("learned inference equals a fresh trainer run", "[.][trainer-smoke]") {
  const char* weights = std::getenv("DAMAS_TRAINER_WEIGHTS");
  const char* check = std::getenv("DAMAS_TRAINER_CHECK");
  REQUIRE(weights);
  REQUIRE(check);
  const Expected<LearnedWeights> w = load_learned_weights(weights);
  REQUIRE(w.has_value());
  CHECK(check_against_trainer(check, *w) >= 10);
}

TEST_CASE("learned evaluation is colour-symmetric", "[learned]") {
  const LearnedWeights& w = builtin_learned_weights();
  const LearnedWeights synthetic = synthetic_weights();
  int nonzero = 0;
  const std::vector<Position> positions = test::random_quiet_positions(99, 100);
  REQUIRE(positions.size() > 2000);
  for (const Position& p : positions) {
    const Position q = test::colour_flip(p);
    INFO(to_fen(p));
    REQUIRE(evaluate_learned(p, w) == evaluate_learned(q, w));
    REQUIRE(evaluate_learned(p, synthetic) == evaluate_learned(q, synthetic));
    nonzero += evaluate_learned(p, w) != 0;
  }
  CHECK(static_cast<std::size_t>(nonzero) > positions.size() / 2);
}

TEST_CASE("learned evaluation is not a mate score and sees material", "[learned]") {
  const LearnedWeights& w = builtin_learned_weights();
  for (const Position& p : test::random_quiet_positions(5, 50)) {
    CHECK_FALSE(is_win_score(evaluate_learned(p, w)));
    CHECK_FALSE(is_loss_score(evaluate_learned(p, w)));
  }
  // Three men up in the middlegame is clearly good for the side that has them.
  const Expected<Position> up = parse_fen("W:W21-32:B1-9");
  REQUIRE(up.has_value());
  CHECK(evaluate_learned(*up, w) > 100);
}

TEST_CASE("learned features are the pieces from the side to move's view", "[learned]") {
  std::array<int, 24> f{};
  REQUIRE(learned_features(Position::start(), f) == 24);
  // White to move: its men on squares 21-32 are inputs 20..31; Black's men on 1-12 are 64 + 0..11.
  CHECK(f[0] == 20);
  const Expected<Position> p = parse_fen("B:WK32:B1");
  REQUIRE(p.has_value());
  REQUIRE(learned_features(*p, f) == 2);
  // Black to move: its man on 1 is its square 32 (index 31); White's king on 32 is index 0.
  CHECK(f[0] == 31);
  CHECK(f[1] == 96 + 0);
}

TEST_CASE("learned weights round-trip through their file format", "[learned]") {
  const LearnedWeights w = synthetic_weights();
  const std::vector<unsigned char> bytes = learned_weights_to_bytes(w);
  CHECK(is_learned_weights(bytes));
  const Expected<LearnedWeights> back = parse_learned_weights(bytes);
  REQUIRE(back.has_value());
  CHECK(learned_weights_to_bytes(*back) == bytes);
  for (const Position& p : test::random_quiet_positions(3, 20))
    CHECK(evaluate_learned(p, *back) == evaluate_learned(p, w));
  // The embedded file is a valid file whose weights are the built-in ones.
  const Expected<LearnedWeights> builtin = parse_learned_weights(builtin_learned_weights_file());
  REQUIRE(builtin.has_value());
  CHECK(learned_weights_to_bytes(*builtin) == learned_weights_to_bytes(builtin_learned_weights()));
}

TEST_CASE("corrupt, truncated and wrong-version learned weights are refused", "[learned]") {
  const std::vector<unsigned char> good = learned_weights_to_bytes(synthetic_weights());
  auto refused = [](std::vector<unsigned char> bytes, const std::string& why) {
    const Expected<LearnedWeights> w = parse_learned_weights(bytes, "w.dnn");
    REQUIRE_FALSE(w.has_value());
    CHECK_THAT(w.error(), Catch::Contains(why));
  };
  std::vector<unsigned char> flipped = good;
  flipped[100] ^= 1;
  refused(flipped, "checksum");
  refused(std::vector<unsigned char>(good.begin(), good.end() - 1), "truncated");
  refused(std::vector<unsigned char>(good.begin(), good.begin() + 20), "truncated");
  std::vector<unsigned char> version = good;
  version[8] = 9;
  refused(version, "version 9");
  std::vector<unsigned char> shape = good;
  shape[16] = 32;
  refused(shape, "shape");
  refused({'h', 'e', 'l', 'l', 'o'}, "not a damas learned-weights file");
}

TEST_CASE("learned weights: a network names the game it was trained for", "[learned][russian]") {
  LearnedWeights russian = synthetic_weights();
  russian.variant = Variant::Russian;
  std::vector<unsigned char> bytes = learned_weights_to_bytes(russian);
  CHECK(bytes[32] == 25);  // PDN GameType 25
  const Expected<LearnedWeights> back = parse_learned_weights(bytes);
  REQUIRE(back.has_value());
  CHECK(back->variant == Variant::Russian);
  CHECK(learned_weights_to_bytes(*back) == bytes);
  // The game is inside the checksum: a file relabelled Brazilian is refused.
  bytes[32] = 26;
  const Expected<LearnedWeights> relabelled = parse_learned_weights(bytes, "w.dnn");
  REQUIRE_FALSE(relabelled.has_value());
  CHECK_THAT(relabelled.error(), Catch::Contains("checksum"));
  bytes[32] = 20;
  const Expected<LearnedWeights> unknown = parse_learned_weights(bytes, "w.dnn");
  REQUIRE_FALSE(unknown.has_value());
  CHECK_THAT(unknown.error(), Catch::Contains("unknown game (PDN GameType 20)"));
  // Version 1 files (generations 1 to 3) name no game: they are Brazilian.
  const Expected<LearnedWeights> gen2 =
      load_learned_weights(std::string(DAMAS_SOURCE_DIR) + "/trainer/weights/gen2.dnn");
  REQUIRE(gen2.has_value());
  CHECK(gen2->variant == Variant::Brazilian);
}

TEST_CASE("eval-file: a network of another game than the engine's is refused", "[learned][engine][russian]") {
  const std::string path = "test_learned_russian.dnn";
  LearnedWeights russian = synthetic_weights();
  russian.variant = Variant::Russian;
  write_bytes(path, learned_weights_to_bytes(russian));
  Engine engine;
  const Status brazilian_game = engine.set_option("eval-file", path);
  REQUIRE_FALSE(brazilian_game);
  CHECK_THAT(brazilian_game.error(),
             Catch::Contains("holds a network for russian draughts, and the game is brazilian"));
  CHECK(engine.options().get("eval-file").empty());
  REQUIRE(engine.set_option("variant", "russian"));
  REQUIRE(engine.set_option("eval-file", path));
  // Back to Brazilian with a Russian network loaded: refused until eval-file is cleared.
  const Status back = engine.set_option("variant", "brazilian");
  REQUIRE_FALSE(back);
  CHECK_THAT(back.error(),
             Catch::Contains("holds a network for russian draughts, and the game is brazilian"));
  CHECK(engine.options().get("variant") == "russian");
  REQUIRE(engine.set_option("eval-file", ""));
  CHECK(engine.set_option("variant", "brazilian"));
  // A command line's option set is checked as a whole.
  Options options;
  REQUIRE(options.set("eval-file", path));
  const Status whole = check_option_files(options);
  REQUIRE_FALSE(whole);
  CHECK_THAT(whole.error(), Catch::Contains("the game is brazilian"));
  REQUIRE(options.set("variant", "russian"));
  CHECK(check_option_files(options));
  std::remove(path.c_str());
}

// Generations 1 and 2 have 64 first-layer units; the engine runs 128, the other 64 all zero.
TEST_CASE("a 64-unit weights file is read as 128 units with its scores unchanged", "[learned]") {
  const std::string dir = std::string(DAMAS_SOURCE_DIR) + "/trainer/weights/";
  const Expected<std::vector<unsigned char>> narrow =
      read_checked_bytes(dir + "gen1.dnn", "gen1", file_limit::kWeights);
  REQUIRE(narrow.has_value());
  REQUIRE(get_le(&(*narrow)[16], 4) == kLearnedHidden1 / 2);
  const Expected<LearnedWeights> w = parse_learned_weights(*narrow);
  REQUIRE(w.has_value());
  for (std::size_t i = kLearnedHidden1 / 2; i < kLearnedHidden1; ++i) {
    CHECK(w->b1[i] == 0);
    for (std::size_t f = 0; f < kLearnedInputs; ++f) CHECK(w->w1[f * kLearnedHidden1 + i] == 0);
  }
  // Written again it is a 128-unit file with the same scores.
  const std::vector<unsigned char> wide = learned_weights_to_bytes(*w);
  CHECK(get_le(&wide[16], 4) == kLearnedHidden1);
  const Expected<LearnedWeights> back = parse_learned_weights(wide);
  REQUIRE(back.has_value());
  for (const Position& p : test::random_quiet_positions(5, 20))
    CHECK(evaluate_learned(p, *back) == evaluate_learned(p, *w));
  // A 64-unit header on a 128-unit payload is refused by its size.
  std::vector<unsigned char> mislabelled = wide;
  mislabelled[16] = kLearnedHidden1 / 2;
  const Expected<LearnedWeights> refused = parse_learned_weights(mislabelled, "w.dnn");
  REQUIRE_FALSE(refused.has_value());
  CHECK_THAT(refused.error(), Catch::Contains("size"));
}

TEST_CASE("eval-file loads learned weights and keeps the old ones on a bad file", "[learned][engine]") {
  const std::string path = "test_learned_weights.dnn";
  write_bytes(path, learned_weights_to_bytes(synthetic_weights()));
  std::vector<unsigned char> bad = learned_weights_to_bytes(synthetic_weights());
  bad.resize(bad.size() / 2);
  const std::string bad_path = "test_learned_weights_bad.dnn";
  write_bytes(bad_path, bad);

  Engine engine;
  REQUIRE(engine.set_option("eval", "learned"));
  SearchLimits limits;
  limits.depth = 6;
  const SearchResult builtin = engine.search(limits, GoMode::Analyze);
  REQUIRE(engine.set_option("eval-file", path));
  engine.new_game();
  const SearchResult synthetic = engine.search(limits, GoMode::Analyze);
  CHECK(synthetic.nodes != builtin.nodes);  // the loaded network is the one searched with

  const Status refused = engine.set_option("eval-file", bad_path);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error(), Catch::Contains("truncated"));
  CHECK_FALSE(engine.set_option("eval-file", "no-such-file.dnn"));
  engine.new_game();
  CHECK(engine.search(limits, GoMode::Analyze).nodes == synthetic.nodes);  // still the loaded weights
  CHECK_FALSE(engine.set_option("eval", "neural"));
  std::remove(path.c_str());
  std::remove(bad_path.c_str());
}

TEST_CASE("eval option chooses between classic and learned evaluation", "[learned][engine]") {
  SearchLimits limits;
  limits.depth = 7;
  Engine classic;
  Engine learned;
  REQUIRE(classic.set_option("eval", "classic"));
  REQUIRE(learned.set_option("eval", "learned"));
  const SearchResult a = classic.search(limits, GoMode::Analyze);
  const SearchResult b = learned.search(limits, GoMode::Analyze);
  CHECK(a.nodes != b.nodes);
  REQUIRE(learned.set_option("eval", "classic"));
  learned.new_game();
  CHECK(learned.search(limits, GoMode::Analyze).nodes == a.nodes);
}

// What a random game went through, so the test can require that it covered the kinds of move.
struct MoveKinds {
  int captures = 0;
  int multi_captures = 0;
  std::array<int, 2> crownings{};  // by White, by Black
};

void note_kinds(const Position& before, const Move& m, const Position& after, MoveKinds& kinds) {
  if (m.is_capture()) ++kinds.captures;
  if (m.capture_count() >= 2) ++kinds.multi_captures;
  const Color mover = before.side_to_move();
  if (popcount(after.kings(mover)) > popcount(before.kings(mover))) ++kinds.crownings[index(mover)];
}

TEST_CASE("incremental learned accumulator equals a full recomputation along random games", "[learned]") {
  const LearnedWeights synthetic = synthetic_weights();
  MoveKinds kinds;
  std::mt19937 rng(2024);
  for (const LearnedWeights* w : {&builtin_learned_weights(), &synthetic}) {
    for (int game = 0; game < 60; ++game) {
      Position p = Position::start();
      std::array<LearnedAccumulator, 2> incremental;  // White's view, Black's view
      incremental[0].refresh(p, Color::White, *w);
      incremental[1].refresh(p, Color::Black, *w);
      for (int ply = 0; ply < 200; ++ply) {
        MoveList moves;
        generate_legal_moves(p, moves);
        if (moves.empty()) break;
        const Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
        const Position child = p.after(m);
        note_kinds(p, m, child, kinds);
        INFO("game " << game << " ply " << ply << " " << to_fen(child));
        for (const Color view : {Color::White, Color::Black}) {
          LearnedAccumulator& acc = incremental[index(view)];
          acc.update(acc, child, *w);
          LearnedAccumulator full;
          full.refresh(child, view, *w);
          REQUIRE(acc.is_for(child, view));
          REQUIRE(acc.sums() == full.sums());
        }
        REQUIRE(incremental[index(child.side_to_move())].evaluate(*w) == evaluate_learned(child, *w));
        p = child;
      }
      // An update also holds between unrelated positions (many squares differ).
      for (const Color view : {Color::White, Color::Black}) {
        LearnedAccumulator jump;
        jump.update(incremental[index(view)], Position::start(), *w);
        LearnedAccumulator start;
        start.refresh(Position::start(), view, *w);
        REQUIRE(jump.sums() == start.sums());
      }
    }
  }
  CHECK(kinds.captures > 1000);
  CHECK(kinds.multi_captures > 100);
  CHECK(kinds.crownings[0] > 50);
  CHECK(kinds.crownings[1] > 50);
}

// Random walks down a tree like a search's: evaluations at some nodes, siblings and back-ups.
void check_stack_below(const Position& p, std::size_t ply, int depth, LearnedEvalStack& stack,
                       const LearnedWeights& w, std::mt19937& rng, int& evaluations) {
  if (depth == 0 || std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
    INFO("ply " << ply << " " << to_fen(p));
    REQUIRE(stack.evaluate(ply, p) == evaluate_learned(p, w));
    REQUIRE(stack.accumulator(ply).is_for(p, p.side_to_move()));
    ++evaluations;
    if (depth == 0) return;
  }
  MoveList moves;
  generate_legal_moves(p, moves);
  const std::size_t n = std::min<std::size_t>(moves.size(), 3);
  for (std::size_t i = 0; i < n; ++i) {
    const Position child =
        p.after(moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)]);
    check_stack_below(child, ply + 1, depth - 1, stack, w, rng, evaluations);
  }
}

TEST_CASE("learned evaluation stack along search paths equals the full evaluation", "[learned]") {
  const LearnedWeights& w = builtin_learned_weights();
  LearnedEvalStack stack(w, 16);
  std::mt19937 rng(7);
  int evaluations = 0;
  for (const Position& root : test::random_quiet_positions(11, 4)) {
    if (std::uniform_int_distribution<int>(0, 9)(rng) != 0) continue;  // a spread of roots
    check_stack_below(root, 0, 7, stack, w, rng, evaluations);
  }
  CHECK(evaluations > 10000);
}

// A measurement, not a test of behaviour (hidden): nanoseconds per evaluation of both evaluations.
TEST_CASE("learned and classic evaluation speed", "[.][learned-speed]") {
  const std::vector<Position> positions = test::random_quiet_positions(1, 200);
  const EvalWeights classic;
  const LearnedWeights& learned = builtin_learned_weights();
  auto time_of = [&](auto&& eval) {
    long sum = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < 50; ++r)
      for (const Position& p : positions) sum += eval(p);
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    CHECK(sum != 0);
    return ns / (50.0 * static_cast<double>(positions.size()));
  };
  const double c = time_of([&](const Position& p) { return evaluate(p, classic); });
  const double l = time_of([&](const Position& p) { return evaluate_learned(p, learned); });
  // Incremental: each position updated from the last one with the same side to move (the
  // positions follow their games, so usually two plies back, like a search's cousins).
  LearnedEvalStack stack(learned, 2);
  const double inc = time_of([&](const Position& p) { return stack.evaluate(index(p.side_to_move()), p); });
  std::printf("%zu positions: classic %.1f ns/eval, learned %.1f ns/eval from scratch, %.1f incremental\n",
              positions.size(), c, l, inc);
}
