// The Hub protocol front end (protocol/hub.md): the Frontend that turns Hub lines into Engine
// calls (the wire syntax is in hub/wire.h).
//
// The Frontend never touches stdin/stdout: it receives one line at a time through
// process_line() and writes every answer through an injected Sink, so tests drive it directly.
// process_line() is called from one thread (the reader); engine callbacks arrive on the search
// thread; the Frontend serialises all output through one mutex and never holds it while it
// waits for the engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/notation.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"
#include "damas/hub/wire.h"

namespace damas::hub {

// ---- Front end ------------------------------------------------------------------------------

using Sink = std::function<void(std::string_view line)>;  // one protocol line, without '\n'

class Frontend {
 public:
  enum class Next { Continue, Quit };

  // `options` are the starting values (from the command line); `set-param` changes them.
  explicit Frontend(Sink sink, const Options& options = Options{});
  ~Frontend();  // stops a running search; its `done` is still written
  Frontend(const Frontend&) = delete;
  Frontend& operator=(const Frontend&) = delete;

  // Handles one input line. `ping` and `ponder-hit` leave a running search alone; any other
  // known command first stops it (its `done` is written first) and then runs. Returns Quit
  // after `quit`.
  Next process_line(std::string_view text);
  // The reader dropped a line longer than kMaxLineBytes.
  void reject_long_line();
  // End of input: stops a running search and waits for its `done`.
  void finish();

  // For tests and tools.
  void wait();  // until the current search (if any) has written `done`
  bool searching() const;
  std::uint64_t searches_started() const;
  std::uint64_t dones_written() const;

 private:
  void emit(std::string_view line);
  void error(std::string_view message);
  void stop_search();

  void cmd_init();
  void cmd_hub();
  void cmd_set_param(const Line& line);
  void cmd_pos(const Line& line);
  void cmd_level(const Line& line);
  void cmd_go(const Line& line);
  Numbering numbering() const;
  Variant variant() const;

  // Output state, declared first so that it outlives the engine (whose destructor may still
  // deliver a `done`).
  Sink sink_;
  mutable std::mutex out_mutex_;
  std::uint64_t searches_started_ = 0;  // guarded by out_mutex_
  std::uint64_t dones_written_ = 0;     // guarded by out_mutex_

  SearchLimits limits_;  // for the next `go`; reset by `pos` and by every `go`
  Engine engine_;
};

}  // namespace damas::hub
