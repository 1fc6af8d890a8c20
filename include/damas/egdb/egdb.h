// Endgame databases: every position with few pieces solved by perfect play under one variant's
// rules, one material slice (white men, white kings, black men, black kings) per file. Each file
// says its variant; a database answers only for positions of that variant.
//
// Values are for the side to move and carry the distance to the end of the game in plies with
// the winner hurrying and the loser delaying (the loser is left without a legal move after that
// many plies). Wins have odd distances, losses even ones; "loss in 0" is no legal move. The
// distance ignores the 80-ply no-progress law: it is what the engine needs to make progress
// (every move along it shortens it), see bench/egdb.md.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "damas/core/draw_rules.h"
#include "damas/core/expected.h"
#include "damas/core/position.h"
#include "damas/egdb/huffman.h"

namespace damas::egdb {

// ---- Material and indexing ------------------------------------------------------------------

struct Material {
  int wm = 0, wk = 0, bm = 0, bk = 0;
  int pieces() const { return wm + wk + bm + bk; }
  int men() const { return wm + bm; }
  auto operator<=>(const Material&) const = default;
};

Material material_of(const Position& p);
std::string slice_name(const Material& m);                          // "wm1wk0bm0bk1"
std::string file_name(const Material& m);                           // "wm1wk0bm0bk1.egdb"
std::string slice_path(const std::string& dir, const Material& m);  // dir/file_name(m)
// Every slice with 2..pieces pieces (both sides having one), in build order: fewer pieces
// first, then fewer men (a crowning leads into a slice with one man fewer).
std::vector<Material> slices_up_to(int pieces);

// Positions of one slice and one side to move are numbered 0..size()-1: white men on 5-32,
// black men on 1-28 (each as a combination), then white and black kings on the squares left.
// Numbers where a white and a black man share a square are placements of no position.
class SliceIndex {
 public:
  // The numbering is the same for every variant; the positions it gives are of `variant`.
  explicit SliceIndex(const Material& m, Variant variant = Variant::Brazilian);
  const Material& material() const { return material_; }
  Variant variant() const { return variant_; }
  std::uint64_t size() const { return size_; }  // per side to move
  // The numbers that are placements of a position (no two men on one square), per side to move.
  std::uint64_t positions() const;
  // The number of p (its material must be this slice's).
  std::uint64_t index_of(const Position& p) const;
  // The position of a number, or nullopt for a number that places two men on one square.
  std::optional<Position> position_of(std::uint64_t index, Color side_to_move) const;
  // The numbers of both sides in one range (the builder's, the files'): White to move's
  // 0..size()-1, then Black to move's.
  Color side_at(std::uint64_t number) const { return number < size_ ? Color::White : Color::Black; }
  std::optional<Position> position_at(std::uint64_t number) const {
    return position_of(number % size_, side_at(number));
  }

 private:
  Material material_;
  Variant variant_ = Variant::Brazilian;
  std::uint64_t size_ = 0;
  std::uint64_t n_bm_ = 0, n_wk_ = 0, n_bk_ = 0;  // radices of the mixed-radix number
};

// ---- Values -----------------------------------------------------------------------------------

// One byte per position: 0 = draw, otherwise 1 + distance in plies (odd distance: win).
using Code = std::uint8_t;
inline constexpr Code kDrawCode = 0;
inline constexpr int kMaxDistance = 254;

enum class Wdl { Loss, Draw, Win };
struct Value {
  Wdl wdl = Wdl::Draw;
  int plies = 0;  // to the end of the game (wins and losses)
  bool operator==(const Value&) const = default;
};
Value value_of(Code c);
Code code_of(const Value& v);
// The value of a position from the codes of the positions after each legal move (its children,
// seen from the opponent): the rule both the build and verify apply.
class ValueFold {
 public:
  void add_child(Code child);
  Code result() const;  // no child at all: loss in 0

