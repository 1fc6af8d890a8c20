// The data files an engine reads as its options name them: the endgame databases (egdb-path,
// egdb-pieces, variant), the opening book (book, book-file) and the evaluation file (eval-file),
// each found, read and checked here, with the status text a person reads. Engine::Impl keeps what
// these return; where the files are looked for is egdb/discovery.h and book/discovery.h.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "damas/book/book.h"
#include "damas/core/expected.h"
#include "damas/egdb/egdb.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"
#include "damas/eval/eval.h"
#include "damas/eval/learned.h"

namespace damas {

struct LoadedEgdb {
  std::shared_ptr<const egdb::Database> database;  // null: none in use
  EgdbStatus status;
};
// A directory named by egdb-path must be sound (else an error); one found by the search list is
// used as far as it is (a damaged slice is left out and reported), and finding nothing is no error.
Expected<LoadedEgdb> load_egdb(const Options& options);

struct LoadedBook {
  std::shared_ptr<const book::Book> book;  // null: none in use
  BookStatus status;
};
// A file named by book-file must be a sound book (else an error); a book found by the search list
// that is not is reported and the engine plays without one. With book=false nothing is read.
Expected<LoadedBook> load_book(const Options& options);

struct EvalFile {
  EvalWeights classic;
  std::shared_ptr<const LearnedWeights> learned;  // null: the built-in network
};
// A learned-weights file is recognised by its magic; anything else is read as classic text
// weights. Empty: both built-in.
Expected<EvalFile> read_eval_file(const std::string& path);

// A network plays the game it was trained for: another game's positions are not what it learned.
// `remedy` says which setting to change first (the order of set-param matters).
Status check_network_game(const LearnedWeights& network, const std::string& path, Variant game,
                          std::string_view remedy);

}  // namespace damas
