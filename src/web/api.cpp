#include "damas/web/api.h"

#include <mutex>

#include "api_error.h"
#include "api_state.h"
#include "operations.h"

namespace damas::web {

struct Api::Impl {
  explicit Impl(ApiConfig config) : state(std::move(config)) {}
  ApiState state;
};

Api::Api(ApiConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

Api::~Api() {
  shut_down();
  for (const auto& engine : impl_->state.engines) engine->wait();
}

void Api::shut_down() {
  ApiState& state = impl_->state;
  state.queue.close();
  std::lock_guard lock(state.mutex);
  for (auto& [generation, analysis] : state.analyses) state.request_stop(generation);
}

ApiResponse Api::refuse_busy(const std::string& message) {
  impl_->state.queue.count_refused();
  return error_response({ErrorKind::Busy, message});
}

std::size_t Api::search_capacity() const {
  const QueueConfig& queue = impl_->state.queue.config();
  return queue.slots + queue.max_waiting;
}

bool Api::may_search(std::string_view target) {
  constexpr std::string_view kPrefix = "/api/";
  if (target.substr(0, kPrefix.size()) != kPrefix) return false;
  const Operation* op = find_operation(target.substr(kPrefix.size()));
  return op && op->need == Need::SearchSlot;
}

void Api::set_analysis_sink(AnalysisSink sink) { impl_->state.sink = std::move(sink); }

Status Api::set_engine_option(std::string_view name, std::string_view value) {
  for (const auto& engine : impl_->state.engines)
    if (Status s = engine->set_option(name, value); !s) return s;
  return Ok{};
}

EgdbStatus Api::egdb_status() const { return impl_->state.engines.front()->egdb_status(); }
BookStatus Api::book_status() const { return impl_->state.engines.front()->book_status(); }

bool Api::has_session(std::string_view id) const {
  std::lock_guard lock(impl_->state.mutex);
  return impl_->state.sessions.get(id) != nullptr;
}

void Api::stop_analysis(const std::string& session) { impl_->state.stop_analysis_of(session); }

std::size_t Api::expire_idle_sessions() {
  std::lock_guard lock(impl_->state.mutex);
  return impl_->state.sessions.expire();
}

ApiResponse Api::handle(const ApiRequest& request) {
  constexpr std::string_view kPrefix = "/api/";
  if (request.target.rfind(kPrefix, 0) != 0)
    return error_response({ErrorKind::NotFound, "not an API path: " + request.target});
  const std::string_view name = std::string_view(request.target).substr(kPrefix.size());
  if (request.method != "POST")
    return error_response({ErrorKind::MethodNotAllowed, "use POST for /api/" + std::string(name)});
  const std::size_t max_body = impl_->state.config.max_body;
  if (request.body.size() > max_body)
    return error_response(
        {ErrorKind::PayloadTooLarge, "request body of " + std::to_string(request.body.size()) +
                                         " bytes is over the limit of " + std::to_string(max_body)});
  const std::string_view text =
      request.body.empty() ? std::string_view("{}") : std::string_view(request.body);
  const Expected<Json> body = parse_json(text, {max_body, 16});
  if (!body) return error_response({ErrorKind::BadRequest, body.error()});
  if (!body->is_object())
    return error_response({ErrorKind::BadRequest, "the request body must be a JSON object"});
  const Operation* op = find_operation(name);
  if (!op)
    return error_response({ErrorKind::NotFound, "unknown API operation \"" + std::string(name) + "\""});
  const Answer answer = op->run(impl_->state, *body);
  return answer ? ok_response(*answer) : error_response(answer.error());
}

}  // namespace damas::web
