// The game a match plays (core/types.h, rules::Table): the referee's, told to every engine. An
// engine set to another game would search that game's moves and lose them to the referee as
// illegal, so option lists and openings of another game are refused before a move is played.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/types.h"
#include "damas/match/openings.h"

namespace damas {

// An error when `options` (name, value pairs as set-param takes them) set `variant` to another
// game than `game`.
Status check_variant_option(const std::vector<std::pair<std::string, std::string>>& options, Variant game);

// An error naming the first opening whose start is not a position of `game`.
Status check_openings_variant(const std::vector<Opening>& openings, Variant game);

}  // namespace damas
