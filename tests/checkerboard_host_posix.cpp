// library_loader.h on POSIX systems.
#include <dlfcn.h>

#include "library_loader.h"

namespace damas::test {

void* open_library(const std::string& path, std::string& error) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) error = dlerror();
  return library;
}

void* find_function(void* library, const char* name, std::string& error) {
  void* function = dlsym(library, name);
  if (!function) error = std::string("no function ") + name;
  return function;
}

void close_library(void* library) { dlclose(library); }

}  // namespace damas::test
