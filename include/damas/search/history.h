// What one search thread learns about quiet moves as it goes (killers by ply, the history table,
// countermoves), read by the move picker and written at each cut-off.
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/search/limits.h"

namespace damas {

class MoveHistory {
 public:
  // History values saturate at +-kLimit, far below the keys of the move picker's other bands.
  static constexpr int kLimit = 1 << 20;

  const std::array<Move, 2>& killers(int ply) const { return killers_[static_cast<std::size_t>(ply)]; }
  int score(Color side, const Move& m) const { return table_[index(side)][m.from.bit][m.to.bit]; }
  // The quiet move that last refuted the opponent's move before the node at ply; null at the
  // root (kNullMove, never legal, when none was stored yet).
  const Move* countermove(const Position& pos, int ply) const {
    if (ply == 0) return nullptr;
    return &counter_[counter_slot(pos, ply)];
  }
  // The move made at ply on the current path (the countermove's key one ply deeper).
  void note_played(int ply, const Move& m) { played_[static_cast<std::size_t>(ply)] = m; }
  // tried ends with the move that cut at the node of pos: a quiet one becomes a killer and the
  // countermove and gains history, the quiet moves tried before it lose history.
  void reward_cut(const Position& pos, std::span<const Move> tried, int depth, int ply);

 private:
  // The slot of the opponent's move that led to the node at ply (ply > 0).
  std::size_t counter_slot(const Position& pos, int ply) const {
    const Move& previous = played_[static_cast<std::size_t>(ply - 1)];
    return (index(pos.side_to_move()) * kBitboardBits + previous.from.bit) * kBitboardBits + previous.to.bit;
  }

  using Table = std::array<std::array<int, kBitboardBits>, kBitboardBits>;
  static constexpr std::size_t kCounterSlots = 2 * kBitboardBits * kBitboardBits;

  std::array<std::array<Move, 2>, kMaxPly + 1> killers_{};
  std::array<Table, 2> table_{};               // [side][from bit][to bit]
  std::array<Move, kCounterSlots> counter_{};  // by (side, opponent's from bit, to bit)
  std::array<Move, kMaxPly + 1> played_{};
};

}  // namespace damas
