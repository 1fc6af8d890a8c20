// match/child_process.h on Windows: CreateProcess with anonymous pipes for stdin and stdout; the
// stdout pipe is read when PeekNamedPipe says bytes wait, so a read never blocks past its deadline.
#include <windows.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <thread>

#include "damas/match/child_process.h"

namespace damas {
namespace {

using std::chrono::milliseconds;

std::string system_message(DWORD code) {
  char text[512] = {};
  const DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, code, 0,
                                 text, sizeof text, nullptr);
  std::string message(text, n);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == '.'))
    message.pop_back();
  return message.empty() ? "error " + std::to_string(code) : message;
}

void close_handle(HANDLE& h) {
  if (h != nullptr && h != INVALID_HANDLE_VALUE) CloseHandle(h);
  h = nullptr;
}

// One word of a command line as the C runtime of the child splits it again (CommandLineToArgvW's
// rules: backslashes are literal unless they precede a quote).
std::string quoted(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t\n\v\"") == std::string::npos) return word;
  std::string out = "\"";
  std::size_t backslashes = 0;
  for (const char c : word) {
    if (c == '\\') {
      ++backslashes;
      continue;
    }
    out.append(c == '"' ? backslashes * 2 + 1 : backslashes, '\\');
    backslashes = 0;
    out.push_back(c);
  }
  out.append(backslashes * 2, '\\');
  out.push_back('"');
  return out;
}

std::string describe_exit(DWORD code, bool killed) {
  if (killed) return "killed";
  if (code >= 0xC0000000U) {  // an NTSTATUS error: the process crashed
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%08lX", static_cast<unsigned long>(code));
    return std::string("crashed with exception ") + hex;
  }
  return "exited with status " + std::to_string(code);
}

HANDLE open_for_append(const std::string& path, bool inheritable) {
  SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, inheritable ? TRUE : FALSE};
  return CreateFileA(path.c_str(), FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                     &sa, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
}

}  // namespace

// ---- LogFile --------------------------------------------------------------------------------

struct LogFile::Native {
  HANDLE file = nullptr;
};

Expected<std::shared_ptr<LogFile>> LogFile::open(const std::string& path) {
  HANDLE file = open_for_append(path, false);
  if (file == INVALID_HANDLE_VALUE)
    return Error{"cannot write the engine log " + path + ": " + system_message(GetLastError())};
  return std::shared_ptr<LogFile>(new LogFile(path, std::make_unique<Native>(Native{file})));
}

LogFile::LogFile(std::string path, std::unique_ptr<Native> native)
    : path_(std::move(path)), native_(std::move(native)) {}

LogFile::~LogFile() { close_handle(native_->file); }

void LogFile::write(std::string_view text) const {
  DWORD written = 0;
  WriteFile(native_->file, text.data(), static_cast<DWORD>(text.size()), &written, nullptr);
}

// ---- ChildProcess ---------------------------------------------------------------------------

struct ChildProcess::Native {
  HANDLE process = nullptr;
  DWORD id = 0;
  HANDLE in = nullptr;   // our end of the child's stdin
  HANDLE out = nullptr;  // our end of the child's stdout
  void close_pipes() {
    close_handle(in);
    close_handle(out);
  }
  // Collects the exit status into `description` once the child has ended.
  void reap(DWORD wait_ms, bool killed, std::string& description) {
    if (!process || WaitForSingleObject(process, wait_ms) != WAIT_OBJECT_0) return;
    DWORD code = 0;
    description = GetExitCodeProcess(process, &code) ? describe_exit(code, killed) : "lost";
    close_handle(process);
    id = 0;
  }
};

ChildProcess::ChildProcess() : native_(std::make_unique<Native>()) {}

ChildProcess::~ChildProcess() { kill(); }

bool ChildProcess::running() const { return native_->process != nullptr; }

long ChildProcess::pid() const { return native_->process ? static_cast<long>(native_->id) : -1; }

