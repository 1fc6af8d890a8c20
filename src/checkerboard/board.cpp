#include "damas/checkerboard/board.h"

#include <string>

#include "damas/core/notation.h"

namespace damas::checkerboard {
namespace {

int piece_code(const Position& p, Square s) {
  const Bitboard b = bb(s);
  const int kind = (p.kings() & b) ? kCbKing : kCbMan;
  if (p.pieces(Color::White) & b) return kCbWhite | kind;
  if (p.pieces(Color::Black) & b) return kCbBlack | kind;
  return kCbFree;
}

std::string cell_name(Coor c) { return "board[" + std::to_string(c.x) + "][" + std::to_string(c.y) + "]"; }

// The one piece of `captured` on the diagonal from `a` (excluded) to `b`.
Coor taken_between(Coor a, Coor b, Bitboard captured) {
  const int dx = b.x > a.x ? 1 : -1;
  const int dy = b.y > a.y ? 1 : -1;
  for (Coor c{a.x + dx, a.y + dy}; c != b; c = Coor{c.x + dx, c.y + dy})
    if (captured & bb(square_of(c))) return c;
  return b;  // not reached for a leg of a legal capture
}

// What a cell may hold; an error names the cell.
Status check_cell(Coor c, int code) {
  if (code == kCbFree) return Ok{};
  const std::string where = cell_name(c);
  if (!is_dark(c)) return Error{"a piece (code " + std::to_string(code) + ") on the light square " + where};
  const int kind = code & (kCbMan | kCbKing);
  const int colour = code & (kCbWhite | kCbBlack);
  if ((code & ~(kCbWhite | kCbBlack | kCbMan | kCbKing)) != 0 || (kind != kCbMan && kind != kCbKing) ||
      (colour != kCbWhite && colour != kCbBlack))
    return Error{"unknown piece code " + std::to_string(code) + " on " + where +
                 " (free 0, white man 5, black man 6, white king 9, black king 10)"};
  const std::string name = square_name(square_of(c));
  if (code == (kCbWhite | kCbMan) && c.y == 0) return Error{"a white man on its crowning row at " + name};
  if (code == (kCbBlack | kCbMan) && c.y == 7) return Error{"a black man on its crowning row at " + name};
  return Ok{};
}

}  // namespace

bool is_dark(Coor c) { return c.x >= 0 && c.x < 8 && c.y >= 0 && c.y < 8 && (c.x + c.y) % 2 == 0; }

Coor coor_of(Square s) {
  const int index = square_number(s) - 1;
  const int y = index / 4;
  const int file = 2 * (index % 4) + (y % 2 == 0 ? 1 : 0);
  return Coor{7 - file, y};
}

Square square_of(Coor c) { return square_from_number(4 * (c.y + 1) - c.x / 2); }

int color_code(Color c) { return c == Color::White ? kCbWhite : kCbBlack; }

std::optional<Color> color_of_code(int code) {
  if (code == kCbWhite) return Color::White;
  if (code == kCbBlack) return Color::Black;
  return std::nullopt;
}

Expected<Position> to_position(const Board8x8& board, int color, Variant variant) {
  const std::optional<Color> side = color_of_code(color);
  if (!side) return Error{"color " + std::to_string(color) + " is neither 1 (White) nor 2 (Black)"};
  Bitboard pieces[2] = {0, 0};
  Bitboard kings = 0;
  for (int x = 0; x < 8; ++x) {
    for (int y = 0; y < 8; ++y) {
      const Coor c{x, y};
      const int code = board.cells[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)];
      if (const Status s = check_cell(c, code); !s) return Error{s.error()};
      if (code == kCbFree) continue;
      const Bitboard b = bb(square_of(c));
      pieces[(code & kCbWhite) ? 0 : 1] |= b;
      if (code & kCbKing) kings |= b;
    }
  }
  for (const Color c : {Color::White, Color::Black})
    if (popcount(pieces[index(c)]) > rules::kMaxPiecesPerSide)
      return Error{std::string(c == Color::White ? "White" : "Black") + " has more than 12 pieces"};
  return Position::from_pieces(pieces[0], pieces[1], kings, *side).with_variant(variant);
}

Board8x8 to_board(const Position& p) {
  Board8x8 board;
  for (Bitboard b = p.occupied(); b;) {
    const Square s = pop_lowest(b);
    const Coor c = coor_of(s);
    board.cells[static_cast<std::size_t>(c.x)][static_cast<std::size_t>(c.y)] = piece_code(p, s);
  }
  return board;
}

CbMove to_cb_move(const Position& p, const Move& m) {
  CbMove out;
  out.jumps = m.capture_count();
  out.oldpiece = piece_code(p, m.from);
  out.newpiece = piece_code(p.after(m), m.to);
  out.from = coor_of(m.from);
  out.to = coor_of(m.to);
  out.path[0] = out.from;
  const std::vector<std::vector<Square>> routes = capture_routes(p, m);
  const std::vector<Square> landings = routes.empty() ? std::vector<Square>{m.to} : routes.front();
  Coor previous = out.from;
  for (std::size_t i = 0; i < landings.size() && i + 1 < out.path.size(); ++i) {
    const Coor landing = coor_of(landings[i]);
    out.path[i + 1] = landing;
    if (m.is_capture() && i < out.del.size()) {
      out.del[i] = taken_between(previous, landing, m.captured);
      out.delpiece[i] = piece_code(p, square_of(out.del[i]));
    }
    previous = landing;
  }
  return out;
}

}  // namespace damas::checkerboard
