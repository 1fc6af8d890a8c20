// Move ordering as named bands, best first: the hash move, captures (more pieces first), the
// killers, the countermove, then the other quiet moves by their history. The search asks a
// picked move's band by name (late move reductions touch the History band only).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>

#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/search/history.h"
#include "damas/search/tt.h"

namespace damas {

enum class Band { History, Countermove, Killer, Capture, Hash };

struct PickedMove {
  Move move;
  Band band = Band::History;
  std::size_t index = 0;  // how many moves were picked before it
};

class MovePicker {
 public:
  // Orders moves in place: picked moves gather at the front in the order picked.
  MovePicker(const Position& pos, MoveList& moves, const MoveTag& hash_move, const MoveHistory& history,
             int ply)
      : moves_(moves) {
    const std::array<Move, 2>& killers = history.killers(ply);
    const Move* counter = history.countermove(pos, ply);
    const Color side = pos.side_to_move();
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const Move& m = moves[i];
      int k;
      if (hash_move.matches(m)) k = kHashKey;
      else if (m.is_capture()) k = kCaptureKey + m.capture_count();  // all moves are captures then
      else if (m == killers[0]) k = kKillerKey + 1;
      else if (m == killers[1]) k = kKillerKey;
      else if (counter && m == *counter) k = kCountermoveKey;
      else k = history.score(side, m);
      keys_[i] = k;
    }
  }

  // The best move not yet picked (the first of equal keys), or nothing when all were.
  std::optional<PickedMove> next() {
    const std::size_t i = picked_;
    if (i == moves_.size()) return std::nullopt;
    std::size_t best = i;
    for (std::size_t j = i + 1; j < moves_.size(); ++j)
      if (keys_[j] > keys_[best]) best = j;
    // The move is read before the swap writes it: read back after its partial stores, it cost a
    // store-forwarding stall per move.
    const Move m = moves_[best];
    moves_[best] = moves_[i];
    moves_[i] = m;
    std::swap(keys_[i], keys_[best]);
    ++picked_;
    return PickedMove{m, band_of(keys_[i]), i};
  }

  // The moves picked so far, in the order picked.
  std::span<const Move> picked() const { return {moves_.begin(), picked_}; }

 private:
  // Keys of the bands, highest first; a History key is the move's history, within +-kLimit.
  static constexpr int kHashKey = 1 << 30;
  static constexpr int kCaptureKey = 1 << 28;
  static constexpr int kKillerKey = 1 << 27;
  static constexpr int kCountermoveKey = kKillerKey - 1;
  static_assert(MoveHistory::kLimit < kCountermoveKey, "history keys stay below the other bands");
  static_assert(kCaptureKey + MoveList::kCapacity < kHashKey && kKillerKey + 1 < kCaptureKey);

  static constexpr Band band_of(int key) {
    if (key >= kHashKey) return Band::Hash;
    if (key >= kCaptureKey) return Band::Capture;
    if (key >= kKillerKey) return Band::Killer;
    if (key == kCountermoveKey) return Band::Countermove;
    return Band::History;
  }

  MoveList& moves_;
  std::array<int, MoveList::kCapacity> keys_;
  std::size_t picked_ = 0;
};

}  // namespace damas
