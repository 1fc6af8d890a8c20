// Endgame databases: numbering, values against an independent solver, known results, files,
// resume, verify, and the engine converting won positions with them.
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "command_helpers.h"
#include "damas/core/binary_io.h"
#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/egdb/cluster.h"
#include "damas/egdb/discovery.h"
#include "damas/egdb/egdb.h"
#include "damas/engine/engine.h"
#include "egdb_test_sets.h"

using namespace damas;
namespace fs = std::filesystem;

namespace {

// A scratch directory removed when the test program ends.
struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("damas_egdb_test_" + std::to_string(getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};
const fs::path& scratch() {
  static const ScratchDir dir;
  return dir.path;
}

using test::built;
using test::bytes_of;
using test::database;
using test::rewrite_slice_file;

egdb::Value probe(const char* fen) {
  const Expected<Position> p = parse_fen(fen);
  REQUIRE(p.has_value());
  const std::optional<egdb::Value> v = database(4)->probe(*p);
  REQUIRE(v.has_value());
  return *v;
}

// The endgame database hits of a depth-3 analysis of p.
std::uint64_t tbhits(Engine& e, const Position& p) {
  REQUIRE(e.set_position(p));
  SearchLimits limits;
  limits.depth = 3;
  std::uint64_t hits = 0;
  e.search(limits, GoMode::Analyze, [&](const SearchInfo& i) { hits = std::max(hits, i.tbhits); });
  return hits;
}

// ---- An independent solver: every placement of up to 3 pieces, solved level by level -----

struct BruteKey {
  Bitboard white, black, kings;
  Color stm;
  auto operator<=>(const BruteKey&) const = default;
};
BruteKey key_of(const Position& p) {
  return {p.pieces(Color::White), p.pieces(Color::Black), p.kings(), p.side_to_move()};
}

// Every position with 1..max pieces (a side may have none), men off their crowning rows, of `variant`.
void enumerate(int max, Variant variant, std::vector<Position>& out) {
  struct Rec {
    static void place(int left, int from, Bitboard w, Bitboard b, Bitboard k, Variant v,
                      std::vector<Position>& out) {
      if (w | b)
        for (Color c : {Color::White, Color::Black})
          out.push_back(Position::from_pieces(w, b, k, c).with_variant(v));
      if (left == 0) return;
      for (int n = from; n <= 32; ++n) {
        const Bitboard s = bb(square_from_number(n));
        for (int kind = 0; kind < 4; ++kind) {
          const bool white = kind % 2 == 0, king = kind >= 2;
          if (!king && (s & (white ? kWhitePromotionRow : kBlackPromotionRow))) continue;
          place(left - 1, n + 1, white ? w | s : w, white ? b : b | s, king ? k | s : k, v, out);
        }
      }
    }
  };
  Rec::place(max, 1, 0, 0, 0, variant, out);
}

// The values of every position with up to `max` pieces under `variant`'s moves, solved forwards
// level by level over the whole game graph (no un-moves, no slices, no files).
std::map<BruteKey, egdb::Value> brute_force(int max, Variant variant = Variant::Brazilian) {
  std::vector<Position> all;
  enumerate(max, variant, all);
  std::map<BruteKey, std::size_t> id;
  for (std::size_t i = 0; i < all.size(); ++i) id.emplace(key_of(all[i]), i);
  std::vector<std::vector<std::size_t>> children(all.size());
  MoveList moves;
  for (std::size_t i = 0; i < all.size(); ++i) {
    generate_legal_moves(all[i], moves);
    for (const Move& m : moves) children[i].push_back(id.at(key_of(all[i].after(m))));
  }
  std::vector<int> level(all.size(), -1);  // distance once known
  for (int l = 0;; ++l) {
    std::vector<std::size_t> settled;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (level[i] >= 0) continue;
      bool done = false;
      if (l % 2 == 1) {  // a win: some move to a loss in l - 1
        for (std::size_t c : children[i]) done = done || level[c] == l - 1;
      } else {  // a loss: every move to a known win, the longest in l - 1
        int longest = -1;
        bool all_wins = true;
        for (std::size_t c : children[i]) {
          all_wins = all_wins && level[c] >= 0 && level[c] % 2 == 1;
          longest = std::max(longest, level[c]);
        }
        done = all_wins && longest == l - 1;
      }
      if (done) settled.push_back(i);
    }
    if (settled.empty()) break;
    for (std::size_t i : settled) level[i] = l;
  }
  std::map<BruteKey, egdb::Value> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    out[key_of(all[i])] =
        level[i] < 0 ? egdb::Value{} : egdb::Value{level[i] % 2 ? egdb::Wdl::Win : egdb::Wdl::Loss, level[i]};
  return out;
}

}  // namespace

