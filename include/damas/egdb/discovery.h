// Where endgame databases are found when none is named (egdb-path=auto): the search list.
//   1. $DAMAS_EGDB, when set, decides alone ("none": no databases);
//   2. the user directory, $XDG_DATA_HOME/damas/egdb or ~/.local/share/damas/egdb (where
//      `damas egdb build` writes without --dir and tools/run builds the 4-piece set);
//   3. the installed directory, <prefix>/share/damas/egdb beside the binary (the Debian package's
//      5-piece set).
// Of 2 and 3 the one with more complete pieces wins (the user's on a tie), so a small set built
// by hand does not hide a larger installed one. Each of these directories holds the Brazilian
// databases itself and another variant's in the subdirectory of its name (egdb/russian).
#pragma once

#include <string>
#include <vector>

#include "damas/core/data_places.h"
#include "damas/core/types.h"

namespace damas::egdb {

// The facts of the process the list is made of; tests inject their own.
struct Places : DataPlaces {
  std::string env_dir;  // $DAMAS_EGDB ("" when unset)
  static Places of_process();
};

inline constexpr const char* kNoDatabases = "none";

// "" when neither $XDG_DATA_HOME nor $HOME is known.
std::string user_dir(const Places& places);
// "" when the program's path is unknown.
std::string installed_dir(const Places& places);
// Where `variant`'s databases are inside a databases directory: dir itself for Brazilian (where
// they always were), dir/<variant> for another.
std::string variant_dir(const std::string& dir, Variant variant);

struct Candidate {
  std::string dir;
  std::string source;  // "DAMAS_EGDB", "user directory", "installed"
};
// The directories looked at, in order (empty when $DAMAS_EGDB is "none").
std::vector<Candidate> candidates(const Places& places);

struct Found {
  std::string dir;     // "" when nothing was found
  std::string source;  // as in Candidate
  int pieces = 0;      // complete piece count (0: none)
};
// The directory of `variant`'s databases to open with at most max_pieces pieces: see the header
// comment.
Found find_databases(const Places& places, int max_pieces, Variant variant = Variant::Brazilian);

}  // namespace damas::egdb
