// A Hub engine run as a child process (match/child_process.h; protocol/hub.md): the protocol
// session the match runner needs (handshake, options, one search per move).
//
// Every read has a deadline; the engine's stderr goes to a log file the runner owns;
// an engine that hangs is stopped, then killed, and can be restarted. Nothing here throws or
// writes to our stdout.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/notation.h"
#include "damas/core/position.h"
#include "damas/hub/wire.h"
#include "damas/match/child_process.h"

namespace damas {

// ---- The Hub session ------------------------------------------------------------------------

struct EngineSpec {
  std::string name;  // shown in results and PDN; defaults to the engine's `id name=`
  ProcessSpec process;
  std::vector<std::pair<std::string, std::string>> options;  // sent as set-param before init
  // The referee's draw laws, sent as set-param draw-rules when the engine declares that parameter
  // and `options` does not set it ("": never).
  std::string draw_rules;
  // The referee's game, sent as set-param variant when the engine declares that parameter and
  // `options` does not set it; one that declares it without this value, or another game's engine
  // that declares none, cannot play the match.
  Variant variant = Variant::Brazilian;
  Numbering numbering = Numbering::Standard;  // of the moves it reads and writes
  double start_timeout = 10;                  // seconds for hub..wait and init..ready
};

// What one `go think` produced.
struct ThinkReply {
  enum class Outcome {
    Done,      // a `done` in time (the move text is still to be checked by the referee)
    TimeLoss,  // `done` came after the deadline, when asked to stop
    Hang,      // no `done` even after `stop`: the process was killed
    Closed,    // the engine exited or closed its output
    Error,     // it answered `error` (to pos, level or go)
  };
  Outcome outcome = Outcome::Done;
  std::string move;       // the `move=` of done ("" when absent)
  std::string detail;     // the error message, exit status, ...
  double seconds = 0;     // wall time from `go` to `done` (or to the failure)
  hub::InfoFigures info;  // of the last `info` line before `done`
};

class HubEngine {
 public:
  // `log` receives the engine's stderr and, when `debug`, every protocol line both ways.
  HubEngine(EngineSpec spec, std::shared_ptr<const LogFile> log, bool debug);
  HubEngine(const HubEngine&) = delete;
  HubEngine& operator=(const HubEngine&) = delete;
  ~HubEngine();  // `quit`, then kill if it does not exit

  // Starts the process and runs hub..wait, set-param (and the match's variant when declared),
  // init..ready. An error names the engine and what went wrong.
  Status start();
  bool alive() const { return process_.running(); }
  void kill() { process_.kill(); }
  Status new_game();
  // pos (start + moves so far), the given level line, go think; reads until done or deadline.
  // `start_plies`: the draw count the start came with (a lidraughts FEN's H).
  ThinkReply think(const Position& start, int start_plies, const std::vector<Move>& moves,
                   std::string_view level, double budget_seconds);

  const std::string& name() const { return spec_.name; }
  const EngineSpec& spec() const { return spec_; }
  const std::vector<hub::ParamDeclaration>& params() const { return params_; }
  const std::string& id_name() const { return id_name_; }  // its `id name=`
  const std::string& exit_description() const { return process_.exit_description(); }

 private:
  Status send(std::string_view line);
  ReadResult receive(SteadyClock::time_point deadline, std::string& line);
  Status handshake(SteadyClock::time_point deadline);
  Status configure();
  Status tell_variant();
  bool declares(std::string_view param) const;
  std::string position_text(const Position& start, int start_plies) const;
  Status set_param(std::string_view name, std::string_view value);
  Status wait_for(std::string_view command, SteadyClock::time_point deadline, std::string_view what);
  void finish_late(ThinkReply& reply, SteadyClock::time_point started);
  void log(char direction, std::string_view line) const;
  const std::string& moves_text(const Position& start, const std::vector<Move>& moves);

  EngineSpec spec_;
  std::shared_ptr<const LogFile> log_;
  bool debug_;
  ChildProcess process_;
  std::vector<hub::ParamDeclaration> params_;
  std::string id_name_;
  Position moves_start_;        // the game whose moves moves_text_ holds
  std::size_t moves_sent_ = 0;  // how many moves it holds
  std::string moves_text_;
};

}  // namespace damas
