// The opening book file: its format, the reader that refuses a bad or foreign file with a clear
// error, and the writer.
//
// Version 1, all integers little-endian:
//
//   offset size  field
//        0    8  magic "DAMASBK\0"
//        8    4  version (1)
//       12   16  variant, ASCII, zero-padded: the game's name in the rules table ("brazilian",
//                 "russian", ...); a book of a game this damas does not play is refused
//       28    4  number of positions P
//       32    4  number of moves M (of all positions)
//       36    8  builder: node budget of each search
//       44    4  builder: deepest ply expanded (max-ply)
//       48    4  builder: margin, 1/100 man
//       52    4  builder: cost of one ply, 1/100 man
//       56    8  checksum: FNV-1a 64 of the whole file with these 8 bytes left out
//       64       P positions, each followed by its moves
//
//   position (16 bytes):
//        0    4  white pieces: bit i = square number i+1 (standard numbering, 1 = b8)
//        4    4  black pieces
//        8    4  kings (of either colour)
//       12    1  flags: bit 0 black to move
//       13    1  ply: the fewest plies from the initial position through the book
//       14    2  number of moves n
//   move (14 bytes), n of them:
//        0    1  from square number (1-32)
//        1    1  to square number
//        2    4  captured pieces (squares as above)
//        6    2  score for the side to move, 1/100 man (int16)
//        8    1  depth: plies behind the score (book plies to the leaf plus its search depth)
//        9    1  flags: bit 0 the move leads to a position of the book
//       10    4  expansions: the builder's steps through this move
//
// A file is whole or refused: the size must match the counts, the checksum the bytes, every
// position must be possible, every move legal in its position and given once, every move marked
// in the book must lead to a position of the file, and following those moves never comes back to
// a position (the builder's minimax needs a tree without cycles).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "damas/book/book.h"
#include "damas/core/expected.h"

namespace damas::book {

inline constexpr std::uint32_t kBookVersion = 1;
inline constexpr std::size_t kBookHeaderBytes = 64;
inline constexpr std::size_t kBookPositionBytes = 16;
inline constexpr std::size_t kBookMoveBytes = 14;
inline constexpr std::uintmax_t kMaxBookBytes = std::uintmax_t{256} << 20;

// The bytes of the file.
std::vector<unsigned char> serialize_book(const Book& book);
// The book of those bytes; `name` (the path) starts every error.
Expected<Book> parse_book(const std::vector<unsigned char>& bytes, const std::string& name);

// Writes through a temporary file renamed over `path`, so an interrupted write never leaves half a
// book where a whole one was.
Status write_book(const std::string& path, const Book& book);
Expected<Book> read_book(const std::string& path);

}  // namespace damas::book
