// -resume: the games an interrupted match wrote to its PDN file (match_record.h) found in the
// schedule and taken out of it, to be counted again and not played again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "damas/core/expected.h"
#include "damas/match/hub_match.h"
#include "match_schedule.h"

namespace damas {

struct ResumedGame {
  HubGame game;
  std::optional<double> pair_first_points;  // engine 0's, when the game closes a pair
};

struct ResumedMatch {
  std::vector<std::string> texts;   // each game's PDN text, in file order
  std::vector<ResumedGame> games;   // in schedule order, as they are counted
  std::optional<int> dropped_line;  // the first line of a cut-off last game, dropped
};

// Reads spec.pdn_path (a missing file: nothing was played) and takes its games out of `jobs`; the
// game left of a pair half played now closes that pair. A game the schedule does not have, or
// played at another time control, means another match's file: refused, `jobs` left as it was.
Expected<ResumedMatch> resume_match(const HubMatchSpec& spec, std::vector<Job>& jobs);

}  // namespace damas
