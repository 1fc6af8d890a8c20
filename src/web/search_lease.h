// The one way an operation of the board's API searches: stop the session's analysis, check the
// session, wait for a slot of the queue, check again (the game may have changed while waiting)
// and take a snapshot of the game; then start the search on the slot's engine in one place.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api_error.h"
#include "api_state.h"
#include "damas/engine/engine.h"
#include "damas/review/review.h"

namespace damas::web {

// The game of a session when its search got a slot.
struct Snapshot {
  Position start;
  int start_plies = 0;      // the draw count the start came with
  std::vector<Move> moves;  // to the cursor
  std::string level;
  DrawRules rules = DrawRules::Seed;
  double movetime = 1;
  std::uint64_t version = 0;
  bool over = false;
  bool computer_mode = false;
  bool computer_turn = false;
  Position root() const;  // start with the moves played
};

// Refuses a search with an error, or lets it go on. Called with the mutex held, before the wait
// for a slot and again once the slot is ours; with nullptr when the session is gone.
using LeaseCheck = std::function<std::optional<ApiError>(Session*)>;

struct Lease {
  SearchLease slot;
  Engine* engine;  // the slot's, idle
  Snapshot snap;
};

// A slot for a search of session `id`, or why not: the check's error, the queue's refusal (Busy,
// SessionBusy), or NotFound with `closed` when the session went away while waiting.
Result<Lease> lease_search(ApiState& state, const std::string& id, const LeaseCheck& check,
                           std::string_view closed = "the session was closed while waiting");

// The settings of one search. Today they are engine options set before it; the engine's
// per-search settings will carry them with the search instead (start_search alone changes).
struct SearchSettings {
  std::string level = "full";
  int multipv = 1;
  DrawRules rules = DrawRules::Seed;
};

// What is searched: a position with its limits, asynchronously as Engine::go (the result to
// on_done), or, with `review`, the review's next position before start_search returns.
struct SearchTask {
  Position start;
  int start_plies = 0;
  std::vector<Move> moves;
  SearchLimits limits;
  GoMode mode = GoMode::Think;
  InfoCallback on_info;
  DoneCallback on_done;
  review::Reviewer* review = nullptr;
};

// The one place the web starts a search on a slot's engine: settings, position, search.
Status start_search(Engine& engine, const SearchSettings& settings, const SearchTask& task);
// start_search of a position, waiting for its result.
Result<SearchResult> run_search(Engine& engine, const SearchSettings& settings, SearchTask task);

}  // namespace damas::web
