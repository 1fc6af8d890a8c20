// library_loader.h on Windows: the CheckerBoard host of tools/test-windows loads damas.dll as
// CheckerBoard does, with LoadLibrary.
#include <windows.h>

#include "library_loader.h"

namespace damas::test {

void* open_library(const std::string& path, std::string& error) {
  HMODULE library = LoadLibraryA(path.c_str());
  if (!library) error = "LoadLibrary failed with error " + std::to_string(GetLastError());
  return reinterpret_cast<void*>(library);
}

void* find_function(void* library, const char* name, std::string& error) {
  FARPROC function = GetProcAddress(reinterpret_cast<HMODULE>(library), name);
  if (!function) error = std::string("no function ") + name;
  return reinterpret_cast<void*>(function);
}

void close_library(void* library) { FreeLibrary(reinterpret_cast<HMODULE>(library)); }

}  // namespace damas::test
