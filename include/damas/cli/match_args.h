// The command line of `damas match` (cutechess-cli / fastchess style), turned into a match spec.
// Kept apart from tool_match.cpp so that tests check every bad argument.
#pragma once

#include <vector>

#include "damas/cli/cli.h"
#include "damas/core/expected.h"
#include "damas/match/hub_match.h"

namespace damas::cli {

// Groups as parse_grouped_command_line returns them (option name without dashes, its words).
// Openings files are read here. Every bad word is an error naming the option and the word.
Expected<HubMatchSpec> match_spec_from_groups(const std::vector<OptionGroup>& groups);

}  // namespace damas::cli
