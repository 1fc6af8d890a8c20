#include "api_error.h"

namespace damas::web {

int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::BadRequest:
      return 400;
    case ErrorKind::NotFound:
      return 404;
    case ErrorKind::MethodNotAllowed:
      return 405;
    case ErrorKind::Conflict:
      return 409;
    case ErrorKind::PayloadTooLarge:
      return 413;
    case ErrorKind::Unprocessable:
      return 422;
    case ErrorKind::SessionBusy:
      return 429;
    case ErrorKind::Internal:
      return 500;
    case ErrorKind::Full:
      return 503;
    case ErrorKind::Busy:
      return 503;
  }
  return 500;
}

ApiResponse error_response(const ApiError& error) {
  const int status = http_status(error.kind);
  Json j = Json::object();
  j.set("error", json_str(error.message));
  j.set("status", json_num(status));
  if (error.kind == ErrorKind::Busy || error.kind == ErrorKind::SessionBusy) j.set("busy", json_bool(true));
  return {status, j.dump()};
}

ApiResponse ok_response(const Json& j) { return {200, j.dump()}; }

}  // namespace damas::web
