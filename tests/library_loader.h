// Loading a shared library and finding a function in it: the only platform code of the
// CheckerBoard host (checkerboard_host_posix.cpp with dlopen; a Windows twin with LoadLibrary).
#pragma once

#include <string>

namespace damas::test {

// The library at `path`, or nullptr with the reason in `error`.
void* open_library(const std::string& path, std::string& error);
// The address of the function named `name`, or nullptr with the reason in `error`.
void* find_function(void* library, const char* name, std::string& error);
void close_library(void* library);

}  // namespace damas::test
