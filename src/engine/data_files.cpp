// The data files of an engine's options (data_files.h), and the texts that say what was found.
#include "data_files.h"

#include "damas/book/book_file.h"
#include "damas/book/discovery.h"
#include "damas/core/file_check.h"
#include "damas/egdb/discovery.h"

namespace damas {

Expected<LoadedEgdb> load_egdb(const Options& next) {
  const std::string& path = next.get(option::kEgdbPath);
  const int pieces = static_cast<int>(next.get_int(option::kEgdbPieces));
  EgdbStatus status;
  status.setting = path;
  status.variant = next.variant();
  std::shared_ptr<const egdb::Database> db;
  if (path == egdb::kNoDatabases) {
    // Off.
  } else if (path.empty() || path == "auto") {
    const egdb::Found found = egdb::find_databases(egdb::Places::of_process(), pieces, status.variant);
    if (!found.dir.empty()) {
      auto opened = egdb::Database::open_shared(found.dir, pieces, egdb::BadSlice::Skip);
      status.source = found.source;
      if (opened) db = *opened;
      else status.problems.push_back(opened.error());
    }
  } else {
    auto opened = egdb::Database::open_shared(path, pieces);
    if (!opened) return Error{opened.error()};
    db = *opened;
    status.source = "egdb-path";
  }
  if (db && db->variant() != status.variant) {
    // Named by egdb-path for another game: kept (the variant may change back), not probed.
    status.problems.push_back(db->dir() + " holds " + std::string(to_string(db->variant())) +
                              " databases, not used in a " + std::string(to_string(status.variant)) +
                              " game");
  } else if (db) {
    status.dir = db->dir();
    status.pieces = db->max_pieces();
    status.problems.insert(status.problems.end(), db->skipped().begin(), db->skipped().end());
  }
  return LoadedEgdb{std::move(db), std::move(status)};
}

Expected<LoadedBook> load_book(const Options& next) {
  const std::string& path = next.get(option::kBookFile);
  BookStatus status;
  status.enabled = next.get_bool(option::kBook);
  status.setting = path;
  status.variant = next.variant();
  std::shared_ptr<const book::Book> loaded;
  if (status.enabled && path != book::kNoBook) {
    const bool automatic = path.empty() || path == "auto";
    const book::Candidate found = automatic ? book::find_book(book::Places::of_process(), status.variant)
                                            : book::Candidate{path, "book-file"};
    if (!found.path.empty()) {
      Expected<book::Book> read = book::read_book(found.path);
      if (!read && !automatic) return Error{read.error()};
      if (read) loaded = std::make_shared<const book::Book>(std::move(*read));
      else status.problem = read.error();
      if (loaded && loaded->variant != status.variant) {
        // Named for another game (the variant may change back): kept, never looked up.
        status.problem = found.path + " is a book of " + std::string(to_string(loaded->variant)) +
                         " draughts, not used in a " + std::string(to_string(status.variant)) + " game";
        loaded.reset();
      }
      status.path = found.path;
      status.source = found.source;
      status.positions = loaded ? loaded->size() : 0;
    }
  }
  return LoadedBook{std::move(loaded), std::move(status)};
}

Expected<EvalFile> read_eval_file(const std::string& path) {
  EvalFile e;
  if (path.empty()) return e;
  Expected<std::string> bytes = read_checked_file(path, "evaluation file", file_limit::kWeights);
  if (!bytes) return Error{bytes.error()};
  const std::span<const unsigned char> raw(reinterpret_cast<const unsigned char*>(bytes->data()),
                                           bytes->size());
  if (is_learned_weights(raw)) {
    Expected<LearnedWeights> loaded = parse_learned_weights(raw, path);
    if (!loaded) return Error{loaded.error()};
    e.learned = std::make_shared<const LearnedWeights>(*loaded);
  } else {
    Expected<EvalWeights> loaded = parse_weights(*bytes, path);
    if (!loaded) return Error{loaded.error()};
    e.classic = *loaded;
  }
  return e;
}

Status check_network_game(const LearnedWeights& network, const std::string& path, Variant game,
                          std::string_view remedy) {
  if (network.variant == game) return Ok{};
  return Error{"eval-file " + path + " holds a network for " + std::string(to_string(network.variant)) +
               " draughts, and the game is " + std::string(to_string(game)) + " (" + std::string(remedy) +
               ")"};
}

Status check_option_files(const Options& options) {
  const Expected<EvalFile> e = read_eval_file(options.get(option::kEvalFile));
  if (!e) return Error{e.error()};
  if (e->learned)
    if (Status s = check_network_game(*e->learned, options.get(option::kEvalFile), options.variant(),
                                      "set --variant to the network's game");
        !s)
      return s;
  const std::string& egdb_path = options.get(option::kEgdbPath);
  if (!egdb_path.empty() && egdb_path != "auto" && egdb_path != egdb::kNoDatabases)
    if (Status s = check_directory(egdb_path, "endgame database directory"); !s) return s;
  const std::string& book_path = options.get(option::kBookFile);
  if (book_path.empty() || book_path == "auto" || book_path == book::kNoBook) return Ok{};
  if (Expected<book::Book> b = book::read_book(book_path); !b) return Error{b.error()};
  return Ok{};
}

std::string BookStatus::text() const {
  const std::string head = variant == Variant::Brazilian
                               ? "opening book: "
                               : "opening book (" + std::string(to_string(variant)) + "): ";
  if (!enabled) return head + "off (book=false)";
  if (setting == book::kNoBook) return head + "none (book-file=none)";
  if (!problem.empty()) return head + problem + "; playing without a book";
  if (path.empty()) return head + "none found";
  return head + std::to_string(positions) + " positions in " + path + " (" + source + ")";
}

std::string EgdbStatus::text() const {
  const std::string head = variant == Variant::Brazilian
                               ? "endgame databases: "
                               : "endgame databases (" + std::string(to_string(variant)) + "): ";
  if (!dir.empty())
    return head + "up to " + std::to_string(pieces) + " pieces in " + dir + " (" + source + ")";
  if (setting == egdb::kNoDatabases) return head + "none (egdb-path=none)";
  const std::string user = egdb::user_dir(egdb::Places::of_process());
  const std::string flag =
      variant == Variant::Brazilian ? "" : " --variant " + std::string(to_string(variant));
  return head + "none found (damas egdb build --pieces 4" + flag + " writes the 4-piece set to " +
         (user.empty() ? std::string("the user directory") : egdb::variant_dir(user, variant)) + ")";
}

}  // namespace damas
