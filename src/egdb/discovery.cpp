#include "damas/egdb/discovery.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "damas/egdb/egdb.h"

namespace damas::egdb {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

Places Places::of_process() {
  Places p;
  p.env_dir = env("DAMAS_EGDB");
  p.xdg_data_home = env("XDG_DATA_HOME");
  p.home = env("HOME");
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) p.exe_path = exe.string();
  return p;
}

std::string user_dir(const Places& places) {
  // XDG: a relative $XDG_DATA_HOME is invalid and is ignored.
  if (!places.xdg_data_home.empty() && places.xdg_data_home.front() == '/')
    return (std::filesystem::path(places.xdg_data_home) / "damas" / "egdb").string();
  if (!places.home.empty())
    return (std::filesystem::path(places.home) / ".local" / "share" / "damas" / "egdb").string();
  return {};
}

std::string installed_dir(const Places& places) {
  if (places.exe_path.empty()) return {};
  const std::filesystem::path exe(places.exe_path);
  return (exe.parent_path().parent_path() / "share" / "damas" / "egdb").string();
}

std::vector<Candidate> candidates(const Places& places) {
  if (!places.env_dir.empty()) {
    if (places.env_dir == kNoDatabases) return {};
    return {Candidate{places.env_dir, "DAMAS_EGDB"}};
  }
  std::vector<Candidate> out;
  if (std::string d = user_dir(places); !d.empty()) out.push_back({d, "user directory"});
  if (std::string d = installed_dir(places); !d.empty()) out.push_back({d, "installed"});
  return out;
}

Found find_databases(const Places& places, int max_pieces) {
  Found best;
  for (const Candidate& c : candidates(places)) {
    std::error_code ec;
    if (!std::filesystem::is_directory(c.dir, ec)) continue;
    const int pieces = complete_pieces(c.dir, max_pieces);
    if (pieces >= 2 && pieces > best.pieces) best = Found{c.dir, c.source, pieces};
  }
  return best;
}

}  // namespace damas::egdb
