// The engine in a browser's Web Worker: the Hub front end behind a small C interface that the
// worker's JavaScript (web/wasm/damas-worker.js) calls. Lines go in one at a time; output lines,
// written by this thread or by the search thread, wait in a queue until the worker takes them.
// The search runs on its own thread (a pthread, i.e. a nested worker), so the worker's thread
// stays free for `stop` and `ping` during a search.
//
// The board's JSON API (web/api.h) is here too, so the board page plays against this engine
// exactly as against `damas serve`: one call per request; analysis events wait in a queue.
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "damas/engine/bench.h"
#include "damas/hub/hub.h"
#include "damas/web/api.h"

namespace damas::wasm {

class HubModule {
 public:
  HubModule() : splitter_(hub::kMaxLineBytes), frontend_([this](std::string_view line) { push(line); }) {}

  // Text from postMessage: one line, or several separated by '\n'. Returns 1 after `quit`.
  int input(std::string_view text) {
    bool quit = false;
    const hub::LineSplitter::Handler handle = [&](std::string_view line, bool too_long) {
      if (quit) return;
      if (too_long) frontend_.reject_long_line();
      else if (frontend_.process_line(line) == hub::Frontend::Next::Quit) quit = true;
    };
    splitter_.feed(text, handle);
    splitter_.finish(handle);
    return quit ? 1 : 0;
  }

  // Every line written since the last call, each ending in '\n'; "" when none. Valid until the
  // next call.
  const char* take_output() {
    std::lock_guard lock(mutex_);
    taken_.swap(pending_);
    pending_.clear();
    return taken_.c_str();
  }

  // The native bench (engine/bench.h) at `depth`: "nodes N seconds S", or "error <message>".
  const char* bench(int depth) {
    const auto positions = parse_bench_positions(builtin_bench_positions(), "bench/bench-positions.txt");
    if (!positions) return set_result("error " + positions.error());
    const auto totals = run_bench(*positions, depth);
    if (!totals) return set_result("error " + totals.error());
    return set_result("nodes " + std::to_string(totals->nodes) + " seconds " +
                      std::to_string(totals->seconds));
  }

 private:
  void push(std::string_view line) {
    std::lock_guard lock(mutex_);
    pending_.append(line);
    pending_ += '\n';
  }
  const char* set_result(std::string text) {
    result_ = std::move(text);
    return result_.c_str();
  }

  std::mutex mutex_;
  std::string pending_;
  std::string taken_;
  std::string result_;
  hub::LineSplitter splitter_;
  hub::Frontend frontend_;  // last: its destructor may still write a `done` into pending_
};

// The board's API; a computer move or hint blocks the worker for its search (the page waits
// for it anyway), analysis runs on the search thread and its events wait in a queue.
class ApiModule {
 public:
  ApiModule() : api_(config()) {
    api_.set_analysis_sink([this](const std::string&, const std::string& json) {
      std::lock_guard lock(mutex_);
      events_ += json;
      events_ += '\n';
    });
  }

  // "<status> <json>" for one request.
  const char* call(const char* op, const char* body) {
    const web::ApiResponse r = api_.handle({"POST", std::string("/api/") + op, body});
    result_ = std::to_string(r.status) + " " + r.body;
    return result_.c_str();
  }

  // Analysis events since the last call, one JSON text a line; "" when none.
  const char* take_events() {
    std::lock_guard lock(mutex_);
    taken_.swap(events_);
    events_.clear();
    return taken_.c_str();
  }

 private:
  static web::ApiConfig config() {
    web::ApiConfig c;
    c.max_sessions = 4;  // one page
    c.hash_mib = 16;
    c.search_slots = 1;  // one page: one engine
    return c;
  }

  std::mutex mutex_;
  std::string events_;
  std::string taken_;
  std::string result_;
  web::Api api_;  // last: its destructor stops the search, which may still post an event
};

}  // namespace damas::wasm

// The exported interface (names listed in CMakeLists.txt's EXPORTED_FUNCTIONS).
extern "C" {

// The endgame databases the worker fetched into the module's file system: the first place of the
// search list (egdb/discovery.h), set before any engine is made.
void damas_use_egdb(const char* dir) { setenv("DAMAS_EGDB", dir, 1); }

damas::wasm::HubModule* damas_hub_new() { return new damas::wasm::HubModule(); }
void damas_hub_delete(damas::wasm::HubModule* hub) { delete hub; }
int damas_hub_input(damas::wasm::HubModule* hub, const char* text) { return hub->input(text); }
const char* damas_hub_output(damas::wasm::HubModule* hub) { return hub->take_output(); }
const char* damas_bench(damas::wasm::HubModule* hub, int depth) { return hub->bench(depth); }
damas::wasm::ApiModule* damas_api_new() { return new damas::wasm::ApiModule(); }
const char* damas_api_call(damas::wasm::ApiModule* api, const char* op, const char* body) {
  return api->call(op, body);
}
const char* damas_api_events(damas::wasm::ApiModule* api) { return api->take_events(); }
}
