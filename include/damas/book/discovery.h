// Where a game's opening book is found when none is named (book-file=auto): the search list. Each
// game has its own file, <game>.book (brazilian.book, russian.book).
//   1. $DAMAS_BOOK, when set, decides alone: a file, or "none" (no book);
//   2. the user's book, $XDG_DATA_HOME/damas/<game>.book or ~/.local/share/damas/<game>.book
//      (tools/run puts the shipped books there; a book of one's own built with `damas book build
//      --out` there replaces it);
//   3. the installed book, <prefix>/share/damas/<game>.book beside the binary (the Debian
//      package's);
//   4. the source tree's bench/<game>.book (a build run from its tree, as data files are found).
// The first that is a file is used; one that is damaged is reported and the engine plays without.
#pragma once

#include <string>
#include <vector>

#include "damas/core/data_places.h"
#include "damas/core/types.h"

namespace damas::book {

inline constexpr const char* kNoBook = "none";

// "brazilian.book": the file name of a game's book in each place of the list.
std::string book_file_name(Variant variant);

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
// The files looked at for `variant`'s book, in order (empty when $DAMAS_BOOK is "none").
std::vector<Candidate> candidates(const Places& places, Variant variant = Variant::Brazilian);
// "" when neither $XDG_DATA_HOME nor $HOME is known.
std::string user_book(const Places& places, Variant variant = Variant::Brazilian);
// The first candidate that is a file ($DAMAS_BOOK whatever it is); an empty path when there is none.
Candidate find_book(const Places& places, Variant variant = Variant::Brazilian);

}  // namespace damas::book
