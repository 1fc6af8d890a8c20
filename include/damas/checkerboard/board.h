// CheckerBoard's board and move as plain C++ values, and their conversion to and from the rules
// core (protocol/checkerboard.md). The board is cells[x][y] as pydraughts fills it for Russian and
// Brazilian: x = 7 - file (file a = 0), y = 8 - rank, so a1 is [7][7] and b8 is [6][0]; White's
// men start on y = 5..7 and move toward y = 0. CheckerBoard's square numbers (cb_interface.h's
// coorstonumber for these games: 4 * (y + 1) - x / 2) are then the standard ones, 1 = b8 .. 32 = g1.
#pragma once

#include <array>
#include <optional>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/core/types.h"

namespace damas::checkerboard {

// Piece codes (CheckerBoard's CB_WHITE, CB_BLACK, CB_MAN, CB_KING); 0 is a free square.
inline constexpr int kCbFree = 0;
inline constexpr int kCbWhite = 1;
inline constexpr int kCbBlack = 2;
inline constexpr int kCbMan = 4;
inline constexpr int kCbKing = 8;

struct Board8x8 {
  std::array<std::array<int, 8>, 8> cells{};  // cells[x][y]
  bool operator==(const Board8x8&) const = default;
};

struct Coor {
  int x = 0;
  int y = 0;
  bool operator==(const Coor&) const = default;
};

inline constexpr int kMoveSlots = 12;  // the length of CBmove's arrays

struct CbMove {
  int jumps = 0;
  int newpiece = 0;
  int oldpiece = 0;
  Coor from;
  Coor to;
  std::array<Coor, kMoveSlots> path{};  // path[0] = from, then each landing; path[jumps] = to
  std::array<Coor, kMoveSlots> del{};   // the pieces taken, in the order they are jumped
  std::array<int, kMoveSlots> delpiece{};
  bool operator==(const CbMove&) const = default;
};

// A square and its cell, both ways.
Coor coor_of(Square s);
Square square_of(Coor c);  // c must be a dark square
bool is_dark(Coor c);

// The colour code of a side (kCbWhite, kCbBlack) and back; nullopt for any other number.
int color_code(Color c);
std::optional<Color> color_of_code(int code);

// The position of a board with `color` to move, played by `variant`'s rules. Refused, saying
// where: an unknown piece code, a piece on a light square, a man on the row where it would
// already have been crowned, more than 12 pieces a side, a colour other than 1 or 2.
Expected<Position> to_position(const Board8x8& board, int color, Variant variant);
Board8x8 to_board(const Position& p);

// The move as CheckerBoard describes it; p is the position before m (a legal move of p).
CbMove to_cb_move(const Position& p, const Move& m);

}  // namespace damas::checkerboard
