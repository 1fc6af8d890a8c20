// The schedule of a Hub match or round robin: its games (round, colours, opening) in jobs, each
// played in order on one slot; and the check of a match's spec before anything runs.
#pragma once

#include <optional>
#include <vector>

#include "damas/core/expected.h"
#include "damas/match/hub_match.h"

namespace damas {

struct ScheduledGame {
  int number = 0;
  int round = 0;
  int white = 0;
  int black = 1;
  int opening = -1;
  bool closes_pair = false;  // the second game of a colour-reversed pair (two-engine matches)
  // -resume: the points (engine 0) of the other game of the pair, read from the PDN file.
  std::optional<double> partner_points;

  HubGame as_hub_game() const;  // its number, round, colours and opening; not played yet
};

using Job = std::vector<ScheduledGame>;  // played in order on one slot

// Every pairing in every round, `spec.games` games each, colours alternating; the openings in
// their order (random from the seed, or as read) from `opening_start`, shared by the games of a
// round with `repeat`.
std::vector<Job> schedule_match(const HubMatchSpec& spec);

// A spec the runner can play, or why not.
Status check_match_spec(const HubMatchSpec& spec);

}  // namespace damas
