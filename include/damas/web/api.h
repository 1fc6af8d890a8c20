// The board's JSON API (`damas serve`, and the page against the engine in the browser): a pure
// request -> response handler with no sockets, so tests and other transports call it directly.
//
// Every request is `POST /api/<op>` with a JSON object body; every answer is a JSON object. The
// API speaks positions and moves, never rules: the page asks for the legal moves of the position
// on the board (with their landing squares, for entering a capture square by square) and for the
// position after a move. Operations (protocol/web-api.md has the fields):
//   new          {variant?: "brazilian"|"russian", fen?, mode?: "computer"|"two-players", level?,
//                 human?: "white"|"black", movetime?}
//   load-pdn     {pdn, variant?, mode?, level?, human?, movetime?}  the first game of the text, at its
//                end; its GameType tag names its variant
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
//   stats        {}                     the load: sessions, searches running and waiting, longest wait
// Answers carry the session's state (variant, position, FEN, legal moves, move list, result, PDN). A bad
// request (malformed JSON, unknown op or session, bad field, illegal move, oversized body, too
// many sessions, game over) is {"error": "...", "status": N} with that HTTP status, and changes
// nothing. The sessions share a few engines through a SearchQueue (web/search_queue.h): at most
// search_slots searches at once, the others waiting in arrival order, one per session; a search
// that cannot start within queue_wait is answered 503 {"busy": true, ...}, a second search of a
// session already waiting 429. An analysis holds a slot until a request waits for one; its sink
// then gets {"type": "stopped"}.
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
  std::size_t max_sessions = 1000;
  std::chrono::seconds idle_expiry{3600};       // a session unused this long is dropped
  std::size_t max_body = 256 * 1024;            // bytes; larger bodies get 413
  std::size_t max_plies = 1000;                 // per game
  int hash_mib = 16;                            // each engine's table, unless set_engine_option changes it
  std::size_t search_slots = 0;                 // searches at once (one engine each); 0 = the number of cores
  std::chrono::milliseconds queue_wait{10000};  // longest wait for a slot before a busy answer
  std::size_t max_waiting = 128;                // more waiting searches are refused at once
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

  // Thread-safe; engine requests (hint, engine-move) block their caller while waiting for a slot and
  // for the search.
  ApiResponse handle(const ApiRequest& request);
  void set_analysis_sink(AnalysisSink sink);  // set before requests arrive
  // An option of the registry (engine/options.h) for every engine, before requests arrive
  // (`damas serve --threads 2`); level and multipv are set per search.
  Status set_engine_option(std::string_view name, std::string_view value);
  EgdbStatus egdb_status() const;  // of the engines the sessions share
  BookStatus book_status() const;  // the same
  bool has_session(std::string_view id) const;
  // Stops the session's analysis, if any, and waits for its end (its WebSocket closed).
  void stop_analysis(const std::string& session);
  // Searches at once plus the requests that may wait for one: how many callers handle() may block.
  std::size_t search_capacity() const;
  // True for the operations that need a search slot (and so may wait in the queue): hint,
  // engine-move, analysis-start, review-step; read from the table of operations, not listed here.
  static bool may_search(std::string_view target);
  // The 503 busy answer for a search refused before it reached the queue; counted in `stats`.
  ApiResponse refuse_busy(const std::string& message);
  // Refuses every waiting and later search and stops the analyses (the server is stopping).
  void shut_down();
  // Drops the sessions idle for longer than idle_expiry (a timer of the server calls it); how many.
  std::size_t expire_idle_sessions();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace damas::web
