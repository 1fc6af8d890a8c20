// Command-line options shared by the tools that review games (`analyze --pdn`, `puzzles`): the
// search limits per position and the margins of the marks.
#pragma once

#include <boost/program_options.hpp>

#include "damas/core/expected.h"
#include "damas/engine/engine.h"
#include "damas/review/review.h"

namespace damas::cli {

// --depth, --time, --nodes; `default_depth` (0: 5 seconds) when none is given.
Expected<SearchLimits> read_search_limits(const boost::program_options::variables_map& vm, int default_depth);

// --inaccuracy-margin, --margin, --blunder-margin (in men).
void add_margin_options(boost::program_options::options_description& desc);

// The review settings of the command line: limits (default depth 10), margins, the engine's draw
// rules for games without a tag, numeric or --algebraic squares when the tool has that switch.
Expected<review::ReviewConfig> read_review_config(const boost::program_options::variables_map& vm,
                                                  const Engine& engine);

}  // namespace damas::cli
