// Helpers shared by the Hub tests: a thread-safe line queue (the in-process sink), the
// transcript format of protocol/transcripts/ and its replayer, and EngineProcess, which runs
// the real binary behind pipes with timeouts on every read so a hung engine fails a test
// instead of hanging it.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"

namespace hubtest {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

inline constexpr milliseconds kTimeout{20000};  // generous: the machine is shared

// The engine the pipe tests drive: this build's damas, or the program $DAMAS_TEST_BINARY names
// (tools/test-windows: damas.exe under Wine, behind a wrapper script).
inline std::string damas_binary() {
  const char* other = std::getenv("DAMAS_TEST_BINARY");
  return other && *other ? std::string(other) : std::string(DAMAS_BINARY);
}

// ---- Output collection ----------------------------------------------------------------------

class LineQueue {
 public:
  void push(std::string_view line) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      lines_.emplace_back(line);
    }
    cv_.notify_all();
  }
  std::optional<std::string> pop(milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!cv_.wait_for(lock, timeout, [&] { return !lines_.empty(); })) return std::nullopt;
    std::string line = std::move(lines_.front());
    lines_.pop_front();
    return line;
  }
  std::size_t size() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return lines_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::string> lines_;
};

// ---- Transcripts ----------------------------------------------------------------------------
//
// One step per line:  "> text" is sent;  "< pattern" is one expected line;  "<* pattern" is any
// number (zero included) of lines matching pattern, and must be followed by a "< " step, which
// ends it. '#' lines and blank lines are comments. Patterns are literal text with placeholders:
//   {int} an integer   {real} a decimal number   {move} a Hub move   {word} a run of non-spaces
//   {text} anything (also empty)

struct Step {
  enum class Kind { Send, Expect, ExpectMany };
  Kind kind;
  std::string text;
  int line_number;
};

inline std::string pattern_to_regex(std::string_view pattern) {
  static const std::pair<std::string_view, std::string_view> kPlaceholders[] = {
      {"{int}", "-?[0-9]+"},
      {"{real}", "-?[0-9]+(\\.[0-9]+)?"},
      {"{move}", "[0-9]+([-x][0-9]+)+"},
      {"{word}", "[^ ]+"},
      {"{text}", ".*"},
  };
  std::string re;
  for (std::size_t i = 0; i < pattern.size();) {
    bool replaced = false;
    for (const auto& [name, expr] : kPlaceholders) {
      if (pattern.substr(i, name.size()) == name) {
        re += expr;
        i += name.size();
        replaced = true;
        break;
      }
    }
    if (replaced) continue;
    const char c = pattern[i++];
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) re += '\\';
    re += c;
  }
  return re;
}

inline bool matches(std::string_view pattern, std::string_view line) {
  return std::regex_match(std::string(line), std::regex(pattern_to_regex(pattern)));
}

// Parses a transcript; returns an error text ("" = fine) through `problem`.
inline std::vector<Step> parse_transcript(const std::string& text, std::string& problem) {
  std::vector<Step> steps;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("> ", 0) == 0) steps.push_back({Step::Kind::Send, line.substr(2), number});
    else if (line == ">") steps.push_back({Step::Kind::Send, "", number});
    else if (line.rfind("<* ", 0) == 0) steps.push_back({Step::Kind::ExpectMany, line.substr(3), number});
    else if (line.rfind("< ", 0) == 0) steps.push_back({Step::Kind::Expect, line.substr(2), number});
    else problem += "line " + std::to_string(number) + ": not '> ', '< ', '<* ' or a comment\n";
  }
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].kind == Step::Kind::ExpectMany &&
        (i + 1 == steps.size() || steps[i + 1].kind != Step::Kind::Expect))
      problem += "line " + std::to_string(steps[i].line_number) + ": '<*' must be followed by '< '\n";
  return steps;
}

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Something that takes lines and gives back the engine's lines.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual void send(std::string_view line) = 0;
  virtual std::optional<std::string> receive(milliseconds timeout) = 0;
};

