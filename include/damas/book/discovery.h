// Where the opening book is found when none is named (book-file=auto): the search list.
//   1. $DAMAS_BOOK, when set, decides alone: a file, or "none" (no book);
//   2. the user's book, $XDG_DATA_HOME/damas/brazilian.book or ~/.local/share/damas/brazilian.book
//      (tools/run puts the shipped book there; a book of one's own built with `damas book build
//      --out` there replaces it);
//   3. the installed book, <prefix>/share/damas/brazilian.book beside the binary (the Debian
//      package's);
//   4. the source tree's bench/brazilian.book (a build run from its tree, as data files are found).
// The first that is a file is used; one that is damaged is reported and the engine plays without.
#pragma once

#include <string>
#include <vector>

#include "damas/core/data_places.h"

namespace damas::book {

inline constexpr const char* kBookFileName = "brazilian.book";
inline constexpr const char* kNoBook = "none";

// The facts of the process the list is made of; tests inject their own.
struct Places : DataPlaces {
  std::string env_file;    // $DAMAS_BOOK ("" when unset)
  std::string source_dir;  // the source tree this program was built from
  static Places of_process();
};

struct Candidate {
  std::string path;
  std::string source;  // "DAMAS_BOOK", "user directory", "installed", "source tree"
};
// The files looked at, in order (empty when $DAMAS_BOOK is "none").
std::vector<Candidate> candidates(const Places& places);
// "" when neither $XDG_DATA_HOME nor $HOME is known.
std::string user_book(const Places& places);
// The first candidate that is a file ($DAMAS_BOOK whatever it is); an empty path when there is none.
Candidate find_book(const Places& places);

}  // namespace damas::book