TEST_CASE("egdb: the numbering of a slice covers each position once", "[egdb]") {
  for (const egdb::Material m :
       {egdb::Material{0, 1, 0, 2}, egdb::Material{2, 0, 1, 0}, egdb::Material{1, 1, 1, 0}}) {
    const egdb::SliceIndex index(m);
    std::uint64_t valid = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const std::optional<Position> p = index.position_of(i, Color::Black);
      if (!p) continue;
      ++valid;
      REQUIRE(index.index_of(*p) == i);
      REQUIRE(egdb::material_of(*p) == m);
      REQUIRE((p->men(Color::White) & kWhitePromotionRow) == 0);
      REQUIRE((p->men(Color::Black) & kBlackPromotionRow) == 0);
    }
    // Placements counted by hand: kings anywhere free, men off their crowning rows.
    if (m == egdb::Material{0, 1, 0, 2}) CHECK(valid == 32 * (31 * 30 / 2));
    // Two white men on 5-32 and a black man on 1-28 on another square.
    if (m == egdb::Material{2, 0, 1, 0}) CHECK(valid == 4 * (28 * 27 / 2) + 24 * (28 * 27 / 2 - 27));
    if (m == egdb::Material{1, 1, 1, 0}) CHECK(valid == (4 * 28 + 24 * 27) * 30);
  }
}

namespace {

// Every position of the 3-piece databases of `variant` probes to the independent solver's value.
void check_against_brute_force(Variant variant, const std::shared_ptr<const egdb::Database>& db) {
  INFO(to_string(variant));
  const std::map<BruteKey, egdb::Value> truth = brute_force(3, variant);
  egdb::ProbeCache cache, brazilian_cache;  // one per game: a key does not say the game
  std::uint64_t compared = 0, differ_from_brazilian = 0;
  for (const egdb::Material& m : egdb::slices_up_to(3)) {
    const egdb::SliceIndex index(m, variant);
    for (Color stm : {Color::White, Color::Black})
      for (std::uint64_t i = 0; i < index.size(); ++i) {
        const std::optional<Position> p = index.position_of(i, stm);
        if (!p) continue;
        REQUIRE(p->variant() == variant);
        const std::optional<egdb::Value> v = db->probe(*p, &cache);
        REQUIRE(v.has_value());
        INFO(to_fen(*p));
        REQUIRE(*v == truth.at(key_of(*p)));
        ++compared;
        if (variant != Variant::Brazilian)
          differ_from_brazilian +=
              database(3)->probe(p->with_variant(Variant::Brazilian), &brazilian_cache) != *v;
      }
  }
  CHECK(compared == 6976 + 392064);
  // Where the rules differ, so do the values: men that capture forward only change many; a man
  // crowned during a capture (Russian) a few. Pool differs from Brazilian only in its free choice,
  // which up to 3 pieces never changes a value (with one piece against two, the longest capture
  // takes everything and is among the free choices too), so its values are the Brazilian ones.
  const rules::Table& rules = rules::of(variant);
  UNSCOPED_INFO("values unlike the Brazilian ones: " << differ_from_brazilian);
  if (variant == Variant::Brazilian) return;
  if (!rules.men_capture_backward) CHECK(differ_from_brazilian > 1000);
  else if (rules.crown_mid_capture) CHECK(differ_from_brazilian > 0);
  else CHECK(differ_from_brazilian == 0);
}

}  // namespace

TEST_CASE("egdb: every value up to 3 pieces matches an independent solver", "[egdb]") {
  check_against_brute_force(Variant::Brazilian, database(3));
}

TEST_CASE("egdb: every value up to 3 pieces of every other game matches the independent solver", "[egdb]") {
  for (const Variant variant : kVariants) {
    if (variant == Variant::Brazilian) continue;
    const auto db = egdb::Database::open(built(3, variant), 3);
    REQUIRE(db.has_value());
    REQUIRE((*db)->variant() == variant);
    check_against_brute_force(variant, *db);
  }
}

TEST_CASE("egdb: the 4-piece databases agree with their moves (verify)", "[egdb]") {
  const Expected<std::uint64_t> n = egdb::verify(built(4), 4, 2);
  REQUIRE(n.has_value());
  CHECK(*n == 12817672);
}

TEST_CASE("egdb: king against king is a draw", "[egdb]") {
  CHECK(probe("W:WK1:BK32").wdl == egdb::Wdl::Draw);
  CHECK(probe("B:WK1:BK32").wdl == egdb::Wdl::Draw);
}

TEST_CASE("egdb: three kings against a king holding the long diagonal draw", "[egdb]") {
  CHECK(probe("B:WK1,K2,K3:BK22").wdl == egdb::Wdl::Draw);
  CHECK(probe("W:WK1,K2,K3:BK22").wdl == egdb::Wdl::Draw);
}

TEST_CASE("egdb: three kings win when the long diagonal is theirs", "[egdb]") {
  const egdb::Value v = probe("B:WK22,K1,K3:BK32");
  CHECK(v.wdl == egdb::Wdl::Loss);
  CHECK(v.plies == 20);
}

TEST_CASE("egdb: a man that cannot be stopped crowns and wins against a lone man", "[egdb]") {
  const egdb::Value v = probe("W:W6:B13");
  CHECK(v.wdl == egdb::Wdl::Win);
  CHECK(v.plies == 7);
  // With Black to move, Black's man is in time: a draw.
  CHECK(probe("B:W6:B13").wdl == egdb::Wdl::Draw);
}