// Replays the steps; after a final "> quit" it checks that nothing more comes (ends with
// ping/pong otherwise).
// Replays the steps; returns "" on success, else what went wrong. Ends with ping/pong to make
// sure no line was left unexpected.
inline std::string replay(const std::vector<Step>& steps, Transport& t) {
  const auto fail = [](const Step& s, const std::string& why) {
    return "transcript line " + std::to_string(s.line_number) + " (" + s.text + "): " + why;
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    if (s.kind == Step::Kind::Send) {
      t.send(s.text);
      continue;
    }
    if (s.kind == Step::Kind::Expect) {
      const std::optional<std::string> got = t.receive(kTimeout);
      if (!got) return fail(s, "no answer (timeout)");
      if (!matches(s.text, *got)) return fail(s, "got \"" + *got + "\"");
      continue;
    }
    const Step& end = steps[i + 1];
    while (true) {
      const std::optional<std::string> got = t.receive(kTimeout);
      if (!got) return fail(end, "no answer (timeout)");
      if (matches(end.text, *got)) break;
      if (!matches(s.text, *got)) return fail(s, "got \"" + *got + "\"");
    }
    ++i;
  }
  if (!steps.empty() && steps.back().kind == Step::Kind::Send && steps.back().text == "quit") {
    if (const std::optional<std::string> extra = t.receive(milliseconds(300)))
      return "output after quit: \"" + *extra + "\"";
    return "";
  }
  t.send("ping");
  const std::optional<std::string> got = t.receive(kTimeout);
  if (!got || *got != "pong")
    return "after the transcript: expected pong, got \"" + got.value_or("<timeout>") + "\"";
  return "";
}

// ---- The real binary behind pipes -----------------------------------------------------------

class EngineProcess {
 public:
  // merge_stderr: stderr goes into the stdout pipe, as pydraughts does.
  explicit EngineProcess(const std::vector<std::string>& args, bool merge_stderr = false) {
    ::signal(SIGPIPE, SIG_IGN);  // a dead engine must give a failed write, not kill the tests
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) return;
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::dup2(merge_stderr ? out[1] : err[1], 2);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    in_ = in[1];
    out_ = out[0];
    err_ = err[0];
    for (const int fd : {in_, out_, err_}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  ~EngineProcess() {
    close_input();
    if (pid_ > 0 && !exited_ && wait_exit(milliseconds(3000)) == -1) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    for (const int fd : {out_, err_})
      if (fd >= 0) ::close(fd);
  }
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  bool started() const { return pid_ > 0 && in_ >= 0; }

  // Writes line + '\n', reading the engine's output meanwhile so neither side can block.
  bool send(std::string_view line, milliseconds timeout = kTimeout) {
    if (in_ < 0) return false;
    std::string data(line);
    data += '\n';
    std::size_t done = 0;
    const auto deadline = Clock::now() + timeout;
    while (done < data.size()) {
      const ssize_t n = ::write(in_, data.data() + done, data.size() - done);
      if (n > 0) {
        done += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
      if (Clock::now() > deadline) return false;
      pollfd fds[3] = {{in_, POLLOUT, 0}, {out_, POLLIN, 0}, {err_, POLLIN, 0}};
      ::poll(fds, 3, 50);
      drain();
    }
    return true;
  }

  // The next stdout line (without '\n'), or nullopt after timeout or end of output.
  std::optional<std::string> read_line(milliseconds timeout = kTimeout) {
    const auto deadline = Clock::now() + timeout;
    while (true) {
      if (const std::size_t nl = out_buffer_.find('\n'); nl != std::string::npos) {
        std::string line = out_buffer_.substr(0, nl);
        out_buffer_.erase(0, nl + 1);
        return line;
      }
      if (out_eof_) return std::nullopt;
      const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return std::nullopt;
      pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
      ::poll(fds, 2, static_cast<int>(std::min<long long>(left, 100)));
      drain();
    }
  }

  // Moves what the engine has written into the buffers without waiting (keeps its pipe from
  // filling up while we are busy with another process).
  void pump() { drain(); }

  // Whatever the engine wrote on stderr so far.
  std::string stderr_text() {
    drain();
    return err_buffer_;
  }

  void close_input() {
    if (in_ >= 0) ::close(in_);
    in_ = -1;
  }

  // Exit status, or -1 if the process is still running after `timeout`.
  int wait_exit(milliseconds timeout) {
    if (exited_) return status_;
    const auto deadline = Clock::now() + timeout;
    while (true) {
      drain();
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return status_;
      }
      if (Clock::now() > deadline) return -1;
      std::this_thread::sleep_for(milliseconds(5));
    }
  }

 private:
  void drain() {
    char buf[1 << 16];
    for (auto [fd, buffer, eof] :
         {std::tuple{out_, &out_buffer_, &out_eof_}, std::tuple{err_, &err_buffer_, &err_eof_}}) {
      while (fd >= 0 && !*eof) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) buffer->append(buf, static_cast<std::size_t>(n));
        else if (n == 0) *eof = true;
        else break;
      }
    }
  }

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string out_buffer_, err_buffer_;
  bool out_eof_ = false, err_eof_ = false;
  bool exited_ = false;
  int status_ = 0;
};

