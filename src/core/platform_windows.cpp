// core/platform.h on Windows (built with mingw-w64; cmake/mingw-w64-x86_64.cmake). Paths are the
// system's narrow (ANSI code page) strings, as the C and C++ libraries take them.
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <sys/stat.h>

#include <malloc.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "damas/core/platform.h"

namespace damas::platform {

const char* name() { return "windows"; }

void keep_library_loaded() {
  HMODULE module = nullptr;
  GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                     reinterpret_cast<LPCSTR>(&keep_library_loaded), &module);
}

std::uint64_t physical_memory_bytes() {
  MEMORYSTATUSEX status{};
  status.dwLength = sizeof status;
  if (!GlobalMemoryStatusEx(&status)) return 0;
  return status.ullTotalPhys;
}

double process_cpu_seconds() {
  FILETIME created, exited, kernel, user;
  if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user)) return 0;
  const auto seconds = [](const FILETIME& t) {  // in units of 100 ns
    return static_cast<double>((std::uint64_t{t.dwHighDateTime} << 32) | t.dwLowDateTime) * 1e-7;
  };
  return seconds(kernel) + seconds(user);
}

std::string executable_path() {
  // The module holding this function: damas.exe, or damas.dll inside a GUI's process.
  HMODULE module = nullptr;
  if (!GetModuleHandleExA(
          GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
          reinterpret_cast<LPCSTR>(&executable_path), &module))
    return {};
  std::string path(MAX_PATH, '\0');
  while (true) {
    const DWORD n = GetModuleFileNameA(module, path.data(), static_cast<DWORD>(path.size()));
    if (n == 0) return {};
    if (n < path.size()) {
      path.resize(n);
      return path;
    }
    if (path.size() >= 32768) return {};
    path.resize(path.size() * 2);  // cut: try a larger buffer
  }
}

std::string user_data_folder() {
  const char* appdata = std::getenv("APPDATA");
  if (!appdata || !*appdata) return {};
  return std::string(appdata) + "\\damas";
}

bool data_beside_program() { return true; }

bool is_terminal(std::FILE* stream) {
  // _isatty() also says yes for the NUL device; a console is what has a console mode.
  const intptr_t handle = _get_osfhandle(_fileno(stream));
  DWORD mode = 0;
  return handle != -1 && GetConsoleMode(reinterpret_cast<HANDLE>(handle), &mode) != 0;
}

void prepare_standard_streams() {
  // Bytes as they are: "\n" out as on Linux; a "\r\n" in is split by the line readers.
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
}

std::ptrdiff_t read_standard_input(char* buffer, std::size_t size) {
  const unsigned chunk = size > (1U << 30) ? (1U << 30) : static_cast<unsigned>(size);
  return _read(0, buffer, chunk);
}

ReadOnlyFile open_regular_file(const std::string& path) {
  ReadOnlyFile file;
  // "N": not inherited by the engines a match starts.
  file.stream.reset(std::fopen(path.c_str(), "rbN"));
  struct _stat64 st {};
  if (!file.stream || _fstat64(_fileno(file.stream.get()), &st) != 0) {
    file.error = std::strerror(errno);
    file.stream.reset();
    return file;
  }
  if ((st.st_mode & _S_IFMT) != _S_IFREG) {
    file.error = "not a regular file";
    file.stream.reset();
    return file;
  }
  file.size = static_cast<std::uintmax_t>(st.st_size);
  return file;
}

void* allocate_large(std::size_t bytes, std::size_t alignment) { return _aligned_malloc(bytes, alignment); }

void free_large(void* memory) { _aligned_free(memory); }

}  // namespace damas::platform
