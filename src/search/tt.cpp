#include "damas/search/tt.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "damas/core/platform.h"

namespace damas {
namespace {

// Data word layout (bits): move tag 0-19, score 20-35, depth 36-43, bound 44-45,
// generation 46-51, static eval 52-63 (clamped to 12 bits).
constexpr int kScoreShift = 20;
constexpr int kDepthShift = 36;
constexpr int kBoundShift = 44;
constexpr int kGenShift = 46;
constexpr int kEvalShift = 52;
constexpr Score kEvalLimit = 2047;

std::uint64_t pack(const TTEntry& e, std::uint8_t generation) {
  const auto score = static_cast<std::uint16_t>(static_cast<std::int16_t>(e.score));
  const auto depth = static_cast<std::uint8_t>(std::clamp(e.depth, 0, 255));
  const Score eval = std::clamp(e.eval, -kEvalLimit, kEvalLimit);
  const auto eval12 = static_cast<std::uint64_t>(static_cast<std::uint16_t>(eval)) & 0xFFF;
  return (std::uint64_t{e.move.value} & 0xFFFFF) | (std::uint64_t{score} << kScoreShift) |
         (std::uint64_t{depth} << kDepthShift) |
         (std::uint64_t{static_cast<std::uint8_t>(e.bound)} << kBoundShift) |
         (std::uint64_t{generation} << kGenShift) | (eval12 << kEvalShift);
}

TTEntry unpack(std::uint64_t d) {
  TTEntry e;
  e.move.value = static_cast<std::uint32_t>(d & 0xFFFFF);
  e.score = static_cast<std::int16_t>(static_cast<std::uint16_t>((d >> kScoreShift) & 0xFFFF));
  e.depth = static_cast<int>((d >> kDepthShift) & 0xFF);
  e.bound = static_cast<Bound>((d >> kBoundShift) & 3);
  const auto eval12 = static_cast<std::uint16_t>((d >> kEvalShift) & 0xFFF);
  // Sign-extend the 12-bit field.
  e.eval = static_cast<std::int16_t>(static_cast<std::uint16_t>(eval12 << 4)) >> 4;
  return e;
}

std::uint8_t generation_of(std::uint64_t d) { return static_cast<std::uint8_t>((d >> kGenShift) & 63); }
int depth_of(std::uint64_t d) { return static_cast<int>((d >> kDepthShift) & 0xFF); }

}  // namespace

MoveTag MoveTag::of(const Move& m) {
  const auto cap_hash = static_cast<std::uint32_t>((m.captured * 0x9E3779B97F4A7C15ULL) >> 56);
  // +1 on `from` keeps a legal move's tag non-zero.
  return MoveTag{(std::uint32_t{m.from.bit} + 1) | (std::uint32_t{m.to.bit} << 6) | (cap_hash << 12)};
}

void TranspositionTable::Free::operator()(Bucket* b) const { platform::free_large(b); }

TranspositionTable::TranspositionTable(std::size_t mib) { resize(mib); }

void TranspositionTable::resize(std::size_t mib) {
  mib = std::max<std::size_t>(mib, 1);
  const std::size_t count = mib * 1024 * 1024 / sizeof(Bucket);
  if (count != buckets_count_) {
    buckets_.reset();  // free first: old and new tables need not coexist
    // Aligned to 2 MiB so the system can back the table with huge pages (fewer TLB misses).
    constexpr std::size_t kHugePage = std::size_t{2} << 20;
    void* memory = platform::allocate_large(count * sizeof(Bucket), kHugePage);
    if (!memory) {
      buckets_count_ = 0;
      mib_ = 0;
      resize(mib / 2 > 0 && mib > 1 ? mib / 2 : 1);  // fall back to what the machine has
      return;
    }
    Bucket* first = static_cast<Bucket*>(memory);
    std::uninitialized_default_construct_n(first, count);
    buckets_.reset(first);
    buckets_count_ = count;
  }
  clear();
  mib_ = mib;
  generation_ = 0;
}

void TranspositionTable::clear() {
  for (std::size_t i = 0; i < buckets_count_; ++i)
    for (Slot& s : buckets_[i].slot) {
      s.check.store(0, std::memory_order_relaxed);
      s.data.store(0, std::memory_order_relaxed);
    }
  generation_ = 0;
}

std::optional<TTEntry> TranspositionTable::probe(Key key) const {
  const Bucket& b = buckets_[index(key)];
  for (const Slot& s : b.slot) {
    const std::uint64_t data = s.data.load(std::memory_order_relaxed);
    const std::uint64_t check = s.check.load(std::memory_order_relaxed);
    if ((check ^ data) == key && data != 0) return unpack(data);
  }
  return std::nullopt;
}

void TranspositionTable::store(Key key, const TTEntry& e) {
  Bucket& b = buckets_[index(key)];
  Slot* victim = &b.slot[0];
  int victim_value = 1 << 20;
  for (Slot& s : b.slot) {
    const std::uint64_t data = s.data.load(std::memory_order_relaxed);
    const std::uint64_t check = s.check.load(std::memory_order_relaxed);
    if (data == 0 || (check ^ data) == key) {
      victim = &s;
      // Keep the old move when the new result has none.
      if (data != 0 && e.move.empty() && (check ^ data) == key) {
        TTEntry merged = e;
        merged.move = unpack(data).move;
        const std::uint64_t d = pack(merged, generation_);
        victim->data.store(d, std::memory_order_relaxed);
        victim->check.store(key ^ d, std::memory_order_relaxed);
        return;
      }
      break;
    }
    // Prefer replacing old generations, then shallow entries.
    const int age = (generation_ - generation_of(data)) & 63;
    const int value = depth_of(data) - 8 * age;
    if (value < victim_value) {
      victim_value = value;
      victim = &s;
    }
  }
  const std::uint64_t d = pack(e, generation_);
  victim->data.store(d, std::memory_order_relaxed);
  victim->check.store(key ^ d, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
  int used = 0;
  const std::size_t sample = std::min<std::size_t>(buckets_count_, 250);
  for (std::size_t i = 0; i < sample; ++i)
    for (const Slot& s : buckets_[i].slot) {
      const std::uint64_t d = s.data.load(std::memory_order_relaxed);
      if (d != 0 && generation_of(d) == generation_) ++used;
    }
  return sample ? static_cast<int>(static_cast<std::size_t>(used) * 1000 / (sample * kBucketEntries)) : 0;
}

}  // namespace damas
