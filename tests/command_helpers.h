// Runs a command line for the tests of the subcommands: its exit status, and what it printed on
// both streams. Each call has its own output file, so tests that run at once do not mix outputs.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace test {

inline int run_command(const std::string& command, std::string& out) {
  char path[] = "/tmp/damas-test-command-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return -1;
  close(fd);
  const int status = std::system((command + " > " + path + " 2>&1").c_str());
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  out = text.str();
  std::remove(path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace test
