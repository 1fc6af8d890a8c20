// Where damas's data files (endgame databases, the opening book) are looked for: what the process
// knows of itself and the two folders made of it. egdb/discovery.h and book/discovery.h build
// their search lists on it.
#pragma once

#include <string>
#include <string_view>

namespace damas {

// The facts of the process; tests inject their own.
struct DataPlaces {
  std::string xdg_data_home;         // $XDG_DATA_HOME
  std::string home;                  // $HOME
  std::string exe_path;              // this program
  std::string user_folder;           // the system's own user data folder (platform.h); "" on Linux: XDG rules
  bool data_beside_program = false;  // installed data files sit beside the program (Windows)
  static DataPlaces of_process();
};

// The variable's value, "" when it is unset.
std::string environment_value(const char* name);

// <user_folder>\<leaf> where the system has its own folder (%APPDATA%\damas on Windows); else
// $XDG_DATA_HOME/damas/<leaf>, else ~/.local/share/damas/<leaf>; "" when none is known.
std::string user_data_path(const DataPlaces& places, std::string_view leaf);
// <prefix>/share/damas/<leaf> for the program <prefix>/bin/damas, or <folder>/<leaf> beside it where
// data sit beside the program; "" when its path is unknown.
std::string installed_data_path(const DataPlaces& places, std::string_view leaf);

}  // namespace damas
