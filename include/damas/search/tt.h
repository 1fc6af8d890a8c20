// The transposition table: a fixed-size hash of search results shared by all search threads.
//
// Lockless: an entry is two 64-bit words (check, data) with check = key ^ data. A reader accepts
// an entry only if check ^ data equals its key, so a torn write (another thread writing the two
// words in between) reads as a miss, never as another position's data. The stored move is a
// compact tag (from, to, hash of the captured set); the search matches it against the legal
// moves, so a rare tag collision can only change move order.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/core/types.h"

namespace damas {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// A move reduced to 20 bits: from (6), to (6), hash of the captured set (8).
struct MoveTag {
  std::uint32_t value = 0;  // 0 = no move
  static MoveTag of(const Move& m);
  bool matches(const Move& m) const { return value != 0 && of(m).value == value; }
  bool empty() const { return value == 0; }
};

struct TTEntry {
  MoveTag move;
  Score score = 0;  // already converted to "distance from the probing node" by the caller
  Score eval = 0;   // static evaluation (or 0 when unknown)
  int depth = 0;
  Bound bound = Bound::None;
};

class TranspositionTable {
 public:
  static constexpr std::size_t kBucketEntries = 4;

  explicit TranspositionTable(std::size_t mib = 16);
  // Reallocates (and clears) the table. Not safe during a search.
  void resize(std::size_t mib);
  void clear();
  std::size_t size_mib() const { return mib_; }
  // Called once per search: older entries become preferred victims.
  void new_search() { generation_ = static_cast<std::uint8_t>((generation_ + 1) & 63); }

  std::optional<TTEntry> probe(Key key) const;
  // Starts loading the bucket of `key` into the cache (the table is far larger than the cache).
  void prefetch(Key key) const { __builtin_prefetch(&buckets_[index(key)]); }
  void store(Key key, const TTEntry& e);
  // Permille of sampled entries written in the current generation.
  int hashfull() const;

 private:
  struct Slot {
    std::atomic<std::uint64_t> check{0};
    std::atomic<std::uint64_t> data{0};
  };
  struct alignas(64) Bucket {
    Slot slot[kBucketEntries];
  };

  // Inline: called for the probe, the prefetch and the store of every node.
  std::size_t index(Key key) const {
    __extension__ using U128 = unsigned __int128;
    return static_cast<std::size_t>((static_cast<U128>(key) * buckets_count_) >> 64);
  }

  struct Free {
    void operator()(Bucket* b) const;
  };
  std::unique_ptr<Bucket[], Free> buckets_;
  std::size_t buckets_count_ = 0;
  std::size_t mib_ = 0;
  std::uint8_t generation_ = 0;
};

// Mate scores are stored relative to the node, not the root.
constexpr Score score_to_tt(Score s, int ply) {
  return is_win_score(s) ? s + ply : is_loss_score(s) ? s - ply : s;
}
constexpr Score score_from_tt(Score s, int ply) {
  return is_win_score(s) ? s - ply : is_loss_score(s) ? s + ply : s;
}

}  // namespace damas
