#include "search_lease.h"

#include <mutex>

namespace damas::web {
namespace {

Snapshot snapshot_of(const Session& s) {
  const Game g = game_at_cursor(s);
  return Snapshot{g.start(),
                  g.start_plies(),
                  g.moves(),
                  s.level,
                  s.line.draw_rules(),
                  s.movetime,
                  s.version,
                  g.over(),
                  s.mode == Mode::Computer,
                  s.mode == Mode::Computer && g.current().side_to_move() != s.human};
}

ApiError refusal_error(const QueueTicket& ticket) {
  return {ticket.refusal == QueueRefusal::SessionBusy ? ErrorKind::SessionBusy : ErrorKind::Busy,
          ticket.message};
}

}  // namespace

Position Snapshot::root() const {
  Position p = start;
  for (const Move& m : moves) p = p.after(m);
  return p;
}

Result<Lease> lease_search(ApiState& state, const std::string& id, const LeaseCheck& check,
                           std::string_view closed) {
  state.stop_analysis_of(id);
  {
    std::lock_guard lock(state.mutex);
    if (std::optional<ApiError> refused = check(state.sessions.get(id))) return *refused;
  }
  QueueTicket ticket = state.queue.acquire(id);
  if (!ticket.lease) return refusal_error(ticket);
  Engine& engine = *state.engines[ticket.lease->slot()];
  engine.wait();  // the slot's last search may still be in its done callback
  std::lock_guard lock(state.mutex);
  Session* session = state.sessions.get(id);
  if (std::optional<ApiError> refused = check(session)) return *refused;
  if (!session) return ApiError{ErrorKind::NotFound, std::string(closed)};
  return Lease{std::move(*ticket.lease), &engine, snapshot_of(*session)};
}

Status start_search(Engine& engine, const SearchSettings& settings, const SearchTask& task) {
  if (task.review) {
    task.review->step(engine);  // the review passes its own settings with its search
    return Ok{};
  }
  const std::optional<LevelParams> level = level_params(settings.level);
  if (!level) return Error{"unknown level \"" + settings.level + "\""};
  if (Status s = engine.set_position(task.start, task.moves, task.start_plies); !s) return s;
  engine.go(GoParams{task.limits, task.mode, settings.multipv, *level, settings.rules, {}}, task.on_info,
            task.on_done);
  return Ok{};
}

Result<SearchResult> run_search(Engine& engine, const SearchSettings& settings, SearchTask task) {
  SearchResult result;
  task.on_done = [&result](const SearchResult& r) { result = r; };
  if (!start_search(engine, settings, task))
    return ApiError{ErrorKind::Internal, "the engine refused the position"};
  engine.wait();
  return result;
}

}  // namespace damas::web
