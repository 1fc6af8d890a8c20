// The codes of solved slices held in memory while building or verifying, looked up by position.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "damas/egdb/egdb.h"

namespace damas::egdb {

class SolvedSlices {
 public:
  SolvedSlices() : slots_(kSlots) {}
  void add(const Material& m, std::vector<Code> codes) {
    slots_[slot(m)] = std::make_unique<Slot>(Slot{SliceIndex(m), std::move(codes)});
  }
  bool has(const Material& m) const { return slots_[slot(m)] != nullptr; }
  void remove(const Material& m) { slots_[slot(m)].reset(); }
  // The code of p; a side to move without pieces has lost. p's slice must have been added.
  Code lookup(const Position& p) const {
    if (!p.pieces(p.side_to_move())) return 1;
    const Slot& s = *slots_[slot(material_of(p))];
    const std::uint64_t i = s.index.index_of(p);
    return s.codes[(p.side_to_move() == Color::White ? 0 : s.index.size()) + i];
  }

 private:
  struct Slot {
    SliceIndex index;
    std::vector<Code> codes;
  };
  static constexpr std::size_t kSide = rules::kMaxPiecesPerSide + 1;
  static constexpr std::size_t kSlots = kSide * kSide * kSide * kSide;
  static std::size_t slot(const Material& m) {
    return ((static_cast<std::size_t>(m.wm) * kSide + static_cast<std::size_t>(m.wk)) * kSide +
            static_cast<std::size_t>(m.bm)) *
               kSide +
           static_cast<std::size_t>(m.bk);
  }
  std::vector<std::unique_ptr<Slot>> slots_;
};

// Adds one position of value c to the counts.
inline void count_value(SideStats& s, Code c) {
  ++s.positions;
  const Value v = value_of(c);
  if (v.wdl == Wdl::Win) {
    ++s.win;
    s.longest = std::max(s.longest, v.plies);
  } else {
    ++(v.wdl == Wdl::Loss ? s.loss : s.draw);
  }
}

// Does m leave the slice (a capture, or a man crowned)?
inline bool leaves_slice(const Position& p, const Move& m) {
  if (m.is_capture()) return true;
  const Color us = p.side_to_move();
  return (p.men(us) & bb(m.from)) && (bb(m.to) & promotion_row(us));
}

// The codes of a slice read from its file with the positions that have a capture pending
// (stored as don't-care) recomputed by `variant`'s rules from the slices after the capture, which
// solved must hold.
std::vector<Code> restore_captures(const Material& m, Variant variant, std::vector<Code> codes,
                                   const SolvedSlices& solved, int threads);

}  // namespace damas::egdb