TEST_CASE("egdb: a pending capture is resolved through the slices after it", "[egdb]") {
  // Black's king must take the white man on 18 (or lose it): the probe follows the capture.
  const Expected<Position> p = parse_fen("B:WK29,18:BK4");
  REQUIRE(p.has_value());
  REQUIRE(has_capture(*p));
  const egdb::Value v = probe("B:WK29,18:BK4");
  MoveList moves;
  generate_legal_moves(*p, moves);
  egdb::ValueFold fold;
  for (const Move& m : moves) fold.add_child(egdb::code_of(*database(4)->probe(p->after(m))));
  CHECK(egdb::code_of(v) == fold.result());
}

TEST_CASE("egdb: an interrupted build resumes to identical files", "[egdb]") {
  const fs::path dir = scratch() / "resume";
  egdb::BuildOptions o;
  o.dir = dir.string();
  o.pieces = 3;
  o.max_new_slices = 3;
  const Expected<egdb::BuildReport> first = egdb::build(o);
  REQUIRE(first.has_value());
  CHECK(first->slices_computed == 3);
  const std::size_t files =
      static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
  CHECK(files == 3);
  o.max_new_slices = 0;
  const Expected<egdb::BuildReport> second = egdb::build(o);
  REQUIRE(second.has_value());
  CHECK(second->slices_reused == 3);
  CHECK(second->slices_computed == static_cast<int>(egdb::slices_up_to(3).size()) - 3);
  for (const egdb::Material& m : egdb::slices_up_to(3)) {
    INFO(egdb::slice_name(m));
    CHECK(bytes_of(dir / egdb::file_name(m)) == bytes_of(fs::path(built(3)) / egdb::file_name(m)));
  }
}

TEST_CASE("egdb: verify reports a deliberately corrupted value", "[egdb]") {
  const fs::path dir = scratch() / "corrupt";
  fs::create_directories(dir);
  for (const egdb::Material& m : egdb::slices_up_to(3))
    fs::copy_file(fs::path(built(3)) / egdb::file_name(m), dir / egdb::file_name(m),
                  fs::copy_options::overwrite_existing);
  REQUIRE(egdb::verify(dir.string(), 3).has_value());
  // Two kings against one: the first win stored (no capture pending) made a draw.
  const egdb::Material m{0, 2, 0, 1};
  const egdb::SliceIndex index(m);
  const fs::path path = dir / egdb::file_name(m);
  Expected<egdb::SliceFile> f = egdb::SliceFile::read(path.string());
  REQUIRE(f.has_value());
  std::vector<egdb::Code> codes = f->decode_all();
  std::uint64_t i = 0;
  for (; i < index.size(); ++i) {
    const std::optional<Position> p = index.position_of(i, Color::White);
    if (p && !has_capture(*p) && codes[i] != egdb::kDrawCode) break;
  }
  REQUIRE(i < index.size());
  codes[i] = egdb::kDrawCode;
  REQUIRE(
      egdb::SliceFile::from_codes(m, Variant::Brazilian, codes, f->stats()).write(path.string()).has_value());
  const Expected<std::uint64_t> r = egdb::verify(dir.string(), 3);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(), Catch::Contains("wm0wk2bm0bk1"));
}

TEST_CASE("egdb: the reader refuses a damaged or truncated file", "[egdb]") {
  const fs::path src = fs::path(built(3)) / egdb::file_name(egdb::Material{0, 2, 0, 1});
  std::vector<std::uint8_t> data = bytes_of(src);
  const fs::path bad = scratch() / "bad.egdb";
  data[data.size() / 2] ^= 0x10;
  std::ofstream(bad, std::ios::binary)
      .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  const Expected<egdb::SliceFile> r = egdb::SliceFile::read(bad.string());
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(), Catch::Contains("checksum"));
  data.resize(20);
  std::ofstream(bad, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  CHECK_FALSE(egdb::SliceFile::read(bad.string()).has_value());
  CHECK_FALSE(egdb::SliceFile::read((scratch() / "missing.egdb").string()).has_value());
}

TEST_CASE("egdb: the engine refuses a database directory that is not there", "[egdb]") {
  Engine e;
  CHECK_FALSE(e.set_option("egdb-path", (scratch() / "nowhere").string()).has_value());
  CHECK(e.options().get("egdb-path") == "auto");
  CHECK(e.set_option("egdb-path", built(4)).has_value());
  CHECK(e.egdb_status().pieces == 4);
  CHECK(e.egdb_status().source == "egdb-path");
}

// ---- Databases with no option: the search list (egdb/discovery.h) ------------------------------

namespace {

// A directory holding the databases up to `pieces` (a copy of the built ones), made fresh.
fs::path copy_of(int pieces, const std::string& name, Variant variant = Variant::Brazilian) {
  const fs::path dir = scratch() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const egdb::Material& m : egdb::slices_up_to(pieces))
    fs::copy_file(fs::path(built(pieces, variant)) / egdb::file_name(m), dir / egdb::file_name(m));
  return dir;
}