 private:
  int win_ = -1;   // shortest win found (our plies)
  int loss_ = -1;  // longest loss found
  bool draw_ = false;
  bool any_ = false;
};

// Counts of one slice and side to move (placements of real positions only).
struct SideStats {
  std::uint64_t positions = 0, win = 0, draw = 0, loss = 0;
  int longest = -1;  // most plies to a win, -1 when no position is won
};

// ---- Slice files --------------------------------------------------------------------------------

// A solved slice as stored: codes of both sides to move as tokens (a code, or a run of the last
// code) in one canonical Huffman code per slice, by blocks of kBlockSize positions with a block
// index, so one probe decodes at most one block. Format (little-endian): magic "DAMASEGD",
// version, the variant as its PDN GameType number (one byte), material, size per side, block
// size, block count, stats per side, code lengths of the tokens, block bit offsets, payload size,
// payload, FNV-1a 64 checksum of all bytes before. Version 1 files (before the variant byte) are
// read as Brazilian, the only game they were built for.
inline constexpr std::uint32_t kFileVersion = 2;
inline constexpr std::uint32_t kBrazilianOnlyFileVersion = 1;
inline constexpr std::uint32_t kBlockSize = 4096;

// How much of a slice file read() decodes. Every: each block must decode to its count of
// positions (the builder, verify, info). WhenProbed: the header, the block index and the checksum
// only; a block is decoded when a probe reaches it, and a malformed one gives no value. The engine
// opens its databases so: decoding every block of the 6-piece set at start took 30 s.
enum class BlockCheck { Every, WhenProbed };

class SliceFile {
 public:
  // Compresses codes (2 * index.size(): White to move first). Don't-care entries (numbers of no
  // position) are coded as whatever keeps runs long.
  static SliceFile from_codes(const Material& m, Variant variant, const std::vector<Code>& codes,
                              const std::array<SideStats, 2>& stats);
  static Expected<SliceFile> read(const std::string& path, BlockCheck check = BlockCheck::Every);
  // The file of slice m of `variant` in dir; a file that holds another slice or another
  // variant's values is refused too.
  static Expected<SliceFile> read_slice(const std::string& dir, const Material& m, Variant variant,
                                        BlockCheck check = BlockCheck::Every);
  Status write(const std::string& path) const;  // temp file + rename

  const Material& material() const { return material_; }
  Variant variant() const { return variant_; }
  std::uint64_t size_per_side() const { return size_; }
  const std::array<SideStats, 2>& stats() const { return stats_; }
  std::uint64_t bytes() const;  // file size
  // Nullopt when the position's block is malformed (possible only if read WhenProbed).
  std::optional<Code> code_at(std::uint64_t index, Color side_to_move) const;
  std::vector<Code> decode_all() const;

 private:
  std::vector<std::uint8_t> serialize() const;
  // Decodes a block whole: true when it holds its count of positions; records its checkpoints.
  bool scan_block(std::uint64_t block) const;
  bool block_checked(std::uint64_t block) const;  // scan_block, once per block
  void reset_block_states();                      // every block unchecked, no checkpoint yet
  // A probe decodes from the checkpoint before its position, not from the block's start.
  static constexpr std::uint32_t kCheckpointEvery = 512, kCheckpoints = kBlockSize / kCheckpointEvery;
  Material material_;
  Variant variant_ = Variant::Brazilian;
  std::uint32_t version_ = kFileVersion;  // as read (an older file has no variant byte)
  std::uint64_t size_ = 0;
  std::array<SideStats, 2> stats_{};
  std::vector<std::uint8_t> lengths_;   // Huffman code length of each token
  std::vector<std::uint64_t> offsets_;  // block b occupies bits [offsets_[b], offsets_[b+1])
  std::vector<std::uint8_t> payload_;
  CanonicalCode huffman_;
  // Per block: unchecked, sound or malformed (a cache of scan_block, shared by the threads), and
  // its checkpoints after the first (scan_block writes them before the state says sound).
  std::unique_ptr<std::atomic<std::uint8_t>[]> block_states_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> checkpoints_;
};

// ---- Build, verify --------------------------------------------------------------------------------

struct BuildProgress {
  Material slice;
  int slice_number = 0;  // 1-based
  int slice_count = 0;
  std::uint64_t done = 0;                     // positions of this slice done
  std::uint64_t total = 0;                    // positions of this slice (both sides)
  std::uint64_t all_done = 0, all_total = 0;  // over the slices this build computes
  double seconds = 0;                         // since the build started
};

struct BuildOptions {
  std::string dir;
  Variant variant = Variant::Brazilian;  // whose rules the values follow
  int pieces = 4;
  int threads = 1;
  int max_new_slices = 0;  // stop after computing this many slices (0 = all); resume tests
  std::function<void(const BuildProgress&)> on_progress;  // called from the building thread
};

struct BuildReport {
  int slices_computed = 0;
  int slices_reused = 0;        // already finished in dir (resume)
  std::uint64_t positions = 0;  // computed
  std::uint64_t bytes = 0;      // of all slice files up to `pieces`
  // Cluster build: this rank's CPU seconds in the first passes (spread over the ranks) and in
  // spreading the values and writing the files of the slices it owns.
  double scan_cpu_seconds = 0, solve_cpu_seconds = 0;
};

Expected<BuildReport> build(const BuildOptions& options);

// The memory `build` needs for every slice up to `pieces`: a byte per number of every slice
// (the solved ones stay for the look-ups of those after them) and the working state of the
// largest slice (code, flags, counts, the file's copy and the lists of settled numbers: about 8
// bytes a number). bench/egdb.md compares it with the builds' measured peaks.
std::uint64_t build_memory_bytes(int pieces);
std::string memory_text(std::uint64_t bytes);  // "6.98 GiB", "412.5 MiB"
// Refuses, naming both figures, a build whose need exceeds the machine's `physical_bytes`.
Status check_build_memory(int pieces, std::uint64_t physical_bytes);

// Checks every stored value of every slice up to `pieces` against its children under the rules of
// the variant its files say (they must all say the same); the first inconsistency is the error.
// Returns the number of positions checked.
Expected<std::uint64_t> verify(const std::string& dir, int pieces, int threads = 1);

// The variant whose values the slice files of dir hold: the one the first sound file says, in
// build order (smallest first).
Expected<Variant> variant_of_dir(const std::string& dir);

// The largest n <= limit such that every slice with up to n pieces has a file in dir (0: none).
int complete_pieces(const std::string& dir, int limit = 8);

// ---- Probe -----------------------------------------------------------------------------------------

// A small per-thread cache of probe results (direct-mapped on the position key).
class ProbeCache {
 public:
  ProbeCache() : entries_(kEntries) {}
  std::optional<Code> find(Key key) const;
  void store(Key key, Code c);

