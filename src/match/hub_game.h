// One refereed game of a Hub match: each engine asked for its moves on its own clock, every move
// checked by Game (the one referee), adjudication by score or move count, a failure scored as the
// loss of the engine that failed, and the game's PDN (Game::to_pdn).
#pragma once

#include <array>

#include "damas/match/hub_engine.h"
#include "damas/match/hub_match.h"
#include "match_schedule.h"

namespace damas {

struct PlayedGame {
  HubGame game;
  std::array<EngineTotals, 2> totals;  // white's and black's moves (no games counted)
  long long moves_asked = 0;
};

// Plays game `g` of the schedule between two started engines, from its opening to its end.
PlayedGame play_hub_game(const HubMatchSpec& spec, const ScheduledGame& g, HubEngine& white,
                         HubEngine& black);

}  // namespace damas
