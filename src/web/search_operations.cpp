// The operations that search a session's position: hint, engine-move, and the analysis.
#include <mutex>

#include "damas/core/score_text.h"
#include "operations.h"
#include "request_fields.h"
#include "search_lease.h"
#include "views.h"

namespace damas::web {
namespace {

ApiError conflict(std::string message) { return {ErrorKind::Conflict, std::move(message)}; }

// Refuses a search of a finished game (a closed session is for the lease to say).
LeaseCheck unless_over(std::string message) {
  return [message = std::move(message)](Session* s) -> std::optional<ApiError> {
    if (s && game_at_cursor(*s).over()) return conflict(message);
    return std::nullopt;
  };
}

// A blocking search of the leased snapshot with these settings and limits.
Result<SearchResult> search_leased(const Lease& lease, const SearchSettings& settings,
                                   const SearchLimits& limits) {
  SearchTask task;
  task.start = lease.snap.start;
  task.start_plies = lease.snap.start_plies;
  task.moves = lease.snap.moves;
  task.limits = limits;
  const Result<SearchResult> r = run_search(*lease.engine, settings, task);
  if (r && r->best.is_null()) return ApiError{ErrorKind::Internal, "the engine found no move"};
  return r;
}

}  // namespace

Answer op_hint(ApiState& state, const Json& body) {
  const Result<std::string> id = state.lookup(body);
  if (!id) return id.error();
  const Result<Lease> lease = lease_search(state, *id, unless_over("the game is over"));
  if (!lease) return lease.error();
  SearchLimits limits;
  limits.move_time = state.config.hint_seconds;
  const Result<SearchResult> r = search_leased(*lease, {"full", 1, lease->snap.rules}, limits);
  if (!r) return r.error();
  const Position root = lease->snap.root();
  Json j = Json::object();
  j.set("session", json_str(*id));
  j.set("hint", move_json(root, r->best));
  j.set("score", json_num(r->score));
  j.set("score_text", json_str(score_text(r->score)));
  j.set("pv", pv_json(root, r->pv));
  return j;
}

Answer op_engine_move(ApiState& state, const Json& body) {
  const Result<std::string> id = state.lookup(body);
  if (!id) return id.error();
  const LeaseCheck computer_turn = [](Session* s) -> std::optional<ApiError> {
    if (!s) return std::nullopt;
    if (s->mode != Mode::Computer) return conflict("not a game against the computer");
    if (game_at_cursor(*s).over()) return conflict("the game is over");
    if (!computer_to_move(*s)) return conflict("it is not the computer's turn");
    return std::nullopt;
  };
  const Result<Lease> lease = lease_search(state, *id, computer_turn);
  if (!lease) return lease.error();
  SearchLimits limits;
  limits.move_time = lease->snap.movetime;
  const Result<SearchResult> r = search_leased(*lease, {lease->snap.level, 1, lease->snap.rules}, limits);
  if (!r) return r.error();
  std::lock_guard lock(state.mutex);
  Session* s = state.sessions.get(*id);
  if (!s) return ApiError{ErrorKind::NotFound, "the session was closed during the search"};
  if (s->version != lease->snap.version) return conflict("the game changed during the search");
  if (Status st = play(*s, r->best, state.config.max_plies); !st) return conflict(st.error());
  return state_json(*id, *s);
}

// The analysis holds its slot until stopped: by analysis-stop, a change of the game, its
// WebSocket closing, the session expiring, or a request waiting for a slot.
Answer op_analysis_start(ApiState& state, const Json& body) {
  const Result<int> multipv = whole_field(body, "multipv", 3, 1, 8);
  if (!multipv) return multipv.error();
  const Result<std::string> found = state.lookup(body);
  if (!found) return found.error();
  const std::string& id = *found;
  Result<Lease> lease = lease_search(state, id, unless_over("the game is over: nothing to analyse"));
  if (!lease) return lease.error();
  const std::size_t slot = lease->slot.slot();
  Engine& engine = *lease->engine;
  const Snapshot snap = lease->snap;
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(state.mutex);
    generation = ++state.next_generation;
    state.analyses[generation] = Analysis{id, slot, false, false};
  }
  auto held = std::make_shared<SearchLease>(std::move(lease->slot));
  held->make_preemptible([&state, generation] {
    std::lock_guard lock(state.mutex);
    state.request_stop(generation);
  });
  std::lock_guard lock(state.mutex);
  Session* s = state.sessions.get(id);
  if (!s || state.analyses.at(generation).stop_requested) {
    state.analyses.erase(generation);  // stopped before it began: the slot goes back
    held->release();
    state.queue.count_refused();
    return ApiError{ErrorKind::Busy, "the analysis gave way before it began: the engine is busy"};
  }
  SearchTask task;
  task.start = snap.start;
  task.start_plies = snap.start_plies;
  task.moves = snap.moves;
  task.limits.infinite = true;
  task.mode = GoMode::Analyze;
  task.on_info = [&state, id, generation, root = snap.root()](const SearchInfo& info) {
    state.on_info(id, generation, root, info);
  };
  task.on_done = [&state, generation, held](const SearchResult&) { state.end_analysis(generation, *held); };
  s->analysing = true;
  s->analysis_generation = generation;
  s->analysis.clear();
  if (!start_search(engine, {"full", *multipv, snap.rules}, task)) {
    s->analysing = false;
    s->analysis_generation = 0;
    state.analyses.erase(generation);
    held->release();
    return ApiError{ErrorKind::Internal, "the engine refused the position"};
  }
  Json j = Json::object();
  j.set("session", json_str(id));
  j.set("analysing", json_bool(true));
  return j;
}

Answer op_analysis(ApiState& state, const Json& body) {
  return with_session(state, body, [](const std::string& id, Session& s) -> Answer {
    Json j = Json::object();
    j.set("session", json_str(id));
    j.set("analysing", json_bool(s.analysing));
    Json lines = Json::array();
    for (const AnalysisLine& l : s.analysis) lines.push(l.json);
    j.set("lines", std::move(lines));
    return j;
  });
}

Answer op_analysis_stop(ApiState& state, const Json& body) {
  const Result<std::string> id = state.lookup(body);
  if (!id) return id.error();
  state.stop_analysis_of(*id);
  return op_analysis(state, body);
}

}  // namespace damas::web
