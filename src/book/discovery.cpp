#include "damas/book/discovery.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace damas::book {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

Places Places::of_process() {
  Places p;
  p.env_file = env("DAMAS_BOOK");
  p.xdg_data_home = env("XDG_DATA_HOME");
  p.home = env("HOME");
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) p.exe_path = exe.string();
  p.source_dir = DAMAS_SOURCE_DIR;
  return p;
}

std::string user_book(const Places& places) {
  // XDG: a relative $XDG_DATA_HOME is invalid and is ignored.
  if (!places.xdg_data_home.empty() && places.xdg_data_home.front() == '/')
    return (std::filesystem::path(places.xdg_data_home) / "damas" / kBookFileName).string();
  if (!places.home.empty())
    return (std::filesystem::path(places.home) / ".local" / "share" / "damas" / kBookFileName).string();
  return {};
}

std::vector<Candidate> candidates(const Places& places) {
  if (!places.env_file.empty()) {
    if (places.env_file == kNoBook) return {};
    return {Candidate{places.env_file, "DAMAS_BOOK"}};
  }
  std::vector<Candidate> out;
  if (std::string f = user_book(places); !f.empty()) out.push_back({f, "user directory"});
  if (!places.exe_path.empty()) {
    const std::filesystem::path exe(places.exe_path);
    out.push_back(
        {(exe.parent_path().parent_path() / "share" / "damas" / kBookFileName).string(), "installed"});
  }
  if (!places.source_dir.empty())
    out.push_back(
        {(std::filesystem::path(places.source_dir) / "bench" / kBookFileName).string(), "source tree"});
  return out;
}

Candidate find_book(const Places& places) {
  for (const Candidate& c : candidates(places)) {
    std::error_code ec;
    // $DAMAS_BOOK names the book: when it is not there, reading it says so.
    if (c.source == "DAMAS_BOOK" || std::filesystem::is_regular_file(c.path, ec)) return c;
  }
  return {};
}

}  // namespace damas::book
