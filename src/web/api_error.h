// The errors of the board's API as values: a kind, which alone chooses the HTTP status, and the
// message the client reads.
#pragma once

#include <string>

#include "damas/core/expected.h"
#include "damas/core/json.h"
#include "damas/web/api.h"

namespace damas::web {

enum class ErrorKind {
  BadRequest,        // 400: malformed JSON, not an object, a missing or mistyped field
  NotFound,          // 404: unknown op, session or path
  MethodNotAllowed,  // 405: not POST
  Conflict,          // 409: not now (game over, not that side's turn, the game changed)
  PayloadTooLarge,   // 413
  Unprocessable,     // 422: an illegal move, a bad FEN or PDN
  SessionBusy,       // 429: a search of this session already runs or waits ("busy": true)
  Internal,          // 500: the engine refused or found nothing
  Full,              // 503: too many sessions
  Busy,              // 503: no search slot in time ("busy": true)
};

struct ApiError {
  ErrorKind kind;
  std::string message;
};

// The one map from an error's kind to its HTTP status.
int http_status(ErrorKind kind);

// {"error", "status"} and, for the queue's refusals, "busy": true.
ApiResponse error_response(const ApiError& error);
ApiResponse ok_response(const Json& j);

// A value or the error that stands in its place.
template <typename T>
using Result = Expected<T, ApiError>;

// What an operation answers: the JSON of a success, or an error.
using Answer = Result<Json>;

}  // namespace damas::web