// Sets an environment variable for one test and puts the old value back (a test binary run by
// hand runs every case in one process).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("egdb: the search list finds $DAMAS_EGDB, then the user and the installed directories", "[egdb]") {
  const fs::path home = scratch() / "home";
  const fs::path xdg = scratch() / "xdg";
  const fs::path prefix = scratch() / "prefix";
  egdb::Places places;
  places.home = home.string();
  places.exe_path = (prefix / "bin" / "damas").string();
  CHECK(egdb::user_dir(places) == (home / ".local/share/damas/egdb").string());
  CHECK(egdb::installed_dir(places) == (prefix / "share/damas/egdb").string());
  places.xdg_data_home = xdg.string();
  CHECK(egdb::user_dir(places) == (xdg / "damas/egdb").string());
  places.xdg_data_home = "relative/path";  // not absolute: ignored, as XDG says
  CHECK(egdb::user_dir(places) == (home / ".local/share/damas/egdb").string());
  places.xdg_data_home.clear();

  // Nothing anywhere: nothing found, and no error.
  fs::remove_all(home);
  fs::remove_all(prefix);
  CHECK(egdb::find_databases(places, 8).dir.empty());

  // The installed directory alone.
  fs::create_directories(prefix / "share/damas");
  fs::rename(copy_of(3, "installed"), prefix / "share/damas/egdb");
  egdb::Found f = egdb::find_databases(places, 8);
  CHECK(f.dir == egdb::installed_dir(places));
  CHECK(f.source == "installed");
  CHECK(f.pieces == 3);

  // A user directory with fewer pieces does not hide the installed one; with as many it wins.
  fs::create_directories(home / ".local/share/damas");
  fs::rename(copy_of(2, "user"), home / ".local/share/damas/egdb");
  CHECK(egdb::find_databases(places, 8).source == "installed");
  fs::remove_all(home / ".local/share/damas/egdb");
  fs::rename(copy_of(3, "user"), home / ".local/share/damas/egdb");
  f = egdb::find_databases(places, 8);
  CHECK(f.source == "user directory");
  CHECK(f.dir == egdb::user_dir(places));

  // $DAMAS_EGDB decides alone: a directory, or none at all.
  places.env_dir = copy_of(2, "variable").string();
  f = egdb::find_databases(places, 8);
  CHECK(f.source == "DAMAS_EGDB");
  CHECK(f.pieces == 2);
  places.env_dir = "none";
  CHECK(egdb::candidates(places).empty());
  CHECK(egdb::find_databases(places, 8).dir.empty());
}

TEST_CASE("egdb: on Windows the databases sit in %APPDATA%\\damas\\egdb and in egdb beside damas.exe",
          "[egdb][windows]") {
  // The places of a Windows process (platform_windows.cpp); the folders are real ones here.
  const fs::path appdata = scratch() / "appdata";
  const fs::path unzipped = scratch() / "damas-windows-x64";
  egdb::Places places;
  places.user_folder = (appdata / "damas").string();
  places.exe_path = (unzipped / "damas.exe").string();
  places.data_beside_program = true;
  CHECK(egdb::user_dir(places) == (appdata / "damas" / "egdb").string());
  CHECK(egdb::installed_dir(places) == (unzipped / "egdb").string());
  fs::remove_all(unzipped);
  fs::create_directories(unzipped);
  fs::rename(copy_of(3, "zip"), unzipped / "egdb");
  const egdb::Found f = egdb::find_databases(places, 8);
  CHECK(f.dir == (unzipped / "egdb").string());
  CHECK(f.source == "installed");
  CHECK(f.pieces == 3);
  fs::remove_all(unzipped);
}

TEST_CASE("egdb: the engine finds databases with no option, and egdb-path=none turns them off", "[egdb]") {
  const ScopedEnv variable("DAMAS_EGDB", copy_of(3, "found").string());
  Engine e;
  CHECK(e.options().get("egdb-path") == "auto");
  const EgdbStatus found = e.egdb_status();
  CHECK(found.pieces == 3);
  CHECK(found.source == "DAMAS_EGDB");
  CHECK(found.problems.empty());
  CHECK_THAT(found.text(), Catch::Contains("up to 3 pieces in"));
  const Position kings = *parse_fen("W:WK1,K2:BK32");
  CHECK(tbhits(e, kings) > 0);
  REQUIRE(e.set_option("egdb-path", "none").has_value());
  CHECK(e.egdb_status().pieces == 0);
  CHECK(e.egdb_status().text() == "endgame databases: none (egdb-path=none)");
  CHECK(tbhits(e, kings) == 0);
  REQUIRE(e.set_option("egdb-path", "auto").has_value());
  CHECK(e.egdb_status().pieces == 3);
  // Capped by egdb-pieces.
  REQUIRE(e.set_option("egdb-pieces", "2").has_value());
  CHECK(e.egdb_status().pieces == 2);
}

