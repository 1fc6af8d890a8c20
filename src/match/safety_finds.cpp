#include "damas/match/safety_finds.h"

#include "damas/core/notation.h"

namespace damas {

SafetyFinds::SafetyFinds(const std::vector<SafetyPosition>& start) : start_(start) {
  for (const SafetyPosition& p : start) start_fens_.insert(to_fen(p.position));
}

void SafetyFinds::record(SafetyPosition entry, const CandidatePlace& place) {
  entry.game_start = place.game_start;
  entry.game = place.game;
  entry.source = place.source;
  found_.emplace(place.order, std::move(entry));
}

FindOutcome SafetyFinds::verify(SafetyVerifier& verifier, const Position& position, const Move& played,
                                const CandidatePlace& place) {
  const std::string fen = to_fen(position);
  const std::pair<std::string, std::string> key{fen, to_hub_move(played)};
  {
    const std::lock_guard lock(mutex_);
    if (start_fens_.count(fen)) return FindOutcome{true, false, 0, "in the set already"};
    if (const auto it = verified_.find(key); it != verified_.end()) {
      if (it->second) record(*it->second, place);
      return FindOutcome{true, it->second.has_value(), 0, "verified already"};
    }
  }
  Verdict v = verifier.verify(position, played);
  FindOutcome out{false, v.refuted, v.searches,
                  (v.refuted ? "" : "step " + std::to_string(v.step) + ", ") + v.why};
  std::optional<SafetyPosition> entry;
  if (v.refuted) entry = std::move(v.entry);
  const std::lock_guard lock(mutex_);
  verified_.emplace(key, entry);
  if (entry) record(std::move(*entry), place);
  return out;
}

std::vector<SafetyPosition> SafetyFinds::positions() const {
  const std::lock_guard lock(mutex_);
  std::vector<SafetyPosition> out = start_;
  std::set<std::string> fens = start_fens_;
  for (const auto& [place, entry] : found_)
    if (fens.insert(to_fen(entry.position)).second) out.push_back(entry);
  return out;
}

}  // namespace damas
