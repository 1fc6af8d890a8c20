// The board's JSON API (`damas serve`, and the page against the engine in the browser): a pure
// request -> response handler with no sockets, so tests and other transports call it directly.
//
// Every request is `POST /api/<op>` with a JSON object body; every answer is a JSON object. The
// API speaks positions and moves, never rules: the page asks for the legal moves of the position
// on the board (with their landing squares, for entering a capture square by square) and for the
// position after a move. Operations (protocol/web-api.md has the fields):
//   new          {fen?, mode?: "computer"|"two-players", level?, human?: "white"|"black", movetime?}
//   load-pdn     {pdn, mode?, level?, human?, movetime?}  the first game of the text, at its end
//   state        {session}
//   move         {session, move}        algebraic ("c3-d4", "c3:e5:c7") or numeric ("22x13x18")
//   undo         {session}              one ply; against the computer back to the person's turn
//   goto         {session, ply}         moves the cursor in the move list (0 = start position)
//   hint         {session}              a full-strength short search: the suggested move
//   engine-move  {session}              the computer plays at the session's level
//   analysis-start {session, multipv?}  infinite multi-PV search; lines through the sink
//   analysis     {session}              the latest lines (polling instead of the WebSocket)
//   analysis-stop {session}
//   close        {session}
//   review-start {session, depth? | movetime?}  a review of the game (review/review.h), nothing searched yet
//   review-step  {session}              searches one more position; the review once finished
//   review-cancel {session}, review {session}, review-line {session, ply}  (the best line's positions)
// Answers carry the session's state (position, FEN, legal moves, move list, result, PDN). A bad
// request (malformed JSON, unknown op or session, bad field, illegal move, oversized body, too
// many sessions, game over) is {"error": "...", "status": N} with that HTTP status, and changes
// nothing. One Engine serves every session, one search at a time (memory stays bounded); a new
// search stops a running analysis, whose sink then gets {"type": "stopped"}.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "damas/core/expected.h"
#include "damas/engine/engine.h"

namespace damas::web {

struct ApiRequest {
  std::string method = "POST";
  std::string target;  // "/api/new"
  std::string body;
};

struct ApiResponse {
  int status = 200;
  std::string body;  // JSON
};

using Clock = std::chrono::steady_clock;

struct ApiConfig {
  std::size_t max_sessions = 32;
  std::chrono::seconds idle_expiry{3600};  // a session unused this long may be dropped
  std::size_t max_body = 256 * 1024;       // bytes; larger bodies get 413
  std::size_t max_plies = 1000;            // per game
  int hash_mib = 32;                       // the shared engine's table, unless set_engine_option changes it
  double hint_seconds = 0.5;
  double default_move_seconds = 1.0;         // per computer move unless the game sets movetime
  std::function<Clock::time_point()> clock;  // empty = steady_clock::now (tests inject one)
};

// Analysis events as JSON text: {"type": "info", "session", "multipv", "depth", "score", ...},
// {"type": "stopped", "session"}. Called from the search thread; must not call back into Api.
using AnalysisSink = std::function<void(const std::string& session, const std::string& json)>;

class Api {
 public:
  explicit Api(ApiConfig config = {});
  ~Api();  // stops any search
  Api(const Api&) = delete;
  Api& operator=(const Api&) = delete;

  // Thread-safe; engine requests (hint, engine-move) block their caller for the search.
  ApiResponse handle(const ApiRequest& request);
  void set_analysis_sink(AnalysisSink sink);  // set before requests arrive
  // An option of the registry (engine/options.h) for the shared engine, before requests arrive
  // (`damas serve --threads 2`); level and multipv are set per search.
  Status set_engine_option(std::string_view name, std::string_view value);
  EgdbStatus egdb_status() const;  // of the engine the sessions share
  bool has_session(std::string_view id) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace damas::web