class ProcessTransport : public Transport {
 public:
  explicit ProcessTransport(EngineProcess& p) : p_(p) {}
  void send(std::string_view line) override { p_.send(line); }
  std::optional<std::string> receive(milliseconds timeout) override { return p_.read_line(timeout); }

 private:
  EngineProcess& p_;
};

// ---- Hostile input ---------------------------------------------------------------------------

struct HostileLine {
  std::string text;
  int errors;  // error lines expected before the pong that follows: 0, 1, or -1 for "0 or 1"
  std::string what;
};

inline std::string garbage(std::size_t n, std::uint32_t seed) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    char c = static_cast<char>(seed >> 24);
    s += c == '\n' ? '?' : c;
  }
  return s;
}

// In order: some lines prepare the next (a blocked position, then `go think`). None starts a
// search.
inline std::vector<HostileLine> hostile_lines() {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  std::string long_moves = "pos start moves=\"";
  while (long_moves.size() < kMiB) long_moves += "22-18 ";
  long_moves += "\"";
  std::string shuffles = "pos pos=W:WK30:BK1 moves=\"";  // legal king moves, 1 MiB of them
  while (shuffles.size() < kMiB) shuffles += "30-26 1-5 26-30 5-1 ";
  shuffles += "\"";
  return {
      {"", 1, "empty line"},
      {"   \t  ", 1, "only whitespace"},
      {"\r", 1, "a lone carriage return"},
      {std::string("\0\x01\xff\xfe", 4), 1, "NUL and binary bytes"},
      {"\xff\xfe\xfd hub", 1, "high bytes as a command"},
      {garbage(300, 1), -1, "300 random bytes"},
      {garbage(5000, 2), -1, "5000 random bytes"},
      {"pos pos=\"Wbbbb", 1, "unterminated quote"},
      {"set-param name=\"threads value=2", 1, "unterminated quote in set-param"},
      {"\"", 1, "a lone quote"},
      {"=", 1, "a lone equals sign"},
      {"pos ==start", 1, "double equals"},
      {"pos moves=\"22-18\"\"11-15\"", 1, "quote right after a quoted value"},
      {"level depth=99999999999999999999999", 1, "huge depth"},
      {"level nodes=999999999999999999999999999", 1, "nodes beyond 64 bits"},
      {"level time=1e999", 1, "time overflowing a double"},
      {"level time=nan", 1, "NaN time"},
      {"level move-time=-5", 1, "negative move time"},
      {"level depth=-1", 1, "negative depth"},
      {"level depth=", 1, "empty depth"},
      {"level depth=\"\"", 1, "empty quoted depth"},
      {"level moves=12 time=abc", 1, "time not a number"},
      {"level moves=-3 time=10", 1, "negative moves to go"},
      {"pos start moves=\"10-14\"", 1, "a black man's move for White"},
      {"pos start moves=\"22-18 99-1\"", 1, "square 99"},
      {"pos start moves=\"22-18 0-1\"", 1, "square 0"},
      {"pos start moves=\"22-18 x-y\"", 1, "letters as squares"},
      {"pos start moves=\"22-18 11-15-19\"", 1, "three squares in a quiet move"},
      {"pos start moves=\"22x18\"", 1, "a capture that is not one"},
      {"pos start moves=\"----\"", 1, "dashes only"},
      {"pos start moves=\"22-18 11-15 18x11\"", 0, "fromxto naming exactly one legal capture is accepted"},
      {"pos start moves=\"22-18 11-15 18x11x15x15\"", 1, "a captured square twice"},
      {"pos start moves=\"22-18 11-15 18x11x14\"", 1, "wrong captured square"},
      {"pos pos=Weeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", 1, "no pieces at all"},
      {"pos pos=Wbbbbbbbbbbbbeeeeeeeeeeeeeeeeeeee", 1, "White has no pieces"},
      {"pos pos=Weeeeeeeeeeeeeeeeeeeewwwwwwwwwwww", 1, "Black has no pieces"},
      {"pos pos=Wweeeeeeeeeeeeeeeeeeeeeeeeeeeeeeb", 1, "men on their promotion rows"},
      {"pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", 1, "bad side to move"},
      {"pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwww", 1, "32 characters"},
      {"pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwwe", 1, "34 characters"},
      {"pos pos=Wbbbbbbbbbbbbbeeeeeeewwwwwwwwwwww", 1, "13 black men"},
      {"pos pos=Wbbbbbbbbbbbbeeeeeee\xc3\xa9wwwwwwwwwwww", 1, "UTF-8 in a position string"},
      {"pos pos=W:W21-32:B1-12:K", 1, "FEN with a third piece field"},
      {"pos pos=W:W33:B1", 1, "FEN square 33"},
      {"pos pos=W:W5,5:B1", 1, "FEN square used twice"},
      {"set-param name=variant value=italian", 1, "unsupported variant"},
      {"set-param name=threads value=100000000000000000000", 1, "huge thread count"},
      {"set-param name=hash value=-1", 1, "negative hash"},
      {"set-param value=3", 1, "set-param without name"},
      {"set-param name= value=", 1, "set-param with empty name"},
      {"set-param name=ponder value=maybe", 1, "bad bool"},
      {"set-param name=numbering", 1, "enum option without value"},
      {"set-param name=initial-time value=60", 0, "unknown option (lidraughts-bot)"},
      {"frobnicate", 1, "unknown command"},
      {"HUB", 1, "wrong case"},
      {"info depth=3 score=0.00", 1, "an engine line sent to the engine"},
      {"stop", 0, "stop when idle"},
      {"ponder-hit", 0, "ponder-hit when idle"},
      {"ponder-hit now please", 0, "ponder-hit with junk arguments"},
      {"pos pos=Wbeeeweeeeeeeeeeeeeeeeeeeeeeeeeee", 0, "a blocked side to move (valid position)"},
      {"go think", 1, "go with no legal move"},
      {std::string(kMiB, 'x'), 1, "1 MiB command word"},
      {std::string(kMiB, ' '), 1, "1 MiB of spaces"},
      {long_moves, 1, "1 MiB move list (illegal from its second move)"},
      {shuffles, 0, "1 MiB of legal moves (about 210000 plies)"},
      {"pos pos=" + std::string(kMiB, 'W'), 1, "1 MiB position string"},
      {"level depth=" + std::string(kMiB, '9'), 1, "1 MiB number"},
      {"go " + std::string(kMiB, '"'), 1, "1 MiB of quotes"},
      {std::string(5 * kMiB, 'y'), 1, "5 MiB line (over the 4 MiB limit)"},
      // Hostile paths (issue 22): refused with one error, no abort, no endless read.
      {"set-param name=egdb-path value=" + std::string(300, 'x'), 1, "egdb-path of 300 x's (name too long)"},
      {"set-param name=egdb-path value=/dev/zero", 1, "egdb-path naming a device"},
      {"set-param name=egdb-path value=/proc/version", 1, "egdb-path naming a file"},
      {"set-param name=eval-file value=/dev/zero", 1, "eval-file /dev/zero (endless)"},
      {"set-param name=eval-file value=/dev/urandom", 1, "eval-file /dev/urandom (endless)"},
      {"set-param name=eval-file value=/", 1, "eval-file naming a directory"},
      {"set-param name=eval-file value=" + std::string(5000, 'y'), 1,
       "eval-file of 5000 y's (name too long)"},
      {"set-param name=eval-file value=/no/such/file", 1, "eval-file that does not exist"},
      {"pos start", 0, "back to normal"},
  };
}

