#include "damas/core/data_places.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "damas/core/platform.h"

namespace damas {

std::string environment_value(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

DataPlaces DataPlaces::of_process() {
  DataPlaces p;
  p.xdg_data_home = environment_value("XDG_DATA_HOME");
  p.home = environment_value("HOME");
  p.exe_path = platform::executable_path();
  p.user_folder = platform::user_data_folder();
  p.data_beside_program = platform::data_beside_program();
  return p;
}

std::string user_data_path(const DataPlaces& places, std::string_view leaf) {
  if (!places.user_folder.empty()) return (std::filesystem::path(places.user_folder) / leaf).string();
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
  if (places.data_beside_program) return (exe.parent_path() / leaf).string();
  return (exe.parent_path().parent_path() / "share" / "damas" / leaf).string();
}

}  // namespace damas
