// The game-speed check of the safety set: how many positions a search of a node budget handles.
#pragma once

#include <cstdint>
#include <vector>

#include "damas/engine/engine.h"
#include "damas/match/safety_set.h"

namespace damas {

// The node budget of one move at game speed: at 5+0.05 (the project's match time control) damas
// spends about 115 ms a move at about 7 M nodes/s with one thread (bench/safety.md).
inline constexpr std::uint64_t kGameSpeedNodes = 800'000;

struct SafetyAttempt {
  bool handled = false;  // the move chosen is none of the refuted ones
  SearchResult result;   // its nodes count the replayed searches too
};

// How a position is searched:
enum class SafetyContext {
  Cleared,  // alone, on a cleared engine
  // in its game: the engine cleared at the game's start, then each of its earlier positions of the
  // game (the side to move's) searched as it was in the game, the table kept, then the position
  // with the game's history. For the settings that mined it this is the game's search again.
  Game,
};

// The position searched as a move of a game (GoMode::Think) within `nodes` (each search): with one
// thread the answer depends on the engine's options, the budget and the context only.
SafetyAttempt check_safety_position(Engine& engine, const SafetyPosition& p, std::uint64_t nodes,
                                    SafetyContext context = SafetyContext::Cleared);

struct SafetyCheck {
  int handled = 0;
  std::uint64_t nodes = 0;              // searched in all
  std::vector<SafetyAttempt> attempts;  // one per position of the set, in order
};

SafetyCheck check_safety_set(Engine& engine, const SafetySet& set, std::uint64_t nodes,
                             SafetyContext context = SafetyContext::Cleared);

}  // namespace damas