// ---- What pydraughts 0.6.7 (draughts/engines/hub.py) does with our lines ------------------
// Each function returns "" when pydraughts would be happy, else the Python exception it
// would raise.

// HubEngine.recv_hub: rstrip, then split at the first whitespace run.
inline std::pair<std::string, std::string> pyd_recv_hub(std::string line) {
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  const std::size_t sp = line.find_first_of(" \t");
  if (sp == std::string::npos) return {line, ""};
  std::size_t rest = line.find_first_not_of(" \t", sp);
  return {line.substr(0, sp), rest == std::string::npos ? "" : line.substr(rest)};
}

// re.split(r' +(?![^"]*"(?:(?:[^"]*"){2})*[^"]*$)', arg): split at space runs followed by an
// even number of quotes.
inline std::vector<std::string> pyd_split(const std::string& arg) {
  std::vector<std::string> parts;
  std::string current;
  for (std::size_t i = 0; i < arg.size();) {
    if (arg[i] != ' ') {
      current += arg[i++];
      continue;
    }
    std::size_t j = i;
    while (j < arg.size() && arg[j] == ' ') ++j;
    if (std::count(arg.begin() + static_cast<std::ptrdiff_t>(j), arg.end(), '"') % 2 == 0) {
      parts.push_back(current);
      current.clear();
    } else {
      current.append(arg, i, j - i);
    }
    i = j;
  }
  parts.push_back(current);
  return parts;
}

