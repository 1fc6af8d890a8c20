// A program run as a child process with its stdin and stdout as pipes (the engines of a match),
// and the log file their stderr and the protocol lines go to. One implementation per system,
// chosen by CMake: src/match/child_process_posix.cpp (fork/exec, poll) and
// src/match/child_process_windows.cpp (CreateProcess, anonymous pipes).
//
// Every read has a deadline; nothing here throws or writes to our stdout.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/hub/wire.h"

namespace damas {

using SteadyClock = std::chrono::steady_clock;

// A file opened for appending, written whole lines at a time by many threads and processes.
class LogFile {
 public:
  // An error when the file cannot be opened for writing.
  static Expected<std::shared_ptr<LogFile>> open(const std::string& path);
  ~LogFile();
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;
  const std::string& path() const { return path_; }
  // One write per call, so the lines of two writers do not mix.
  void write(std::string_view text) const;

 private:
  struct Native;
  LogFile(std::string path, std::unique_ptr<Native> native);
  std::string path_;
  std::unique_ptr<Native> native_;
};

struct ProcessSpec {
  std::string command;            // path of the program (or a name looked up in PATH)
  std::vector<std::string> args;  // after argv[0]
  std::string dir;                // working directory; empty = ours
  std::string stderr_path;        // the child's stderr is appended there; empty = discarded
};

enum class ReadResult { Line, Timeout, Closed };

class ChildProcess {
 public:
  ChildProcess();
  ~ChildProcess();  // kills a running child
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts the program; an error when it cannot be executed (the message says why).
  Status start(const ProcessSpec& spec);
  bool running() const;
  long pid() const;  // the system's process id; -1 when none runs
  // One line, '\n' appended; an error when the child no longer reads (closed pipe).
  Status write_line(std::string_view line);
  // The next line of the child's stdout, without '\n' (and without a trailing '\r').
  ReadResult read_line(SteadyClock::time_point deadline, std::string& line);
  // Kills it and collects its exit status. Nothing happens when no child runs.
  void kill();
  // Closes stdin and waits up to `grace` for the child to exit, then kills it.
  void close(std::chrono::milliseconds grace);
  // "exited with status 3", "killed by signal 11", or "" while it runs / was never reaped.
  const std::string& exit_description() const { return exit_description_; }

 private:
  struct Native;
  // What the last child left (lines, its end, its exit), before another starts.
  void forget_output();
  // Bytes read from the child's stdout: split into lines_.
  void take(std::string_view bytes);
  void take_end();

  std::unique_ptr<Native> native_;
  bool eof_ = false;
  hub::LineSplitter splitter_{hub::kMaxLineBytes};
  std::deque<std::string> lines_;
  std::string exit_description_;
};

}  // namespace damas