TEST_CASE("egdb: a damaged file in a found directory is left out with a message, the engine plays on",
          "[egdb]") {
  const fs::path dir = copy_of(3, "damaged");
  const egdb::Material broken{0, 2, 0, 1};  // two kings against one
  {
    std::vector<std::uint8_t> data = bytes_of(dir / egdb::file_name(broken));
    data.resize(data.size() / 2);  // truncated
    std::ofstream(dir / egdb::file_name(broken), std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  }
  const ScopedEnv variable("DAMAS_EGDB", dir.string());
  Engine e;
  const EgdbStatus status = e.egdb_status();
  CHECK(status.pieces == 3);
  REQUIRE(status.problems.size() == 1);
  CHECK_THAT(status.problems[0], Catch::Contains(egdb::file_name(broken)));
  CHECK_THAT(status.problems[0], Catch::Contains("left out"));
  // A position of the damaged slice is searched (its own value unknown), one of another slice is
  // known to the end.
  SearchLimits limits;
  limits.depth = 4;
  REQUIRE(e.set_position(*parse_fen("W:WK1,K2:BK32")));
  SearchResult r = e.search(limits, GoMode::Analyze);
  CHECK_FALSE(r.best.is_null());
  CHECK_FALSE(is_win_score(r.score));
  REQUIRE(e.set_position(*parse_fen("W:W6:B13")));  // a man crowns first and wins in 7 plies
  r = e.search(limits, GoMode::Analyze);
  CHECK(r.score == win_in(7));
  // The same directory named by egdb-path is refused with the file named.
  const Status named = e.set_option("egdb-path", dir.string());
  REQUIRE_FALSE(named.has_value());
  CHECK_THAT(named.error(), Catch::Contains(egdb::file_name(broken)));
}

TEST_CASE("egdb: the engine converts a won position of every 4-piece slice", "[egdb]") {
  const auto db = database(4);
  Engine engine;
  REQUIRE(engine.set_option("egdb-path", built(4)).has_value());
  SearchLimits limits;
  limits.depth = 4;
  int converted = 0;
  for (const egdb::Material& m : egdb::slices_up_to(4)) {
    if (m.pieces() != 4) continue;
    // The longest win of the slice with White to move (no capture pending).
    const egdb::SliceIndex index(m);
    const std::vector<egdb::Code> codes = db->slices().at(m).decode_all();
    std::optional<Position> start;
    int longest = -1;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const egdb::Value v = egdb::value_of(codes[i]);
      if (v.wdl != egdb::Wdl::Win || v.plies <= longest) continue;
      const std::optional<Position> p = index.position_of(i, Color::White);
      if (!p || has_capture(*p)) continue;
      longest = v.plies;
      start = p;
    }
    if (!start) continue;
    INFO(to_fen(*start) << " win in " << longest);
    Game game(*start);
    std::uint64_t hits = 0;
    engine.new_game();
    while (!game.over()) {
      REQUIRE(engine.set_position(game.start(), game.moves()).has_value());
      const SearchResult r =
          engine.search(limits, GoMode::Think, [&](const SearchInfo& i) { hits = std::max(hits, i.tbhits); });
      REQUIRE(game.play(r.best).has_value());
    }
    CHECK(game.result() == GameResult::WhiteWins);
    CHECK(game.moves().size() == static_cast<std::size_t>(longest));
    CHECK(hits > 0);
    ++converted;
  }
  CHECK(converted >= 20);
}

// ---- Cluster builds ---------------------------------------------------------------------------

namespace {

// Ranks as threads of this process: the cluster build tested without MPI (and under the
// sanitizers, which build without MPI).
class Mailboxes {
 public:
  explicit Mailboxes(int ranks) : ranks_(ranks), boxes_(static_cast<std::size_t>(ranks * ranks)) {}
  void put(int from, int to, egdb::Bytes bytes) {
    const std::lock_guard<std::mutex> lock(mutex_);
    box(from, to).push_back(std::move(bytes));
    ready_.notify_all();
  }
  egdb::Bytes take(int from, int to) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return !box(from, to).empty(); });
    egdb::Bytes bytes = std::move(box(from, to).front());
    box(from, to).pop_front();
    return bytes;
  }

 private:
  std::deque<egdb::Bytes>& box(int from, int to) {
    return boxes_[static_cast<std::size_t>(from * ranks_ + to)];
  }
  int ranks_;
  std::vector<std::deque<egdb::Bytes>> boxes_;
  std::mutex mutex_;
  std::condition_variable ready_;
};

class ThreadRank final : public egdb::Cluster {
 public:
  ThreadRank(Mailboxes& boxes, int rank, int size) : boxes_(boxes), rank_(rank), size_(size) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void send(int to, const egdb::Bytes& bytes) override { boxes_.put(rank_, to, bytes); }
  egdb::Bytes receive(int from) override { return boxes_.take(from, rank_); }
  void broadcast(int root, egdb::Bytes& bytes) override {
    if (rank_ != root) bytes = boxes_.take(root, rank_);
    else
      for (int r = 0; r < size_; ++r)
        if (r != root) boxes_.put(rank_, r, bytes);
  }

 private:
  Mailboxes& boxes_;
  int rank_, size_;
};

// build_on_cluster() on `ranks` threads; every rank's result.
std::vector<Expected<egdb::BuildReport>> build_on_threads(const egdb::BuildOptions& o, int ranks) {
  Mailboxes boxes(ranks);
  std::vector<std::optional<Expected<egdb::BuildReport>>> results(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      ThreadRank rank(boxes, r, ranks);
      results[static_cast<std::size_t>(r)] = egdb::build_on_cluster(o, rank);
    });
  for (std::thread& t : threads) t.join();
  std::vector<Expected<egdb::BuildReport>> out;
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

// Every slice file up to `pieces` in dir is byte for byte the single-process build's.
void check_same_files(const fs::path& dir, int pieces) {
  for (const egdb::Material& m : egdb::slices_up_to(pieces)) {
    INFO(egdb::slice_name(m));
    REQUIRE(fs::exists(dir / egdb::file_name(m)));
    CHECK(bytes_of(dir / egdb::file_name(m)) == bytes_of(fs::path(built(pieces)) / egdb::file_name(m)));
  }
}

}  // namespace

