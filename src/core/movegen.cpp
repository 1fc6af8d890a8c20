#include "damas/core/movegen.h"

#include <array>
#include <cassert>

#include "damas/core/capture_walker.h"

namespace damas {
namespace {

constexpr Direction kUL = Direction::UpLeft;
constexpr Direction kUR = Direction::UpRight;
constexpr Direction kDL = Direction::DownLeft;
constexpr Direction kDR = Direction::DownRight;

// Forward directions of a side's men.
template <Color C>
constexpr Direction kForwardLeft = C == Color::White ? kUL : kDL;
template <Color C>
constexpr Direction kForwardRight = C == Color::White ? kUR : kDR;

// Men of the side to move that can jump in direction D.
template <Direction D>
Bitboard men_jumpers(Bitboard men, Bitboard enemy, Bitboard empty) {
  return men & step<opposite(D)>(enemy & step<opposite(D)>(empty));
}

// Can any king jump in direction D (flying: any run of empty squares before the victim)?
template <Direction D>
bool kings_can_jump(Bitboard kings, Bitboard enemy, Bitboard empty) {
  Bitboard ray = step<D>(kings);
  while (ray) {
    if (step<D>(ray & enemy) & empty) return true;
    ray = step<D>(ray & empty);
  }
  return false;
}

// Men of the side to move that can jump: forward only where the variant says so.
template <Variant V, Color C>
Bitboard men_that_jump(Bitboard men, Bitboard enemy, Bitboard empty) {
  const Bitboard forward =
      men_jumpers<kForwardLeft<C>>(men, enemy, empty) | men_jumpers<kForwardRight<C>>(men, enemy, empty);
  if constexpr (!rules::of(V).men_capture_backward) return forward;
  else
    return forward | men_jumpers<opposite(kForwardRight<C>)>(men, enemy, empty) |
           men_jumpers<opposite(kForwardLeft<C>)>(men, enemy, empty);
}

template <Variant V, Color C>
bool has_capture_for(const Position& p) {
  const Bitboard enemy = p.pieces(~C);
  const Bitboard empty = p.empty();
  if (men_that_jump<V, C>(p.men(C), enemy, empty)) return true;
  const Bitboard kings = p.kings(C);
  if (!kings) return false;
  return kings_can_jump<kUL>(kings, enemy, empty) || kings_can_jump<kUR>(kings, enemy, empty) ||
         kings_can_jump<kDL>(kings, enemy, empty) || kings_can_jump<kDR>(kings, enemy, empty);
}

// ---- Captures: every sequence walked (capture_walker.h), the variant's choice kept ------------

// The capture walker's visitor for move generation: every piece may be taken, the route is not
// kept, and a finished sequence is a move unless the precedence rule prefers another.
template <rules::CaptureChoice kChoice>
class CaptureMoves {
 public:
  CaptureMoves(MoveList& out, Bitboard enemy_kings) : out_(out), enemy_kings_(enemy_kings) {}

  static bool may_take(Bitboard) { return true; }
  static void enter(Square) {}
  static void leave() {}

  void complete(Square from, Bitboard at, Bitboard captured) {
    const int n = popcount(captured);
    if constexpr (rules::is_majority(kChoice)) {
      // Ranked by pieces taken, then (MajorityKings) by kings taken.
      const int kings =
          kChoice == rules::CaptureChoice::MajorityKings ? popcount(captured & enemy_kings_) : 0;
      const int rank = n * 16 + kings;
      if (rank < best_) return;
      if (rank > best_) {
        best_ = rank;
        out_.clear();
      }
    }
    const Move m{captured, from, lowest_square(at)};
    // A single capture has one route; longer ones may be reached along several.
    if (n >= 2 && out_.contains(m)) return;
    out_.push(m);
  }

