// What differs between the systems damas runs on (Linux, Windows), in one place. CMake compiles
// one of src/core/platform_posix.cpp and src/core/platform_windows.cpp; the rest of the code calls
// these functions and has no system-specific #ifdef.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace damas::platform {

// "linux" or "windows", for messages and `damas --version`.
const char* name();

// Keeps the shared library holding this code (the CheckerBoard engine) loaded until the process
// ends, whatever its host unloads: the engine's threads cannot be stopped inside the system's
// unloading (Windows runs it under its loader lock, where joining a thread hangs). Windows pins
// the module; on Linux the library's link does it (-z nodelete), so this does nothing.
void keep_library_loaded();

// The machine's physical memory in bytes; 0 when it cannot be told.
std::uint64_t physical_memory_bytes();

// The CPU time this process has used, all threads, user and system, in seconds.
double process_cpu_seconds();

// The absolute path of this program (or of the library holding this code when it is a DLL's:
// then it is the library's path); "" when it cannot be told.
std::string executable_path();

// The folder where a user's damas data lives when no XDG variable says otherwise: "" on Linux
// (data_places.h applies the XDG rules), %APPDATA%\damas on Windows.
std::string user_data_folder();

// Whether the data files installed with the program sit beside it (the Windows zip: damas.exe,
// brazilian.book, egdb\) rather than in <prefix>/share/damas (a Unix installation).
bool data_beside_program();

// Whether the stream is a terminal (progress bars and the board are drawn only there).
bool is_terminal(std::FILE* stream);

// Makes stdin and stdout carry bytes as they are (no CRLF translation, the line readers strip a
// '\r') and makes a closed reader an error on write instead of a signal that kills the process.
void prepare_standard_streams();

// Reads up to `size` bytes of standard input: the count, 0 at its end, -1 after an error.
std::ptrdiff_t read_standard_input(char* buffer, std::size_t size);

// A regular file open for reading in binary, with its size; `stream` is null and `error` says why
// when the path cannot be opened or is no regular file. Opening never waits (a pipe put in a
// checked file's place is refused, not read).
struct ReadOnlyFile {
  struct Close {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Close> stream;
  std::uintmax_t size = 0;
  std::string error;
  explicit operator bool() const { return stream != nullptr; }
};
ReadOnlyFile open_regular_file(const std::string& path);

// Memory for a large table, aligned to `alignment` (a power of two) and offered to the system's
// large pages where it has them; null when there is not enough. Freed by free_large.
void* allocate_large(std::size_t bytes, std::size_t alignment);
void free_large(void* memory);

}  // namespace damas::platform