 private:
  static constexpr std::size_t kEntries = 1 << 14;
  struct Entry {
    Key key = 0;
    Code code = 0;
    bool used = false;
  };
  std::vector<Entry> entries_;
};

// What Database::open does with a slice file that is there but unsound (damaged, truncated,
// another slice's): refuse the whole directory (a directory the user named), or leave that slice
// out and say so in skipped() (the directories found by the search list, egdb/discovery.h).
enum class BadSlice { Refuse, Skip };

// The slice files of a directory, loaded (compressed) into memory.
class Database {
 public:
  // Loads every slice of the largest piece count n <= max_pieces whose slices (and all
  // below) are all in dir; no complete count at all is an error, an unsound file too unless
  // `bad` is Skip. Blocks are checked when probed (BlockCheck::WhenProbed).
  static Expected<std::shared_ptr<const Database>> open(const std::string& dir, int max_pieces,
                                                        BadSlice bad = BadSlice::Refuse);
  // The same, but a directory already open in this process with the same arguments is shared:
  // the many engines of `serve`, `selfplay` and `datagen` load the files once.
  static Expected<std::shared_ptr<const Database>> open_shared(const std::string& dir, int max_pieces,
                                                               BadSlice bad = BadSlice::Refuse);
  const std::string& dir() const { return dir_; }
  int max_pieces() const { return max_pieces_; }
  // The game whose values the files hold (they must all be of one: a slice of another is bad).
  Variant variant() const { return variant_; }
  // One message per slice left out (BadSlice::Skip); its positions are not probed.
  const std::vector<std::string>& skipped() const { return skipped_; }
  // The value of p for its side to move, or nullopt when p has more pieces than loaded or is
  // a position of another variant. A pending capture is resolved by probing the positions
  // after it.
  std::optional<Value> probe(const Position& p, ProbeCache* cache = nullptr) const;
  std::optional<Code> probe_code(const Position& p, ProbeCache* cache = nullptr) const;
  const std::map<Material, SliceFile>& slices() const { return slices_; }

 private:
  std::string dir_;
  int max_pieces_ = 0;
  Variant variant_ = Variant::Brazilian;
  std::map<Material, SliceFile> slices_;
  std::vector<std::string> skipped_;
};

// ---- Wins inside the draw laws ------------------------------------------------------------------

// Whether the side to move of p wins by the databases' shortest wins before a draw law of `rules`
// ends the game, whatever the defender plays: the winner keeps to moves of the shortest distance
// (any of them), the defender may play any move, and the counters start at `counters` (seed: the
// position's own count of reversible plies). A sufficient test: a win that needs a longer line
// (one that resets a count on the way) is not found. False when p is not a database win;
// nullopt when deciding it takes more than `node_budget` positions of that tree.
std::optional<bool> wins_inside_laws(const Database& db, const Position& p, DrawRules rules,
                                     const DrawCounters& counters = {},
                                     std::uint64_t node_budget = 2'000'000);

}  // namespace damas::egdb