 private:
  MoveList& out_;
  Bitboard enemy_kings_;
  int best_ = 16;  // a capture takes at least one piece (kings below 16: a side has at most 12)
};

template <Variant V, Color C>
void walk_captures(const Position& p, MoveList& out) {
  CaptureMoves<rules::of(V).choice> moves(out, p.kings(~C));
  CaptureWalker<V, decltype(moves)> gen(p.pieces(~C), p.empty(), promotion_row(C), moves);
  for (Bitboard b = p.kings(C); b;) gen.from_king(pop_lowest(b));
  // Kings first: where a king can capture, a man may not.
  if (rules::of(V).choice == rules::CaptureChoice::KingsFirst && !out.empty()) return;
  Bitboard jumpers = men_that_jump<V, C>(p.men(C), p.pieces(~C), p.empty());
  while (jumpers) gen.from_man(pop_lowest(jumpers));
}

// ---- Quiet moves -----------------------------------------------------------------------------

template <Direction D>
int count_king_slides(Bitboard kings, Bitboard empty) {
  int n = 0;
  for (Bitboard ray = step<D>(kings) & empty; ray; ray = step<D>(ray) & empty) n += popcount(ray);
  return n;
}

template <Color C>
int count_quiet(const Position& p) {
  const Bitboard empty = p.empty();
  const Bitboard men = p.men(C);
  int n = popcount(step<kForwardLeft<C>>(men) & empty) + popcount(step<kForwardRight<C>>(men) & empty);
  const Bitboard kings = p.kings(C);
  if (kings) {
    n += count_king_slides<kUL>(kings, empty) + count_king_slides<kUR>(kings, empty) +
         count_king_slides<kDL>(kings, empty) + count_king_slides<kDR>(kings, empty);
  }
  return n;
}

template <Direction D>
void push_man_steps(Bitboard men, Bitboard empty, MoveList& out) {
  for (Bitboard targets = step<D>(men) & empty; targets;) {
    const Square to = pop_lowest(targets);
    out.push(Move{0, Square{static_cast<std::uint8_t>(to.bit - shift_of(D))}, to});
  }
}

template <Direction D>
void push_king_slides(Square from, Bitboard empty, MoveList& out) {
  for (Bitboard s = step<D>(bb(from)) & empty; s; s = step<D>(s) & empty)
    out.push(Move{0, from, lowest_square(s)});
}

template <Color C>
void generate_quiet(const Position& p, MoveList& out) {
  const Bitboard empty = p.empty();
  for (Bitboard b = p.kings(C); b;) {
    const Square from = pop_lowest(b);
    push_king_slides<kUL>(from, empty, out);
    push_king_slides<kUR>(from, empty, out);
    push_king_slides<kDL>(from, empty, out);
    push_king_slides<kDR>(from, empty, out);
  }
  const Bitboard men = p.men(C);
  push_man_steps<kForwardLeft<C>>(men, empty, out);
  push_man_steps<kForwardRight<C>>(men, empty, out);
}

template <Color C>
bool has_quiet(const Position& p) {
  const Bitboard empty = p.empty();
  const Bitboard men = p.men(C);
  if ((step<kForwardLeft<C>>(men) | step<kForwardRight<C>>(men)) & empty) return true;
  const Bitboard kings = p.kings(C);
  return ((step<kUL>(kings) | step<kUR>(kings) | step<kDL>(kings) | step<kDR>(kings)) & empty) != 0;
}

// Whether any capture exists depends on the variant only through the direction of men's captures:
// one table look-up picks the generator, so the games that share it share its code and speed.
constexpr auto kMenCaptureBackward = [] {
  std::array<bool, kVariantCount> backward{};
  for (const Variant v : kVariants) backward[static_cast<std::size_t>(v)] = rules::of(v).men_capture_backward;
  return backward;
}();

template <Color C>
bool any_capture(const Position& p) {
  return kMenCaptureBackward[static_cast<std::size_t>(p.variant())]
             ? has_capture_for<Variant::Brazilian, C>(p)
             : has_capture_for<Variant::Spanish, C>(p);
}
static_assert(rules::kBrazilian.men_capture_backward && !rules::kSpanish.men_capture_backward);

// Captures of the side to move, by the variant's rules (the one place it becomes a template argument).
template <Color C>
void generate_captures(const Position& p, MoveList& out) {
  visit_variant(p.variant(), [&](auto v) { walk_captures<decltype(v)::value, C>(p, out); });
}

template <Color C>
int count_for(const Position& p) {
  if (any_capture<C>(p)) {
    MoveList list;
    generate_captures<C>(p, list);
    return static_cast<int>(list.size());
  }
  return count_quiet<C>(p);
}

template <Color C>
void generate_for(const Position& p, MoveList& out) {
  if (any_capture<C>(p)) generate_captures<C>(p, out);
  else generate_quiet<C>(p, out);
}

}  // namespace

bool has_capture(const Position& p) { return has_capture(p, p.side_to_move()); }

bool has_capture(const Position& p, Color side) {
  return side == Color::White ? any_capture<Color::White>(p) : any_capture<Color::Black>(p);
}

bool has_legal_move(const Position& p) {
  // A capture is always a legal move's witness; otherwise any quiet step will do.
  return p.side_to_move() == Color::White ? (has_quiet<Color::White>(p) || any_capture<Color::White>(p))
                                          : (has_quiet<Color::Black>(p) || any_capture<Color::Black>(p));
}

int count_legal_moves(const Position& p) {
  return p.side_to_move() == Color::White ? count_for<Color::White>(p) : count_for<Color::Black>(p);
}

void generate_legal_moves(const Position& p, MoveList& out) {
  out.clear();
  if (p.side_to_move() == Color::White) generate_for<Color::White>(p, out);
  else generate_for<Color::Black>(p, out);
#ifndef NDEBUG
  assert(static_cast<int>(out.size()) == count_legal_moves(p));
  assert(out.empty() != has_legal_move(p));
#endif
}

bool is_legal(const Position& p, const Move& m) {
  MoveList legal;
  generate_legal_moves(p, legal);
  return legal.contains(m);
}

std::vector<Move> legal_prefix(Position p, const std::vector<Move>& line) {
  std::vector<Move> prefix;
  for (const Move& m : line) {
    if (!is_legal(p, m)) break;
    prefix.push_back(m);
    p = p.after(m);
  }
  return prefix;
}

bool is_tactical(const Position& p, const Move& m) {
  if (m.is_capture()) return true;
  const Color us = p.side_to_move();
  return (p.men(us) & bb(m.from)) && (bb(m.to) & promotion_row(us));
}

}  // namespace damas
