// match/child_process.h on Linux: fork/exec, a socket for the child's stdin (writing never raises
// SIGPIPE), a pipe for its stdout read with poll().
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "damas/match/child_process.h"

namespace damas {
namespace {

using std::chrono::milliseconds;

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "stopped";
}

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void exec_child(const ProcessSpec& spec, char* const* argv, int in_fd, int out_fd, int err_fd,
                             int status_fd) {
  if (::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0 ||
      (!spec.dir.empty() && ::chdir(spec.dir.c_str()) != 0)) {
    const int e = errno;
    (void)!::write(status_fd, &e, sizeof e);
    ::_exit(127);
  }
  ::execvp(argv[0], argv);
  const int e = errno;
  (void)!::write(status_fd, &e, sizeof e);
  ::_exit(127);
}

}  // namespace

// ---- LogFile --------------------------------------------------------------------------------

struct LogFile::Native {
  int fd = -1;
};

Expected<std::shared_ptr<LogFile>> LogFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Error{"cannot write the engine log " + path + ": " + std::strerror(errno)};
  return std::shared_ptr<LogFile>(new LogFile(path, std::make_unique<Native>(Native{fd})));
}

LogFile::LogFile(std::string path, std::unique_ptr<Native> native)
    : path_(std::move(path)), native_(std::move(native)) {}

LogFile::~LogFile() { close_fd(native_->fd); }

void LogFile::write(std::string_view text) const { (void)!::write(native_->fd, text.data(), text.size()); }

// ---- ChildProcess ---------------------------------------------------------------------------

struct ChildProcess::Native {
  pid_t pid = -1;
  int in_fd = -1;   // the child's stdin
  int out_fd = -1;  // the child's stdout
  void close_fds() {
    close_fd(in_fd);
    close_fd(out_fd);
  }
  // Collects the exit status into `description` once the child has ended.
  void reap(bool wait, std::string& description) {
    if (pid <= 0) return;
    int status = 0;
    pid_t r = 0;
    do r = ::waitpid(pid, &status, wait ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == pid || r < 0) {
      description = r == pid ? describe_status(status) : "lost";
      pid = -1;
    }
  }
};

ChildProcess::ChildProcess() : native_(std::make_unique<Native>()) {}

ChildProcess::~ChildProcess() { kill(); }

bool ChildProcess::running() const { return native_->pid > 0; }

long ChildProcess::pid() const { return native_->pid; }

Status ChildProcess::start(const ProcessSpec& spec) {
  kill();
  forget_output();

  std::vector<std::string> words{spec.command};
  words.insert(words.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  int in[2] = {-1, -1};
  int out[2] = {-1, -1};
  int status[2] = {-1, -1};
  int err = spec.stderr_path.empty()
                ? ::open("/dev/null", O_WRONLY | O_CLOEXEC)
                : ::open(spec.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 || ::pipe2(out, O_CLOEXEC) != 0 ||
      ::pipe2(status, O_CLOEXEC) != 0 || err < 0) {
    const std::string why = std::strerror(errno);
    for (int* fd : {&in[0], &in[1], &out[0], &out[1], &status[0], &status[1], &err}) close_fd(*fd);
    return Error{"cannot create pipes: " + why};
  }
  const pid_t pid = ::fork();
  if (pid == 0) exec_child(spec, argv.data(), in[1], out[1], err, status[1]);
  const int fork_errno = errno;
  for (int* fd : {&in[1], &out[1], &status[1], &err}) close_fd(*fd);
  if (pid < 0) {
    for (int* fd : {&in[0], &out[0], &status[0]}) close_fd(*fd);
    return Error{std::string("fork failed: ") + std::strerror(fork_errno)};
  }
  // The status pipe closes on exec (nothing read) or carries exec's errno.
  int child_errno = 0;
  ssize_t got = 0;
  do got = ::read(status[0], &child_errno, sizeof child_errno);
  while (got < 0 && errno == EINTR);
  close_fd(status[0]);
  native_->pid = pid;
  native_->in_fd = in[0];
  native_->out_fd = out[0];
  ::fcntl(out[0], F_SETFL, ::fcntl(out[0], F_GETFL) | O_NONBLOCK);
  if (got > 0) {
    native_->reap(true, exit_description_);
    native_->close_fds();
    return Error{std::strerror(child_errno)};
  }
  return Ok{};
}

Status ChildProcess::write_line(std::string_view line) {
  if (native_->in_fd < 0) return Error{"not running"};
  std::string data(line);
  data += '\n';
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(native_->in_fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{std::string("cannot write to the engine: ") + std::strerror(errno)};
    sent += static_cast<std::size_t>(n);
  }
  return Ok{};
}

ReadResult ChildProcess::read_line(SteadyClock::time_point deadline, std::string& line) {
  while (lines_.empty()) {
    if (eof_ || native_->out_fd < 0) return ReadResult::Closed;
    const auto left = std::chrono::ceil<milliseconds>(deadline - SteadyClock::now()).count();
    const int wait_ms = static_cast<int>(std::clamp<long long>(left, 0, 1000000));
    pollfd p{native_->out_fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno != EINTR) eof_ = true;
    if (ready == 0 && wait_ms == 0) return ReadResult::Timeout;
    if (ready <= 0) continue;
    char buffer[4096];
    const ssize_t n = ::read(native_->out_fd, buffer, sizeof buffer);
    if (n > 0) take(std::string_view(buffer, static_cast<std::size_t>(n)));
    else if (n == 0 || (errno != EAGAIN && errno != EINTR)) take_end();
  }
  line = std::move(lines_.front());
  lines_.pop_front();
  return ReadResult::Line;
}

void ChildProcess::kill() {
  if (native_->pid > 0) {
    native_->reap(false, exit_description_);  // it may have exited on its own: keep its real status
    if (native_->pid > 0) {
      ::kill(native_->pid, SIGKILL);
      native_->reap(true, exit_description_);
    }
  }
  native_->close_fds();
}

void ChildProcess::close(milliseconds grace) {
  close_fd(native_->in_fd);
  const auto deadline = SteadyClock::now() + grace;
  while (native_->pid > 0 && SteadyClock::now() < deadline) {
    native_->reap(false, exit_description_);
    if (native_->pid > 0) std::this_thread::sleep_for(milliseconds(2));
  }
  kill();
}

}  // namespace damas
