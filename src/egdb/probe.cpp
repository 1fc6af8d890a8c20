// Probing loaded slice files.
#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>

#include "damas/core/file_check.h"
#include "damas/core/movegen.h"
#include "damas/egdb/egdb.h"
#include "solved.h"

namespace damas::egdb {

std::optional<Code> ProbeCache::find(Key key) const {
  const Entry& e = entries_[key & (kEntries - 1)];
  if (e.used && e.key == key) return e.code;
  return std::nullopt;
}

void ProbeCache::store(Key key, Code c) { entries_[key & (kEntries - 1)] = Entry{key, c, true}; }

int complete_pieces(const std::string& dir, int limit) {
  int found = 0;
  for (int n = 2; n <= std::min(limit, 8); ++n) {
    for (const Material& m : slices_up_to(n)) {
      std::error_code ec;  // a path the system refuses (too long, no access) holds no file
      if (m.pieces() == n && !std::filesystem::exists(slice_path(dir, m), ec)) return found;
    }
    found = n;
  }
  return found;
}

Expected<Variant> variant_of_dir(const std::string& dir) {
  std::optional<Error> first_failure;
  for (const Material& m : slices_up_to(8)) {
    std::error_code ec;
    if (!std::filesystem::exists(slice_path(dir, m), ec)) continue;
    const Expected<SliceFile> f = SliceFile::read(slice_path(dir, m));
    if (f) return f->variant();
    if (!first_failure) first_failure = Error{f.error()};
  }
  return first_failure.value_or(Error{dir + ": no endgame database files"});
}

Expected<std::shared_ptr<const Database>> Database::open(const std::string& dir, int max_pieces,
                                                         BadSlice bad) {
  if (Status s = check_directory(dir, "endgame database directory"); !s) return Error{s.error()};
  const int pieces = complete_pieces(dir, max_pieces);
  if (pieces < 2)
    return Error{dir + ": no complete endgame database (no " + file_name(Material{0, 1, 0, 1}) + ")"};
  auto db = std::make_shared<Database>();
  db->dir_ = dir;
  db->max_pieces_ = pieces;
  // The first sound slice names the game; a file of another game is a bad slice like a damaged one.
  const Expected<Variant> variant = variant_of_dir(dir);
  if (!variant) return Error{variant.error()};
  db->variant_ = *variant;
  for (const Material& m : slices_up_to(pieces)) {
    Expected<SliceFile> f = SliceFile::read_slice(dir, m, db->variant_, BlockCheck::WhenProbed);
    if (!f && bad == BadSlice::Refuse) return Error{f.error()};
    if (!f) db->skipped_.push_back(f.error() + " (slice left out)");
    else db->slices_.emplace(m, std::move(f).value());
  }
  return std::shared_ptr<const Database>(std::move(db));
}

Expected<std::shared_ptr<const Database>> Database::open_shared(const std::string& dir, int max_pieces,
                                                                BadSlice bad) {
  // A cache of read-only files, not state: whoever holds a Database keeps it alive, and a
  // directory opened again after every holder let go is read afresh.
  using Key = std::tuple<std::string, int, BadSlice>;
  static std::mutex mutex;
  static std::map<Key, std::weak_ptr<const Database>> open_dbs;
  const std::lock_guard lock(mutex);
  std::error_code ec;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(dir, ec);
  const Key key{ec ? dir : canonical.string(), max_pieces, bad};
  if (const auto it = open_dbs.find(key); it != open_dbs.end())
    if (std::shared_ptr<const Database> db = it->second.lock()) return db;
  Expected<std::shared_ptr<const Database>> db = open(dir, max_pieces, bad);
  if (db) open_dbs[key] = *db;
  return db;
}

std::optional<Code> Database::probe_code(const Position& p, ProbeCache* cache) const {
  if (p.variant() != variant_) return std::nullopt;  // the values of another game's rules
  const Color stm = p.side_to_move();
  if (!p.pieces(stm)) return Code{1};
  if (!p.pieces(~stm) || popcount(p.occupied()) > max_pieces_) return std::nullopt;
  if (cache)
    if (const std::optional<Code> c = cache->find(p.key())) return c;
  Code code = kDrawCode;
  if (has_capture(p)) {
    // Captures lead into smaller slices: fold their values.
    MoveList moves;
    generate_legal_moves(p, moves);
    ValueFold fold;
    for (const Move& m : moves) {
      const std::optional<Code> c = probe_code(p.after(m), cache);
      if (!c) return std::nullopt;
      fold.add_child(*c);
    }
    code = fold.result();
  } else {
    const Material m = material_of(p);
    const auto it = slices_.find(m);
    if (it == slices_.end()) return std::nullopt;
    const std::optional<Code> stored = it->second.code_at(SliceIndex(m).index_of(p), stm);
    if (!stored) return std::nullopt;  // a malformed block: no value rather than a guess
    code = *stored;
  }
  if (cache) cache->store(p.key(), code);
  return code;
}

std::optional<Value> Database::probe(const Position& p, ProbeCache* cache) const {
  const std::optional<Code> c = probe_code(p, cache);
  if (!c) return std::nullopt;
  return value_of(*c);
}

}  // namespace damas::egdb
