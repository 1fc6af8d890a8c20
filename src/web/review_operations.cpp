// The review of a session's game, one position per review-step, so other requests get the
// engines in between: review-start, review-step, review-cancel, review, review-line.
#include <mutex>

#include "damas/core/pdn.h"
#include "operations.h"
#include "request_fields.h"
#include "review_views.h"
#include "search_lease.h"

namespace damas::web {
namespace {

ApiError conflict(std::string message) { return {ErrorKind::Conflict, std::move(message)}; }

// Refuses a step when the session has no review of its game as it stands (dropping a review of a
// game that changed).
std::optional<ApiError> review_refusal(const std::string& id, Session* s) {
  if (!s) return ApiError{ErrorKind::NotFound, "unknown session \"" + id + "\""};
  if (!s->reviewer)
    return conflict("no review is running for this session (finished or cancelled): review-start");
  if (!same_game(s->reviewer->game(), s->line)) {
    s->reviewer.reset();
    return conflict("the game changed during the review: review cancelled");
  }
  return std::nullopt;
}

}  // namespace

Answer op_review_start(ApiState& state, const Json& body) {
  const Result<SearchLimits> limits = review_limits(body);
  if (!limits) return limits.error();
  return change_session(state, body, [&](const std::string& id, Session& session) -> Answer {
    if (session.line.moves().empty()) return conflict("nothing to review: the game has no moves");
    PdnGame pdn;
    pdn.tags = {{"Event", "damas board"}};
    pdn.start = session.line.start();
    pdn.moves = session.line.moves();
    pdn.result = to_string(session.line.result());
    review::ReviewConfig settings;
    settings.limits = *limits;
    settings.default_rules = session.line.draw_rules();
    session.reviewer = std::make_shared<review::Reviewer>(pdn, settings);
    session.reviewed.reset();
    return review_progress_json(id, session);
  });
}

Answer op_review_step(ApiState& state, const Json& body) {
  const Result<std::string> found = state.lookup(body);
  if (!found) return found.error();
  const std::string& id = *found;
  std::shared_ptr<review::Reviewer> reviewer;
  const LeaseCheck check = [&](Session* s) {
    std::optional<ApiError> refused = review_refusal(id, s);
    if (!refused) reviewer = s->reviewer;
    return refused;
  };
  const Result<Lease> lease = lease_search(state, id, check);
  if (!lease) return lease.error();
  {
    std::lock_guard lock(state.mutex);
    state.review_slots[id] = lease->slot.slot();  // review-cancel stops this search
  }
  SearchTask task;
  task.review = reviewer.get();
  const Status searched = start_search(*lease->engine, {"full", 1, lease->snap.rules}, task);
  std::lock_guard lock(state.mutex);
  state.review_slots.erase(id);
  if (!searched) return ApiError{ErrorKind::Internal, "the engine refused the review settings"};
  Session* s = state.sessions.get(id);
  if (!s) return ApiError{ErrorKind::NotFound, "the session was closed during the review"};
  if (s->reviewer == reviewer && reviewer->finished()) {
    s->reviewed = std::make_shared<const review::GameReview>(reviewer->result());
    s->reviewer.reset();
  }
  return review_progress_json(id, *s);
}

Answer op_review_cancel(ApiState& state, const Json& body) {
  return with_session(state, body, [&](const std::string& id, Session& s) -> Answer {
    s.reviewer.reset();
    // A step searching for this review ends now (its result is dropped): stop() never blocks.
    if (const auto it = state.review_slots.find(id); it != state.review_slots.end())
      state.engines[it->second]->stop();
    return review_progress_json(id, s);
  });
}

Answer op_review(ApiState& state, const Json& body) {
  return with_session(state, body, [](const std::string& id, Session& s) -> Answer {
    if (!s.reviewer && !(s.reviewed && same_game(s.reviewed->game, s.line)))
      return conflict("this game has not been reviewed: review-start");
    return review_progress_json(id, s);
  });
}

Answer op_review_line(ApiState& state, const Json& body) {
  return with_session(state, body, [&](const std::string& id, Session& s) -> Answer {
    const std::shared_ptr<const review::GameReview> r = s.reviewed;
    if (!r || !same_game(r->game, s.line)) return conflict("no finished review of this game: review-start");
    const Result<int> ply = whole_field(body, "ply", 0, 1, static_cast<int>(r->plies.size()));
    if (!ply) return ply.error();
    return review_line_json(id, *r, static_cast<std::size_t>(*ply));
  });
}

}  // namespace damas::web