TEST_CASE("egdb: a slice's positions are the numbers that place no two men on one square", "[egdb]") {
  for (const egdb::Material& m : egdb::slices_up_to(4)) {
    INFO(egdb::slice_name(m));
    const Expected<egdb::SliceFile> f =
        egdb::SliceFile::read((fs::path(built(4)) / egdb::file_name(m)).string());
    REQUIRE(f.has_value());
    CHECK(egdb::SliceIndex(m).positions() == f->stats()[0].positions);
    CHECK(egdb::SliceIndex(m).positions() == f->stats()[1].positions);
  }
}

TEST_CASE("egdb: every move leaving a slice leads into one of its dependencies", "[egdb]") {
  MoveList moves;
  for (const egdb::Material& m : egdb::slices_up_to(4)) {
    const egdb::SliceIndex index(m);
    const std::vector<egdb::Material> deps = egdb::dependencies(m);
    for (std::uint64_t i = 0; i < index.size(); i += 3)
      for (Color stm : {Color::White, Color::Black}) {
        const std::optional<Position> p = index.position_of(i, stm);
        if (!p) continue;
        generate_legal_moves(*p, moves);
        for (const Move& mv : moves) {
          const Position q = p->after(mv);
          const egdb::Material c = egdb::material_of(q);
          if (c == m || !q.pieces(Color::White) || !q.pieces(Color::Black)) continue;
          if (std::find(deps.begin(), deps.end(), c) == deps.end())
            FAIL(to_fen(*p) + " leads into " + egdb::slice_name(c));
        }
      }
  }
}

TEST_CASE("egdb: the build waves put every dependency in an earlier wave", "[egdb]") {
  const std::vector<std::vector<egdb::Material>> waves = egdb::build_waves(5);
  std::map<egdb::Material, std::size_t> wave_of;
  for (std::size_t w = 0; w < waves.size(); ++w)
    for (const egdb::Material& m : waves[w]) wave_of[m] = w;
  CHECK(wave_of.size() == egdb::slices_up_to(5).size());
  for (const auto& [m, w] : wave_of)
    for (const egdb::Material& d : egdb::dependencies(m)) {
      INFO(egdb::slice_name(m) + " needs " + egdb::slice_name(d));
      REQUIRE(wave_of.count(d));
      CHECK(wave_of.at(d) < w);
    }
  // Slices of one wave are solved side by side: the kings-only slices do not wait for the men.
  CHECK(waves.size() < egdb::slices_up_to(5).size() / 4);
}

TEST_CASE("egdb: a cluster build on three ranks writes the files of the single-process build", "[egdb]") {
  egdb::BuildOptions o;
  o.dir = (scratch() / "threads3").string();
  o.pieces = 3;
  const std::vector<Expected<egdb::BuildReport>> results = build_on_threads(o, 3);
  for (const Expected<egdb::BuildReport>& r : results) {
    REQUIRE(r.has_value());
    CHECK(r->slices_computed == static_cast<int>(egdb::slices_up_to(3).size()));
    CHECK(r->positions == results[0]->positions);
    CHECK(r->bytes == results[0]->bytes);
  }
  check_same_files(o.dir, 3);
}

TEST_CASE("egdb: a cluster build reuses sound files and rebuilds a damaged one", "[egdb]") {
  const fs::path dir = scratch() / "threads-resume";
  fs::create_directories(dir);
  const std::vector<egdb::Material> slices = egdb::slices_up_to(3);
  for (std::size_t k : {0, 1, 5})
    fs::copy_file(fs::path(built(3)) / egdb::file_name(slices[k]), dir / egdb::file_name(slices[k]));
  std::ofstream(dir / egdb::file_name(slices[2]), std::ios::binary) << "not a slice file";
  egdb::BuildOptions o;
  o.dir = dir.string();
  o.pieces = 3;
  for (const Expected<egdb::BuildReport>& r : build_on_threads(o, 2)) {
    REQUIRE(r.has_value());
    CHECK(r->slices_reused == 3);
    CHECK(r->slices_computed == static_cast<int>(slices.size()) - 3);
  }
  check_same_files(dir, 3);
}

// Registered in tests/CMakeLists.txt (ctest marks it skipped when mpirun is absent).
TEST_CASE("egdb: a cluster build under mpirun -np 3 writes the files of the single-process build",
          "[.][mpi]") {
  const fs::path dir = scratch() / "mpi";
  const fs::path log = scratch() / "mpi.log";
  const std::string build = std::string(DAMAS_BINARY) + " egdb build --pieces 4 --mpi --dir " + dir.string() +
                            " >" + log.string() + " 2>&1";
  if (!egdb::mpi_built()) {
    const int status = std::system(build.c_str());
    CHECK(WEXITSTATUS(status) == 2);
    const std::vector<std::uint8_t> out = bytes_of(log);
    CHECK_THAT(std::string(out.begin(), out.end()), Catch::Contains("built without MPI"));
    return;
  }
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) {
    std::cout << "SKIPPED: mpirun not found (tools/install-deps installs openmpi-bin)\n";
    return;
  }
  // Shared memory only between the ranks, no network.
  const int status = std::system(
      ("mpirun --allow-run-as-root --oversubscribe -np 3 --mca btl self,vader --mca oob_tcp_if_include lo " +
       build)
          .c_str());
  const std::vector<std::uint8_t> out = bytes_of(log);
  INFO(std::string(out.begin(), out.end()));
  REQUIRE(WEXITSTATUS(status) == 0);
  CHECK_THAT(std::string(out.begin(), out.end()), Catch::Contains("on 3 MPI ranks"));
  check_same_files(dir, 4);
}

