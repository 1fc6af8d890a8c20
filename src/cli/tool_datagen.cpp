// `damas datagen`: self-play training data for the learned evaluation (match/datagen.h), written
// as a training-data file (core/training_data.h).
#include <boost/program_options.hpp>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/core/platform.h"
#include "damas/match/datagen.h"
#include "damas/match/openings.h"

namespace po = boost::program_options;

namespace damas::cli {

namespace {

// The Brazilian table of ballots for Brazilian (736 ballots, more than its match openings: the
// training data of the learned evaluation came from them); another game's match openings
// (default_openings_file: the FMJD 64 ballots for Russian, openings-<game>.txt).
std::string default_ballots_path(Variant variant) {
  return data_file(variant == Variant::Brazilian ? "ballots-brazilian.txt" : default_openings_file(variant));
}

// "K/N" with 0 <= K < N.
bool parse_shard(const std::string& text, int& k, int& n) {
  const char* end = text.data() + text.size();
  const auto [slash, ec1] = std::from_chars(text.data(), end, k);
  if (ec1 != std::errc{} || slash == end || *slash != '/') return false;
  const auto [rest, ec2] = std::from_chars(slash + 1, end, n);
  return ec2 == std::errc{} && rest == end && n >= 1 && k >= 0 && k < n;
}

class Progress {
 public:
  Progress(int total, bool terminal) : total_(total), line_(stderr, terminal) {}
  void update(int games, std::uint64_t positions) {
    const double s = seconds();
    const double rate = s > 0 ? static_cast<double>(positions) / s : 0;
    char counts[96];
    std::snprintf(counts, sizeof counts, "games %d/%d  positions %llu  %.0f pos/s", games, total_,
                  static_cast<unsigned long long>(positions), rate);
    if (line_.terminal()) {
      line_.draw(bar_text(static_cast<std::uint64_t>(games), static_cast<std::uint64_t>(total_)) + " " +
                 counts);
    } else if (total_ < 20 || games % (total_ / 20) == 0) {  // a log file gets 20 lines
      std::fprintf(stderr, "%s  %.0f s\n", counts, s);
    }
  }
  void done() { line_.finish(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  int total_;
  ProgressLine line_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

int datagen_main(const Args& args) {
  po::options_description desc(
      "damas datagen --output FILE [--variant V] [--games N] [--nodes N] [--threads T] [--seed S] [--shard "
      "K/N] "
      "[--engine OPTIONS]");
  desc.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                 "training-data file to write")(
      "games", po::value<int>()->default_value(100), "games to play (of this shard)")(
      "nodes", po::value<std::uint64_t>()->default_value(5000), "node budget per move")(
      "threads", po::value<int>()->default_value(1), "games played at once (one search thread each)")(
      "seed", po::value<std::uint64_t>()->default_value(1), "random seed: the same seed gives the same file")(
      "shard", po::value<std::string>()->default_value("0/1"), "K/N: this is shard K of N disjoint shards")(
      "ballots", po::value<std::string>(),
      "openings file (ballots); half the games start from them, half from random plies (default: "
      "bench/ballots-brazilian.txt; another game's match openings: fmjd64-150-ballots.txt for Russian, "
      "openings-<game>.txt)")("random-plies", po::value<int>()->default_value(8),
                              "random plies from the start for a random opening")(
      "max-plies", po::value<int>()->default_value(400), "a longer game is a draw")(
      "ballot-repeat-plies", po::value<int>()->default_value(4),
      "a ballot's second and later games start with 1 to this many random plies")(
      "quiet-descendants", po::value<bool>()->default_value(true),
      "record a position with a capture pending as the first quiet position of its principal variation")(
      "engine", po::value<std::string>()->default_value(""),
      "engine options, name=value (e.g. \"eval=learned eval-file=x.nnue hash=8\")");
  add_variant_option(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("datagen", args, desc, vm)) return *exit_code;
  auto fail = [](const std::string& message) {
    std::cerr << "damas datagen: " << message << "\n";
    return 2;
  };
  if (!vm.count("output")) return fail("give an --output file");

  DatagenConfig config;
  const Expected<Variant> variant = variant_option(vm);
  if (!variant) return fail(variant.error());
  config.variant = *variant;
  Expected<OptionList> options = parse_option_list("hash=8 " + vm["engine"].as<std::string>());
  if (!options) return fail("--engine: " + options.error());
  config.options = std::move(options).value();
  const std::string ballots_path =
      vm.count("ballots") ? vm["ballots"].as<std::string>() : default_ballots_path(config.variant);
  Expected<std::vector<Opening>> ballots = load_openings(ballots_path, OpeningFormat::Auto, config.variant);
  if (!ballots) return fail(ballots.error());
  config.ballots = std::move(ballots).value();
  config.games = vm["games"].as<int>();
  config.nodes = vm["nodes"].as<std::uint64_t>();
  config.threads = vm["threads"].as<int>();
  config.seed = vm["seed"].as<std::uint64_t>();
  config.random_plies = vm["random-plies"].as<int>();
  config.max_plies = vm["max-plies"].as<int>();
  config.ballot_repeat_random_plies = vm["ballot-repeat-plies"].as<int>();
  config.quiet_descendants = vm["quiet-descendants"].as<bool>();
  if (!parse_shard(vm["shard"].as<std::string>(), config.shard, config.shards))
    return fail("--shard takes K/N with 0 <= K < N, not \"" + vm["shard"].as<std::string>() + "\"");
  if (config.threads > 64) return fail("--threads must be at most 64");
  if (Status s = validate(config); !s) return fail(s.error());

  const std::string path = vm["output"].as<std::string>();
  Expected<TrainingDataWriter> created = TrainingDataWriter::create(path, config.variant);
  if (!created) return fail(created.error());
  TrainingDataWriter writer = std::move(created).value();
  Progress progress(config.games, platform::is_terminal(stderr));
  int games = 0;
  int results[3] = {0, 0, 0};
  const Status run = run_datagen(config, [&](const DatagenGame& g) -> Status {
    for (const TrainingRecord& r : g.records)
      if (Status s = writer.write(r); !s) return s;
    ++games;
    ++results[g.result == GameResult::WhiteWins ? 0 : g.result == GameResult::Draw ? 1 : 2];
    progress.update(games, writer.count());
    return Ok{};
  });
  progress.done();
  if (!run) return fail(run.error());
  if (Status s = writer.finish(); !s) return fail(s.error());
  const double seconds = progress.seconds();
  std::printf(
      "games %d (white %d, draws %d, black %d)\npositions %llu\ntime %.1f s\npositions per hour %.0f\n",
      games, results[0], results[1], results[2], static_cast<unsigned long long>(writer.count()), seconds,
      seconds > 0 ? static_cast<double>(writer.count()) / seconds * 3600 : 0.0);
  return 0;
}

}  // namespace damas::cli