inline std::vector<std::string> py_str_split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

inline bool py_int(const std::string& v) { return std::regex_match(v, std::regex("[-+]?[0-9]+")); }
inline bool py_float(const std::string& v) {
  return std::regex_match(v, std::regex("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?"));
}

// HubEngine.go's handling of an `info` line (arg = text after "info").
inline std::string pyd_check_info(const std::string& arg) {
  for (const std::string& item : pyd_split(arg)) {
    const std::vector<std::string> kv = py_str_split(item, '=');
    if (kv.size() != 2) return "ValueError: cannot unpack '" + item + "'";
    const std::string& key = kv[0];
    const std::string& value = kv[1];
    if ((key == "depth" || key == "nodes") && !py_int(value)) return "ValueError: int('" + value + "')";
    if ((key == "mean-depth" || key == "time" || key == "nps" || key == "score") && !py_float(value))
      return "ValueError: float('" + value + "')";
  }
  return "";
}

// HubEngine.go's handling of `done`: bestmove = args[0][1], ponder = args[1][1] iff two args.
inline std::string pyd_parse_done(const std::string& arg, std::string& best,
                                  std::optional<std::string>& ponder) {
  std::vector<std::string> args;
  std::istringstream in(arg);
  for (std::string w; in >> w;) args.push_back(w);
  if (args.empty()) return "IndexError: done without arguments";
  const std::vector<std::string> first = py_str_split(args[0], '=');
  if (first.size() < 2) return "IndexError: '" + args[0] + "' has no '='";
  best = first[1];
  ponder.reset();
  if (args.size() == 2) {
    const std::vector<std::string> second = py_str_split(args[1], '=');
    if (second.size() < 2) return "IndexError: '" + args[1] + "' has no '='";
    ponder = second[1];
  }
  return "";
}

// draughts.Move(board, hub_move=...) for Brazilian: numbers in the a1 numbering, split on '-'
// if there is one, else on 'x'; from, to, then the captured squares in any order; the move
// must be legal with exactly that captured set.
inline std::optional<damas::Move> pyd_move(const damas::Position& p, const std::string& hub_move) {
  const char sep = hub_move.find('-') != std::string::npos ? '-' : 'x';
  std::vector<int> numbers;
  for (const std::string& part : py_str_split(hub_move, sep)) {
    if (!py_int(part) || part.size() > 3) return std::nullopt;
    numbers.push_back(std::stoi(part));
  }
  if (numbers.size() < 2) return std::nullopt;
  std::vector<int> wanted_caps(numbers.begin() + 2, numbers.end());
  std::sort(wanted_caps.begin(), wanted_caps.end());
  damas::MoveList legal;
  damas::generate_legal_moves(p, legal);
  for (const damas::Move& m : legal) {
    const int from = damas::to_numbering(damas::square_number(m.from), damas::Numbering::A1);
    const int to = damas::to_numbering(damas::square_number(m.to), damas::Numbering::A1);
    std::vector<int> caps;
    for (damas::Bitboard c = m.captured; c;)
      caps.push_back(damas::to_numbering(damas::square_number(damas::pop_lowest(c)), damas::Numbering::A1));
    std::sort(caps.begin(), caps.end());
    if (from == numbers[0] && to == numbers[1] && caps == wanted_caps) return m;
  }
  return std::nullopt;
}

// Sends every hostile line, each followed by ping; checks the error count and that nothing
// but `error` lines comes before the pong. Returns "" or a description of the first failure.
template <typename Send, typename Receive>
std::string check_hostile_lines(Send send, Receive receive) {
  for (const HostileLine& h : hostile_lines()) {
    send(h.text);
    send("ping");
    int errors = 0;
    while (true) {
      const std::optional<std::string> got = receive(kTimeout);
      if (!got) return "no pong after: " + h.what;
      if (*got == "pong") break;
      if (got->rfind("error message=", 0) != 0)
        return "unexpected \"" + got->substr(0, 200) + "\" after: " + h.what;
      ++errors;
    }
    if (h.errors >= 0 ? errors != h.errors : errors > 1)
      return std::to_string(errors) + " error lines after: " + h.what;
  }
  return "";
}

}  // namespace hubtest
