// How each game's players name the 32 squares. damas keeps one board (the FMJD board: a dark
// square in each player's near-left corner); a game played on the mirrored board (rules::Table::
// mirrored_board: Spanish, Portuguese) is the same board reflected left to right, so only the names
// differ. Its numbers run from White's near-right corner, right to left and up (the Portuguese
// federation's rules, art. 3; Spanish notation; PDN "24,W,8,8,N1,1"), which on damas' squares is
// the order of the a1 numbering; its letters are those of the board as it stands, reflected.
#pragma once

#include <string>
#include <string_view>

#include "damas/core/bitboard.h"
#include "damas/core/expected.h"

namespace damas {

// Square numberings of the FMJD board:
//   Numbering::Standard  1 = b8 ... 32 = g1 (FMJD/PDN; White's men start on 21-32). Default.
//   Numbering::A1        1 = a1 ... 32 = h8 (pydraughts / lidraughts-bot Brazilian moves;
//                        White's men on 1-12). Same squares, ranks counted from the other end.
enum class Numbering { Standard, A1 };

// Converts a square number between numberings (an involution; valid for 1..32).
int to_numbering(int standard_number, Numbering n);
int from_numbering(int number, Numbering n);

// The numbering a game's texts use when `asked` is requested (the Hub and DXP `numbering` option):
// a mirrored-board game always numbers its own way, whatever was asked.
constexpr Numbering game_numbering(Variant v, Numbering asked = Numbering::Standard) {
  return rules::of(v).mirrored_board ? Numbering::A1 : asked;
}
// A square's number in game v, and the square of a number (1..32) of game v.
int game_number(Variant v, Square s);
Square game_square(Variant v, int number);

// Square name "a1".."h8" of a square as it stands on game v's board, and back (a light square of
// that board is refused).
std::string square_name(Square s, Variant v = Variant::Brazilian);
Expected<Square> parse_square_name(std::string_view text, Variant v = Variant::Brazilian);

}  // namespace damas
