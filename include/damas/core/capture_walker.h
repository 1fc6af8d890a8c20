// The one walk over capture sequences (men both ways, flying kings, pieces removed when the
// capture ends), shared by move generation and the notation's capture routes.
#pragma once

#include "damas/core/bitboard.h"

namespace damas {

// Walks every capture sequence of one piece depth-first, in the fixed order of kDirections and,
// for a king, nearest landing square first. A Visitor provides:
//   bool may_take(Bitboard victim)           a piece the sequence may take (routes of one move
//                                            take only that move's pieces)
//   void enter(Square landing), void leave() the piece lands on a square and goes back
//   void complete(Square from, Bitboard at, Bitboard captured)
//                                            a sequence that cannot go on (at: the last landing)
template <typename Visitor>
class CaptureWalker {
 public:
  CaptureWalker(Bitboard enemy, Bitboard empty, Visitor& visitor)
      : enemy_(enemy), empty_(empty), visitor_(visitor) {}

  void from_man(Square from) { walk(from, false); }
  void from_king(Square from) { walk(from, true); }

 private:
  void walk(Square from, bool king) {
    from_ = from;
    empty_ |= bb(from);  // the moving piece has left its square
    if (king) king_continue(bb(from), 0);
    else man_continue(bb(from), 0);
    empty_ &= ~bb(from);
  }

  template <Direction D>
  bool man_try(Bitboard at, Bitboard captured) {
    const Bitboard victim = step<D>(at) & enemy_ & ~captured;
    if (!victim || !visitor_.may_take(victim)) return false;
    const Bitboard landing = step<D>(victim) & empty_;
    if (!landing) return false;
    visitor_.enter(lowest_square(landing));
    man_continue(landing, captured | victim);
    visitor_.leave();
    return true;
  }

  void man_continue(Bitboard at, Bitboard captured) {
    // Every direction must be explored (no short-circuit), in a fixed order.
    int extended = 0;
    extended += man_try<Direction::UpLeft>(at, captured);
    extended += man_try<Direction::UpRight>(at, captured);
    extended += man_try<Direction::DownLeft>(at, captured);
    extended += man_try<Direction::DownRight>(at, captured);
    if (!extended && captured) visitor_.complete(from_, at, captured);
  }

  template <Direction D>
  bool king_try(Bitboard at, Bitboard captured) {
    Bitboard s = step<D>(at);
    while (s & empty_) s = step<D>(s);
    const Bitboard victim = s & enemy_ & ~captured;
    if (!victim || !visitor_.may_take(victim)) return false;
    Bitboard landing = step<D>(victim) & empty_;
    if (!landing) return false;
    const Bitboard now_captured = captured | victim;
    do {
      visitor_.enter(lowest_square(landing));
      king_continue(landing, now_captured);
      visitor_.leave();
      landing = step<D>(landing) & empty_;
    } while (landing);
    return true;
  }

  void king_continue(Bitboard at, Bitboard captured) {
    int extended = 0;
    extended += king_try<Direction::UpLeft>(at, captured);
    extended += king_try<Direction::UpRight>(at, captured);
    extended += king_try<Direction::DownLeft>(at, captured);
    extended += king_try<Direction::DownRight>(at, captured);
    if (!extended && captured) visitor_.complete(from_, at, captured);
  }

  Bitboard enemy_;
  Bitboard empty_;
  Visitor& visitor_;
  Square from_{};
};

}  // namespace damas
