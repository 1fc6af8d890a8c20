#include "damas/match/safety_check.h"

namespace damas {

SafetyAttempt check_safety_position(Engine& engine, const SafetyPosition& p, std::uint64_t nodes) {
  SafetyAttempt a;
  engine.new_game();
  if (!engine.set_position(p.position)) return a;
  SearchLimits limits;
  limits.nodes = nodes;
  a.result = engine.search(limits, GoMode::Think);
  a.handled = !p.is_refuted(a.result.best);
  return a;
}

SafetyCheck check_safety_set(Engine& engine, const SafetySet& set, std::uint64_t nodes) {
  SafetyCheck check;
  for (const SafetyPosition& p : set.positions) {
    SafetyAttempt a = check_safety_position(engine, p, nodes);
    check.handled += a.handled;
    check.nodes += a.result.nodes;
    check.attempts.push_back(std::move(a));
  }
  return check;
}

}  // namespace damas