Status ChildProcess::start(const ProcessSpec& spec) {
  kill();
  forget_output();

  std::string command_line = quoted(spec.command);
  for (const std::string& a : spec.args) {
    command_line += ' ';
    command_line += quoted(a);
  }

  // The child inherits exactly its three handles: the ones of two engines started at once by two
  // threads must not leak into each other (an engine holding another's pipe hides its exit).
  static std::mutex inheriting;
  const std::lock_guard lock(inheriting);
  SECURITY_ATTRIBUTES inherit{sizeof inherit, nullptr, TRUE};
  HANDLE child_in = nullptr, child_out = nullptr, our_in = nullptr, our_out = nullptr;
  HANDLE err = open_for_append(spec.stderr_path.empty() ? "NUL" : spec.stderr_path, true);
  if (!CreatePipe(&child_in, &our_in, &inherit, 0) || !CreatePipe(&our_out, &child_out, &inherit, 0) ||
      err == INVALID_HANDLE_VALUE) {
    const std::string why = system_message(GetLastError());
    for (HANDLE* h : {&child_in, &our_in, &our_out, &child_out, &err}) close_handle(*h);
    return Error{"cannot create pipes: " + why};
  }
  SetHandleInformation(our_in, HANDLE_FLAG_INHERIT, 0);
  SetHandleInformation(our_out, HANDLE_FLAG_INHERIT, 0);
  STARTUPINFOA startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = child_in;
  startup.hStdOutput = child_out;
  startup.hStdError = err;
  PROCESS_INFORMATION info{};
  const BOOL started =
      CreateProcessA(nullptr, command_line.data(), nullptr, nullptr, TRUE, CREATE_NO_WINDOW, nullptr,
                     spec.dir.empty() ? nullptr : spec.dir.c_str(), &startup, &info);
  const DWORD start_error = GetLastError();
  for (HANDLE* h : {&child_in, &child_out, &err}) close_handle(*h);
  if (!started) {
    close_handle(our_in);
    close_handle(our_out);
    return Error{system_message(start_error)};
  }
  CloseHandle(info.hThread);
  native_->process = info.hProcess;
  native_->id = info.dwProcessId;
  native_->in = our_in;
  native_->out = our_out;
  return Ok{};
}

Status ChildProcess::write_line(std::string_view line) {
  if (!native_->in) return Error{"not running"};
  std::string data(line);
  data += '\n';
  std::size_t sent = 0;
  while (sent < data.size()) {
    DWORD n = 0;
    if (!WriteFile(native_->in, data.data() + sent, static_cast<DWORD>(data.size() - sent), &n, nullptr) ||
        n == 0)
      return Error{"cannot write to the engine: " + system_message(GetLastError())};
    sent += n;
  }
  return Ok{};
}

ReadResult ChildProcess::read_line(SteadyClock::time_point deadline, std::string& line) {
  while (lines_.empty()) {
    if (eof_ || !native_->out) return ReadResult::Closed;
    DWORD waiting = 0;
    if (!PeekNamedPipe(native_->out, nullptr, 0, nullptr, &waiting, nullptr)) {
      take_end();  // broken pipe: the child closed its stdout or ended
      continue;
    }
    if (waiting == 0) {
      if (SteadyClock::now() >= deadline) return ReadResult::Timeout;
      std::this_thread::sleep_for(milliseconds(1));
      continue;
    }
    char buffer[4096];
    DWORD n = 0;
    if (ReadFile(native_->out, buffer, std::min<DWORD>(waiting, sizeof buffer), &n, nullptr) && n > 0)
      take(std::string_view(buffer, n));
    else take_end();
  }
  line = std::move(lines_.front());
  lines_.pop_front();
  return ReadResult::Line;
}

void ChildProcess::kill() {
  if (native_->process) {
    native_->reap(0, false, exit_description_);  // it may have exited on its own: keep its real status
    if (native_->process) {
      TerminateProcess(native_->process, 1);
      native_->reap(INFINITE, true, exit_description_);
    }
  }
  native_->close_pipes();
}

void ChildProcess::close(milliseconds grace) {
  close_handle(native_->in);
  if (native_->process) native_->reap(static_cast<DWORD>(grace.count()), false, exit_description_);
  kill();
}

}  // namespace damas
