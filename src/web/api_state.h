// What the operations of the board's API share: the settings, the sessions, the engines with the
// queue of their slots, and the analyses that hold a slot. One mutex guards the sessions and the
// analyses; it is never held while searching or waiting for a slot.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api_error.h"
#include "damas/engine/engine.h"
#include "damas/web/api.h"
#include "damas/web/search_queue.h"
#include "session_store.h"

namespace damas::web {

// An analysis holding a slot: ended is set by its done callback, before the slot is released, so
// a late stop request never reaches the next search on that engine.
struct Analysis {
  std::string session;
  std::size_t slot = 0;
  bool stop_requested = false;
  bool ended = false;
};

struct ApiState {
  explicit ApiState(ApiConfig config);

  ApiConfig config;
  AnalysisSink sink;

  mutable std::mutex mutex;
  std::condition_variable analysis_ended;
  SessionStore sessions;
  std::map<std::uint64_t, Analysis> analyses;  // by generation
  std::uint64_t next_generation = 0;
  std::map<std::string, std::size_t, std::less<>> review_slots;  // session -> slot of its review step

  SearchQueue queue;  // before the engines: their last done callbacks release slots
  std::vector<std::unique_ptr<Engine>> engines;  // one per slot of the queue

  // The game of a new session that names none: the engines' `variant` option (`damas serve
  // --variant russian`), set before requests arrive like every option.
  Variant default_variant() const;
  // The id of the body's session (takes the mutex), or why there is none.
  Result<std::string> lookup(const Json& body);
  // Asks the analysis of this generation to stop, without waiting (mutex held).
  void request_stop(std::uint64_t generation);
  // Stops the session's analysis and waits until its slot is free (mutex not held).
  void stop_analysis_of(const std::string& id);
  // The end of an analysis (its done callback, on the search thread): the slot passes on, the sink
  // hears of it, then whoever waits in stop_analysis_of.
  void end_analysis(std::uint64_t generation, SearchLease& lease);
  // An info of a running analysis: kept as the session's latest line and sent to the sink.
  void on_info(const std::string& id, std::uint64_t generation, const Position& root, const SearchInfo& info);
};

using SessionChange = std::function<Answer(const std::string& id, Session& session)>;
// Runs change(id, session) under the mutex after stopping the session's analysis: a change of
// the game ends it.
Answer change_session(ApiState& state, const Json& body, const SessionChange& change);
// Runs read(id, session) under the mutex; the analysis goes on.
Answer with_session(ApiState& state, const Json& body, const SessionChange& read);

}  // namespace damas::web
