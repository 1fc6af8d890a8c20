#include "damas/core/game_squares.h"

#include "damas/core/input_echo.h"

namespace damas {

int to_numbering(int standard_number, Numbering n) {
  if (n == Numbering::Standard) return standard_number;
  const int i = standard_number - 1;
  return 4 * (7 - i / 4) + i % 4 + 1;
}

int from_numbering(int number, Numbering n) { return to_numbering(number, n); }

int game_number(Variant v, Square s) { return to_numbering(square_number(s), game_numbering(v)); }

Square game_square(Variant v, int number) {
  return square_from_number(from_numbering(number, game_numbering(v)));
}

std::string square_name(Square s, Variant v) {
  const int i = square_number(s) - 1;
  const int row_from_top = i / 4;
  const int rank = 8 - row_from_top;
  // Even rows from the top (8, 6, 4, 2) start on b; odd ones on a. The mirrored board is reflected.
  const int file = 2 * (i % 4) + (row_from_top % 2 == 0 ? 1 : 0);
  std::string name;
  name += static_cast<char>('a' + (rules::of(v).mirrored_board ? 7 - file : file));
  name += static_cast<char>('0' + rank);
  return name;
}

Expected<Square> parse_square_name(std::string_view text, Variant v) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
    return Error{"bad square name \"" + echo_input(text) + "\""};
  const int board_file = text[0] - 'a';
  const int file = rules::of(v).mirrored_board ? 7 - board_file : board_file;
  const int rank = text[1] - '0';
  if ((file + rank) % 2 != 1) return Error{"square \"" + echo_input(text) + "\" is a light square"};
  const int row_from_top = 8 - rank;
  return square_from_number(row_from_top * 4 + file / 2 + 1);
}

}  // namespace damas