TEST_CASE("egdb: the Brazilian databases are never probed in a Russian game", "[egdb][russian]") {
  const Position brazilian = *parse_fen("W:WK1,K2:BK32");
  const Position russian = brazilian.with_variant(Variant::Russian);
  const auto db = database(3);
  REQUIRE(db->probe(brazilian).has_value());
  CHECK_FALSE(db->probe(russian).has_value());
  CHECK_FALSE(db->probe_code(russian).has_value());
  // Nor by the search: no hit in a Russian game, many in the same Brazilian one.
  Engine e;
  REQUIRE(e.set_option("egdb-path", built(3)).has_value());
  CHECK(tbhits(e, brazilian) > 0);
  CHECK(tbhits(e, russian) == 0);
}

namespace {

constexpr std::size_t kVersionAt = 8, kVariantAt = 12;  // after the magic; after the version

}  // namespace

TEST_CASE("egdb (russian): a slice file says its variant and is read as that variant only",
          "[egdb][russian]") {
  const std::string dir = built(3, Variant::Russian);
  const egdb::Material m{0, 2, 0, 1};
  const Expected<egdb::SliceFile> f = egdb::SliceFile::read(egdb::slice_path(dir, m));
  REQUIRE(f.has_value());
  CHECK(f->variant() == Variant::Russian);
  CHECK(f->bytes() == fs::file_size(egdb::slice_path(dir, m)));
  const Expected<Variant> held = egdb::variant_of_dir(dir);
  REQUIRE(held.has_value());
  CHECK(*held == Variant::Russian);
  const Expected<egdb::SliceFile> as_brazilian = egdb::SliceFile::read_slice(dir, m, Variant::Brazilian);
  REQUIRE_FALSE(as_brazilian.has_value());
  CHECK_THAT(as_brazilian.error(), Catch::Contains("holds russian values, not brazilian"));
  CHECK(egdb::SliceFile::read_slice(built(3), m, Variant::Brazilian).has_value());
}

TEST_CASE(
    "egdb (russian): every value agrees with the Russian moves, and only Russian positions are answered",
    "[egdb][russian]") {
  const std::string dir = built(3, Variant::Russian);
  const Expected<std::uint64_t> checked = egdb::verify(dir, 3);
  REQUIRE(checked.has_value());
  // The same positions as the Brazilian set: the numbering does not depend on the rules.
  CHECK(*checked == egdb::verify(built(3), 3).value());
  const auto db = egdb::Database::open(dir, 3);
  REQUIRE(db.has_value());
  CHECK((*db)->variant() == Variant::Russian);
  const Position kings = *parse_fen("W:WK1,K2:BK32");
  CHECK((*db)->probe(kings.with_variant(Variant::Russian)).has_value());
  CHECK_FALSE((*db)->probe(kings).has_value());
}

TEST_CASE("egdb: a version 1 file, from before the variant byte, is read as Brazilian", "[egdb]") {
  const fs::path dir = copy_of(2, "version1");
  for (const egdb::Material& m : egdb::slices_up_to(2))
    rewrite_slice_file(dir / egdb::file_name(m), [](std::vector<std::uint8_t>& data) {
      REQUIRE(data[kVariantAt] == 26);  // Brazilian's PDN GameType
      data.erase(data.begin() + kVariantAt);
      put_le(&data[kVersionAt], egdb::kBrazilianOnlyFileVersion, 4);
    });
  const egdb::Material m{0, 1, 0, 1};
  const Expected<egdb::SliceFile> f = egdb::SliceFile::read((dir / egdb::file_name(m)).string());
  REQUIRE(f.has_value());
  CHECK(f->variant() == Variant::Brazilian);
  CHECK(f->bytes() == fs::file_size(dir / egdb::file_name(m)));
  REQUIRE(egdb::verify(dir.string(), 2).has_value());
  const auto db = egdb::Database::open(dir.string(), 2);
  REQUIRE(db.has_value());
  const Position p = *parse_fen("W:WK1:BK32");
  CHECK((*db)->probe(p) == database(2)->probe(p));
}

TEST_CASE("egdb: a slice file of an unknown variant is refused", "[egdb]") {
  const fs::path dir = copy_of(2, "unknown-variant");
  const fs::path path = dir / egdb::file_name(egdb::Material{0, 1, 0, 1});
  rewrite_slice_file(path, [](std::vector<std::uint8_t>& data) { data[kVariantAt] = 20; });  // 10x10
  const Expected<egdb::SliceFile> f = egdb::SliceFile::read(path.string());
  REQUIRE_FALSE(f.has_value());
  CHECK_THAT(f.error(), Catch::Contains("unknown variant (PDN GameType 20)"));
}

