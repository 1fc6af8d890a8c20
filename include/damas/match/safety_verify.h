// A safety position verified: a deep search refutes the played move, a pruning-free one confirms.
//
// A move m played in position P is refuted when, with every search on a cleared engine and one thread:
//   1. a deep search of P (the deep budget, the engine's own settings) prefers another move b;
//   2. searched after m (the deep budget), m scores at least a man below that search's score of P
//      (loses_a_man: a won score against a won one does not count);
//   3. searched after m and after b without pruning (probcut=false lmr=false, the deep budget), m
//      again scores at least a man below b;
//   4. every root move searched after it (the deep budget): the best of them is the entry's best
//      move, those at least a man below it are the refuted moves, and m must be among them.
// The steps are in order of cost and stop at the first that fails, so most candidates cost one search.
#pragma once

#include <cstdint>
#include <string>

#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/engine/engine.h"
#include "damas/match/safety_set.h"
#include "damas/match/selfplay.h"

namespace damas {

struct Verdict {
  bool refuted = false;
  int step = 0;          // the step that rejected the move (1-4), 0 when refuted
  std::string why;       // for people: what the step found
  SafetyPosition entry;  // when refuted (source empty: the caller says where it came from)
  int searches = 0;
  std::uint64_t nodes = 0;
};

// Two engines (deep and pruning-free) with the options of the engine whose moves are verified.
class SafetyVerifier {
 public:
  explicit SafetyVerifier(std::uint64_t deep_nodes) : deep_nodes_(deep_nodes) {}
  // The options of the engine under test (threads is set to 1 after them); the pruning-free engine
  // gets probcut=false lmr=false after them. An option an engine refuses is the error.
  Status configure(const OptionList& options);
  std::uint64_t deep_nodes() const { return deep_nodes_; }
  // `played` must be legal in p.
  Verdict verify(const Position& p, const Move& played);

 private:
  struct Child {
    Score score = 0;         // the side to move's view at p
    std::vector<Move> line;  // from p: the move, then the search's principal variation after it
  };
  Child search_after(Engine& engine, const Position& p, const Move& m, Verdict& v);

  std::uint64_t deep_nodes_;
  Engine deep_;
  Engine pruning_free_;
};

}  // namespace damas
