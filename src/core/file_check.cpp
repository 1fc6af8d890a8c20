#include "damas/core/file_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace damas {
namespace {

std::string named(std::string_view what, const std::string& path) { return std::string(what) + " " + path; }

std::string system_error(int code) { return std::strerror(code); }

std::string too_large(std::string_view what, const std::string& path, std::uintmax_t size,
                      std::uintmax_t max) {
  return named(what, path) + ": " + std::to_string(size) + " bytes, over the limit of " +
         std::to_string(max) + " bytes";
}

std::string not_regular(std::string_view what, const std::string& path, const struct stat& st) {
  const char* kind = S_ISDIR(st.st_mode)                          ? "a directory"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                     : S_ISFIFO(st.st_mode)                       ? "a pipe"
                     : S_ISSOCK(st.st_mode)                       ? "a socket"
                                                                  : "not a plain file";
  return named(what, path) + ": not a regular file (" + kind + ")";
}

// Closes the descriptor on every way out.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads the checked file into `out` (a std::string or a byte vector).
template <typename Buffer>
Status read_into(const std::string& path, std::string_view what, std::uintmax_t max_bytes, Buffer& out) {
  // O_NONBLOCK: opening a pipe with no writer must not wait for one (it is refused just after).
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) return Error{"cannot open " + named(what, path) + ": " + system_error(errno)};
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    return Error{"cannot read " + named(what, path) + ": " + system_error(errno)};
  if (!S_ISREG(st.st_mode)) return Error{not_regular(what, path, st)};
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > max_bytes) return Error{too_large(what, path, size, max_bytes)};
  out.resize(static_cast<std::size_t>(size));
  std::size_t done = 0;
  while (done < out.size()) {
    const ::ssize_t n = ::read(fd.get(), out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error{"cannot read " + named(what, path) + ": " + system_error(errno)};
    if (n == 0) break;  // the file shrank while being read: what is there
    done += static_cast<std::size_t>(n);
  }
  out.resize(done);
  char extra = 0;
  if (done == size && ::read(fd.get(), &extra, 1) > 0)
    return Error{named(what, path) + ": the file grows while being read"};
  return Ok{};
}

}  // namespace

Status check_regular_file(const std::string& path, std::string_view what, std::uintmax_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return Error{"cannot open " + named(what, path) + ": " + system_error(errno)};
  if (!S_ISREG(st.st_mode)) return Error{not_regular(what, path, st)};
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    return Error{too_large(what, path, static_cast<std::uintmax_t>(st.st_size), max_bytes)};
  return Ok{};
}

Status check_directory(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Error{named(what, path) + ": " + system_error(errno)};
  if (!S_ISDIR(st.st_mode)) return Error{named(what, path) + ": not a directory"};
  return Ok{};
}

Status check_output_file(const std::string& path, std::string_view what) {
  if (path.empty()) return Error{"empty path for the " + std::string(what)};
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return Error{not_regular(what, path, st)};
    return Ok{};
  }
  if (errno != ENOENT) return Error{"cannot write " + named(what, path) + ": " + system_error(errno)};
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (Status s = check_directory(folder, "folder of the " + std::string(what)); !s)
    return Error{"cannot write " + named(what, path) + ": " + s.error()};
  return Ok{};
}

Expected<std::string> read_checked_file(const std::string& path, std::string_view what,
                                        std::uintmax_t max_bytes) {
  std::string text;
  if (Status s = read_into(path, what, max_bytes, text); !s) return Error{s.error()};
  return text;
}

Expected<std::vector<unsigned char>> read_checked_bytes(const std::string& path, std::string_view what,
                                                        std::uintmax_t max_bytes) {
  std::vector<unsigned char> bytes;
  if (Status s = read_into(path, what, max_bytes, bytes); !s) return Error{s.error()};
  return bytes;
}

}  // namespace damas