TEST_CASE("egdb (russian): a build into a directory of Brazilian databases is refused", "[egdb][russian]") {
  const fs::path dir = copy_of(2, "brazilian-there");
  egdb::BuildOptions o;
  o.dir = dir.string();
  o.variant = Variant::Russian;
  o.pieces = 3;
  const Expected<egdb::BuildReport> r = egdb::build(o);
  REQUIRE_FALSE(r.has_value());
  CHECK_THAT(r.error(),
             Catch::Contains("holds brazilian databases: build the russian ones into another directory"));
  CHECK(egdb::variant_of_dir(dir.string()).value() == Variant::Brazilian);
  CHECK(egdb::complete_pieces(dir.string()) == 2);  // nothing written
}

TEST_CASE("egdb (russian): the engine finds the Russian set in the subdirectory of its name",
          "[egdb][russian]") {
  const fs::path dir = copy_of(3, "both-games");
  fs::rename(copy_of(3, "russian-set", Variant::Russian), dir / "russian");
  const ScopedEnv variable("DAMAS_EGDB", dir.string());
  Engine e;
  CHECK(e.egdb_status().dir == dir.string());
  REQUIRE(e.set_option("variant", "russian").has_value());
  CHECK(e.egdb_status().dir == (dir / "russian").string());
  CHECK_THAT(e.egdb_status().text(), Catch::Contains("endgame databases (russian): up to 3 pieces in"));
  const Position russian = parse_fen("W:WK1,K2:BK32")->with_variant(Variant::Russian);
  CHECK(tbhits(e, russian) > 0);
  // The Brazilian set named by egdb-path in a Russian game: kept for a change back, not probed.
  REQUIRE(e.set_option("egdb-path", dir.string()).has_value());
  CHECK(e.egdb_status().pieces == 0);
  REQUIRE(e.egdb_status().problems.size() == 1);
  CHECK_THAT(e.egdb_status().problems[0],
             Catch::Contains("holds brazilian databases, not used in a russian game"));
  CHECK(tbhits(e, russian) == 0);
  REQUIRE(e.set_option("variant", "brazilian").has_value());
  CHECK(e.egdb_status().pieces == 3);
}

TEST_CASE("egdb (russian): a man crowned during a capture goes on as a king, and the values follow",
          "[egdb][russian]") {
  // 9x2 takes 6 and reaches the far row. Russian: crowned at once, the king takes 11 too and Black
  // has nothing left. Brazilian: the man stops on 2, crowned, and wins the man on 11 later.
  const Position p = *parse_fen("W:W9:B6,11");
  const auto russian = egdb::Database::open(built(3, Variant::Russian), 3);
  REQUIRE(russian.has_value());
  CHECK((*russian)->probe(p.with_variant(Variant::Russian)) == egdb::Value{egdb::Wdl::Win, 1});
  CHECK(database(3)->probe(p) == egdb::Value{egdb::Wdl::Win, 7});
}

TEST_CASE("egdb: the engine finds each game's set in the subdirectory of its name", "[egdb]") {
  const fs::path dir = copy_of(2, "every-game");
  const ScopedEnv variable("DAMAS_EGDB", dir.string());
  for (const Variant variant : kVariants) {
    if (variant == Variant::Brazilian) continue;
    const std::string name(to_string(variant));
    INFO(name);
    fs::rename(copy_of(3, name + "-set", variant), dir / name);
    Engine e;
    REQUIRE(e.set_option("variant", name).has_value());
    CHECK(e.egdb_status().dir == (dir / name).string());
    CHECK(e.egdb_status().pieces == 3);
    CHECK_THAT(e.egdb_status().text(),
               Catch::Contains("endgame databases (" + name + "): up to 3 pieces in"));
    CHECK(tbhits(e, *parse_fen("W:WK1,K2:BK32", variant)) > 0);
  }
}

TEST_CASE("egdb probe: a FEN is read in the numbers of the databases' game", "[egdb]") {
  // Spanish numbers run from White's near-right corner: White's man on 28 is one step from
  // crowning, Black's king on 1 sits in White's corner. In the standard numbers the same text
  // puts the man at the start of its way and the king in Black's corner.
  const std::string dir = built(3, Variant::Spanish);
  const char* fen = "W:W28:BK1";
  const auto db = egdb::Database::open(dir, 3);
  REQUIRE(db.has_value());
  const std::optional<egdb::Value> spanish = (*db)->probe(*parse_fen(fen, Variant::Spanish));
  const std::optional<egdb::Value> misread = (*db)->probe(parse_fen(fen)->with_variant(Variant::Spanish));
  REQUIRE(spanish.has_value());
  REQUIRE(misread.has_value());
  REQUIRE(*spanish != *misread);  // the test tells the two readings apart
  const auto text = [](const egdb::Value& v) {
    if (v.wdl == egdb::Wdl::Draw) return std::string("draw\n");
    return std::string(v.wdl == egdb::Wdl::Win ? "win" : "loss") + " in " + std::to_string(v.plies) +
           " plies\n";
  };
  std::string out;
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " egdb probe --dir " + dir + " --fen " + fen, out) ==
          0);
  CHECK(out == text(*spanish));
}
