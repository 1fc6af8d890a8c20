// The finds of a mining run (mine_safety, sift_games): the set it started with, the (position, move)
// pairs it has verified and the positions it found, by their place in the run. Thread-safe, so the
// games of a run can be verified at once and the set still comes out in one order.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "damas/match/safety_set.h"
#include "damas/match/safety_verify.h"

namespace damas {

// Where a candidate was met: its place in the run (game, ply) orders the finds; the game reaches it.
struct CandidatePlace {
  std::pair<int, int> order;
  Position game_start;
  std::vector<Move> game;
  std::string source;  // the entry's source when it is refuted
};

struct FindOutcome {
  bool known = false;    // in the starting set, or verified already in this run
  bool refuted = false;  // a new position (or, when known, one refuted before)
  int searches = 0;
  std::string note;  // what was found, for people
};

class SafetyFinds {
 public:
  explicit SafetyFinds(const std::vector<SafetyPosition>& start);
  // Verifies `played` at `position` unless the set holds the position or the run verified the pair;
  // a refuted one is recorded at its place (again at each place it is met).
  FindOutcome verify(SafetyVerifier& verifier, const Position& position, const Move& played,
                     const CandidatePlace& place);
  // The starting positions, then the finds in order of place, each position once.
  std::vector<SafetyPosition> positions() const;

 private:
  void record(SafetyPosition entry, const CandidatePlace& place);

  mutable std::mutex mutex_;
  std::vector<SafetyPosition> start_;
  std::set<std::string> start_fens_;
  std::map<std::pair<std::string, std::string>, std::optional<SafetyPosition>> verified_;  // (FEN, move)
  std::map<std::pair<int, int>, SafetyPosition> found_;
};

}  // namespace damas
