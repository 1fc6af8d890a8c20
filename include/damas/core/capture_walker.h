// The one walk over capture sequences (men both ways or forward only, flying kings, pieces removed
// when the capture ends, a man crowned mid-capture where the variant says so), shared by move
// generation and the notation's capture routes.
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
// The variant is a template parameter so that a rule costs nothing where it does not apply.
template <Variant V, typename Visitor>
class CaptureWalker {
 public:
  // far_row: where the moving side's men are crowned (read only by variants crowning mid-capture).
  CaptureWalker(Bitboard enemy, Bitboard empty, Bitboard far_row, Visitor& visitor)
      : enemy_(enemy),
        empty_(empty),
        far_row_(far_row),
        moves_up_(far_row == kWhitePromotionRow),
        visitor_(visitor) {}

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

  // A man landing on its far row goes on as a king (Russian); in Brazilian it goes on as a man and
  // is crowned only if the capture ends there (Position::after).
  bool crowns_on(Bitboard landing) const {
    if constexpr (rules::of(V).crown_mid_capture) return (landing & far_row_) != 0;
    else return false;
  }

  template <Direction D>
  bool man_try(Bitboard at, Bitboard captured) {
    const Bitboard victim = step<D>(at) & enemy_ & ~captured;
    if (!victim || !visitor_.may_take(victim)) return false;
    const Bitboard landing = step<D>(victim) & empty_;
    if (!landing) return false;
    visitor_.enter(lowest_square(landing));
    if (crowns_on(landing)) king_continue(landing, captured | victim);
    else man_continue(landing, captured | victim);
    visitor_.leave();
    return true;
  }

  void man_continue(Bitboard at, Bitboard captured) {
    // Every direction must be explored (no short-circuit), in a fixed order.
    int extended = 0;
    if (rules::of(V).men_capture_backward || moves_up_) {
      extended += man_try<Direction::UpLeft>(at, captured);
      extended += man_try<Direction::UpRight>(at, captured);
    }
    if (rules::of(V).men_capture_backward || !moves_up_) {
      extended += man_try<Direction::DownLeft>(at, captured);
      extended += man_try<Direction::DownRight>(at, captured);
    }
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
    const Bitboard going_on = landings_going_on<D>(landing, now_captured);
    do {
      if (!going_on || (landing & going_on)) {
        visitor_.enter(lowest_square(landing));
        king_continue(landing, now_captured);
        visitor_.leave();
      }
      landing = step<D>(landing) & empty_;
    } while (landing);
    return true;
  }

  // The landing squares beyond a victim (from `first` on) from which the king can take again; a
  // king that can go on must land on one of them (rules::Table::king_lands_to_go_on). Under the
  // majority rule the shorter lines are dropped anyway, so only free choice needs the test.
  template <Direction D>
  Bitboard landings_going_on(Bitboard first, Bitboard captured) const {
    Bitboard going_on = 0;
    if constexpr (!is_majority(rules::of(V).choice)) {
      static_assert(rules::of(V).king_lands_to_go_on);
      for (Bitboard l = first; l; l = step<D>(l) & empty_)
        if (king_can_take<Direction::UpLeft>(l, captured) || king_can_take<Direction::UpRight>(l, captured) ||
            king_can_take<Direction::DownLeft>(l, captured) ||
            king_can_take<Direction::DownRight>(l, captured))
          going_on |= l;
    }
    return going_on;
  }

  // Could a king on `at` take a piece in direction D? (Board truth, whatever the visitor allows.)
  template <Direction D>
  bool king_can_take(Bitboard at, Bitboard captured) const {
    Bitboard s = step<D>(at);
    while (s & empty_) s = step<D>(s);
    return (step<D>(s & enemy_ & ~captured) & empty_) != 0;
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
  Bitboard far_row_;
  bool moves_up_;  // White's men: forward is up the board
  Visitor& visitor_;
  Square from_{};
};

}  // namespace damas
