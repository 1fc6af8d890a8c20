#include "damas/core/position.h"

namespace damas {
namespace {

std::size_t kind_index(Color c, bool king) { return index(c) + (king ? 2U : 0U); }

Key piece_key(Color c, bool king, Square s) { return zobrist::kTable.piece[kind_index(c, king)][s.bit]; }

Key variant_key(Variant v) { return zobrist::kTable.variant[static_cast<std::size_t>(v)]; }

// The rows a man's victims stand on when it crosses its far row during a capture: a man jumps a
// piece next to that row only from the row behind, landing on the far row. Where that crowns at
// once (rules::Table::crown_mid_capture) the move's captured set says whether it ends a king,
// whatever its route; elsewhere only the last square does.
constexpr Bitboard crowning_victims_of(Variant v, Color us) {
  if (!rules::of(v).crown_mid_capture) return 0;
  return us == Color::White ? squares_mask(5, 8) : squares_mask(25, 28);
}
// [variant][colour], looked up on the hot path of after().
constexpr std::array<std::array<Bitboard, 2>, kVariantCount> make_crowning_victims() {
  std::array<std::array<Bitboard, 2>, kVariantCount> table{};
  for (const Variant v : kVariants)
    table[static_cast<std::size_t>(v)] = {crowning_victims_of(v, Color::White),
                                          crowning_victims_of(v, Color::Black)};
  return table;
}
constexpr std::array<std::array<Bitboard, 2>, kVariantCount> kCrowningVictims = make_crowning_victims();
static_assert(kCrowningVictims[0][0] == 0 && kCrowningVictims[1][1] == squares_mask(25, 28));

}  // namespace

Position Position::start(Variant variant) {
  return from_pieces(squares_mask(21, 32), squares_mask(1, 12), 0, Color::White).with_variant(variant);
}

Position Position::with_variant(Variant variant) const {
  Position p = *this;
  p.key_ ^= variant_key(variant_) ^ variant_key(variant);
  p.variant_ = variant;
  return p;
}

Position Position::from_pieces(Bitboard white, Bitboard black, Bitboard kings, Color side_to_move,
                               int reversible_plies) {
  Position p;
  p.pieces_ = {white & kBoard, black & kBoard};
  p.kings_ = kings & (white | black) & kBoard;
  p.side_ = side_to_move;
  p.reversible_plies_ = static_cast<std::uint8_t>(reversible_plies < 0     ? 0
                                                  : reversible_plies > 255 ? 255
                                                                           : reversible_plies);
  p.key_ = p.compute_key();
  return p;
}

Key Position::compute_key() const {
  Key k = (side_ == Color::Black ? zobrist::kTable.black_to_move : 0) ^ variant_key(variant_);
  for (Color c : {Color::White, Color::Black}) {
    for (Bitboard b = pieces_[index(c)]; b;) {
      const Square s = pop_lowest(b);
      k ^= piece_key(c, (kings_ & bb(s)) != 0, s);
    }
  }
  return k;
}

Position Position::after(const Move& m) const {
  Position p = *this;
  const Color us = side_;
  const Color them = ~us;
  const Bitboard from = bb(m.from);
  const Bitboard to = bb(m.to);
  const bool is_king = (kings_ & from) != 0;

  // A man is crowned when its move ends on the far row, or where that crowns at once, when its
  // capture crossed it (tested for captures only: quiet moves, most of them, pay nothing).
  const bool king_after =
      is_king || (to & promotion_row(us)) ||
      (m.captured && (m.captured & kCrowningVictims[static_cast<std::size_t>(variant_)][index(us)]));

  p.pieces_[index(us)] ^= from ^ to;
  p.key_ ^= piece_key(us, is_king, m.from);
  if (is_king) p.kings_ ^= from ^ to;
  else if (king_after) p.kings_ |= to;
  p.key_ ^= piece_key(us, king_after, m.to);

  if (m.captured) {
    for (Bitboard c = m.captured; c;) {
      const Square s = pop_lowest(c);
      p.key_ ^= piece_key(them, (kings_ & bb(s)) != 0, s);
    }
    p.pieces_[index(them)] &= ~m.captured;
    p.kings_ &= ~m.captured;
  }

  if (!is_king || m.captured) p.reversible_plies_ = 0;
  else if (p.reversible_plies_ < 255) ++p.reversible_plies_;
  p.side_ = them;
  p.key_ ^= zobrist::kTable.black_to_move;
  return p;
}

}  // namespace damas
