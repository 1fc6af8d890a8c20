// core/platform.h on Linux (and other POSIX systems).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "damas/core/platform.h"

namespace damas::platform {

const char* name() { return "linux"; }

void keep_library_loaded() {}

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

double process_cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::string executable_path() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

std::string user_data_folder() { return {}; }

bool data_beside_program() { return false; }

bool is_terminal(std::FILE* stream) { return ::isatty(::fileno(stream)) != 0; }

void prepare_standard_streams() {
  // A reader that goes away must end the session through EOF or a write error, not SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
}

std::ptrdiff_t read_standard_input(char* buffer, std::size_t size) {
  while (true) {
    const ::ssize_t n = ::read(STDIN_FILENO, buffer, size);
    if (n < 0 && errno == EINTR) continue;
    return n;
  }
}

ReadOnlyFile open_regular_file(const std::string& path) {
  ReadOnlyFile file;
  // O_NONBLOCK: opening a pipe with no writer must not wait for one (it is refused just after).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    file.error = std::strerror(errno);
    return file;
  }
  struct stat st {};
  const bool stated = ::fstat(fd, &st) == 0;
  if (!stated || !S_ISREG(st.st_mode)) {
    file.error = stated ? "not a regular file" : std::strerror(errno);
    ::close(fd);
    return file;
  }
  file.stream.reset(::fdopen(fd, "rb"));
  if (!file.stream) {
    file.error = std::strerror(errno);
    ::close(fd);
  }
  file.size = static_cast<std::uintmax_t>(st.st_size);
  return file;
}

void* allocate_large(std::size_t bytes, std::size_t alignment) {
  bytes = (bytes + alignment - 1) / alignment * alignment;  // aligned_alloc wants a multiple
  void* memory = std::aligned_alloc(alignment, bytes);
  if (memory) ::madvise(memory, bytes, MADV_HUGEPAGE);  // fewer TLB misses; only advice
  return memory;
}

void free_large(void* memory) { std::free(memory); }

}  // namespace damas::platform
