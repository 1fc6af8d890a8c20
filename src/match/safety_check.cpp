#include "damas/match/safety_check.h"

namespace damas {

namespace {

// The engine's earlier searches of the position's game, as it made them (the table kept).
std::uint64_t replay_game(Engine& engine, const SafetyPosition& p, const SearchLimits& limits) {
  std::uint64_t nodes = 0;
  const Color side = p.position.side_to_move();
  Position at = p.game_start;
  for (std::size_t k = 0; k < p.game.size(); ++k) {
    if (at.side_to_move() == side &&
        engine.set_position(p.game_start, std::vector<Move>(p.game.begin(), p.game.begin() + k)))
      nodes += engine.search(limits, GoMode::Think).nodes;
    at = at.after(p.game[k]);
  }
  return nodes;
}

}  // namespace

SafetyAttempt check_safety_position(Engine& engine, const SafetyPosition& p, std::uint64_t nodes,
                                    SafetyContext context) {
  SafetyAttempt a;
  SearchLimits limits;
  limits.nodes = nodes;
  engine.new_game();
  std::uint64_t before = 0;
  if (context == SafetyContext::Game) {
    before = replay_game(engine, p, limits);
    if (!engine.set_position(p.game_start, p.game)) return a;
  } else if (!engine.set_position(p.position)) {
    return a;
  }
  a.result = engine.search(limits, GoMode::Think);
  a.result.nodes += before;
  a.handled = !p.is_refuted(a.result.best);
  return a;
}

SafetyCheck check_safety_set(Engine& engine, const SafetySet& set, std::uint64_t nodes,
                             SafetyContext context) {
  SafetyCheck check;
  for (const SafetyPosition& p : set.positions) {
    SafetyAttempt a = check_safety_position(engine, p, nodes, context);
    check.handled += a.handled;
    check.nodes += a.result.nodes;
    check.attempts.push_back(std::move(a));
  }
  return check;
}

}  // namespace damas
