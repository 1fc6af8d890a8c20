#include "damas/core/data_places.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace damas {

std::string environment_value(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

DataPlaces DataPlaces::of_process() {
  DataPlaces p;
  p.xdg_data_home = environment_value("XDG_DATA_HOME");
  p.home = environment_value("HOME");
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) p.exe_path = exe.string();
  return p;
}

std::string user_data_path(const DataPlaces& places, std::string_view leaf) {
  // XDG: a relative $XDG_DATA_HOME is invalid and is ignored.
  if (!places.xdg_data_home.empty() && places.xdg_data_home.front() == '/')
    return (std::filesystem::path(places.xdg_data_home) / "damas" / leaf).string();
  if (!places.home.empty())
    return (std::filesystem::path(places.home) / ".local" / "share" / "damas" / leaf).string();
  return {};
}

std::string installed_data_path(const DataPlaces& places, std::string_view leaf) {
  if (places.exe_path.empty()) return {};
  const std::filesystem::path exe(places.exe_path);
  return (exe.parent_path().parent_path() / "share" / "damas" / leaf).string();
}

}  // namespace damas
