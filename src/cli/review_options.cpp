#include "damas/cli/review_options.h"

namespace po = boost::program_options;

namespace damas::cli {

Expected<SearchLimits> read_search_limits(const po::variables_map& vm, int default_depth) {
  SearchLimits limits;
  if (vm.count("depth")) {
    const int depth = vm["depth"].as<int>();
    if (depth < 1 || depth > 100) return Error{"depth must be between 1 and 100"};
    limits.depth = depth;
  }
  if (vm.count("time")) {
    const double t = vm["time"].as<double>();
    if (!(t > 0)) return Error{"time must be positive"};
    limits.move_time = t;
  }
  if (vm.count("nodes")) limits.nodes = vm["nodes"].as<std::uint64_t>();
  if (!limits.depth && !limits.move_time && !limits.nodes) {
    if (default_depth) limits.depth = default_depth;
    else limits.move_time = 5.0;
  }
  return limits;
}

void add_margin_options(po::options_description& desc) {
  desc.add_options()("inaccuracy-margin", po::value<double>()->default_value(0.25),
                     "a move losing this much (in men) against the best one is an inaccuracy, marked ?!")(
      "margin", po::value<double>()->default_value(0.5), "... a mistake, marked ?")(
      "blunder-margin", po::value<double>()->default_value(1.5), "... a blunder, marked ??");
}

Expected<review::ReviewConfig> read_review_config(const po::variables_map& vm, const Engine& engine) {
  review::ReviewConfig config;
  const Expected<SearchLimits> limits = read_search_limits(vm, 10);
  if (!limits) return Error{limits.error()};
  config.limits = *limits;
  const auto hundredths = [&](const char* name) { return static_cast<Score>(vm[name].as<double>() * 100.0); };
  config.inaccuracy_margin = hundredths("inaccuracy-margin");
  config.margin = hundredths("margin");
  config.blunder_margin = hundredths("blunder-margin");
  if (Status s = review::check_margins(config); !s) return Error{s.error()};
  config.default_rules =
      parse_draw_rules(engine.options().get(option::kDrawRules), engine.options().variant())
          .value_or(DrawRules::Seed);
  if (vm.count("algebraic") && vm["algebraic"].as<bool>()) config.squares = PdnSquares::Algebraic;
  return config;
}

}  // namespace damas::cli
