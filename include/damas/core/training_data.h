// Training data for the learned evaluation: positions from self-play with the search score and
// the game result, in a compact binary file written by `damas datagen` and read by the trainer
// (trainer/data.py, numpy memmap) and the tests.
//
// File format, version 2, all integers little-endian:
//
//   offset size  field
//        0    8  magic "DAMASTD\0"
//        8    4  version (2)
//       12    4  record size in bytes (16)
//       16    8  number of records
//       24    8  checksum: FNV-1a 64 over bytes 32 to the end (the game and the records)
//       32    4  the game the positions are played by: its PDN GameType (26 Brazilian, 25 Russian)
//       36    4  reserved, 0
//       40  16*n records
//
// Version 1 (a 32-byte header, records from offset 32, checksum over the records) is read as
// Brazilian: the only game datagen played then.
//
//   record (16 bytes):
//        0    4  white pieces: bit i = square number i+1 (standard numbering, 1 = b8)
//        4    4  black pieces
//        8    4  kings (of either colour)
//       12    2  score: the search score for the side to move, 1/100 man (int16)
//       14    1  flags: bit 0 black to move; bits 1-2 result for White (0 loss, 1 draw, 2 win);
//                bit 3 first record of a game (the trainer splits train/validation by game)
//       15    1  ply of the game, capped at 255
//
// Every record is a quiet position (no capture pending) whose score is not a mate score. A file
// is complete or refused: the size must match the header and the checksum the records.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "damas/core/binary_io.h"
#include "damas/core/expected.h"
#include "damas/core/game.h"
#include "damas/core/position.h"
#include "damas/core/types.h"

namespace damas {

inline constexpr std::uint32_t kTrainingDataVersion = 2;
inline constexpr std::size_t kTrainingRecordBytes = 16;
inline constexpr std::size_t kTrainingHeaderBytes = 40;

struct TrainingRecord {
  Position position;
  Score score = 0;  // side to move's view
  GameResult result = GameResult::Draw;
  bool first_of_game = false;
  int ply = 0;

  bool operator==(const TrainingRecord& o) const {
    return position == o.position && score == o.score && result == o.result &&
           first_of_game == o.first_of_game && std::min(ply, 255) == std::min(o.ply, 255);
  }
};

// Position <-> 32-square masks (bit i = square number i+1).
std::uint32_t to_square_mask(Bitboard b);
Bitboard from_square_mask(std::uint32_t m);

// Streams records of one game's positions to a file; finish() writes the header (count and
// checksum).
class TrainingDataWriter {
 public:
  static Expected<TrainingDataWriter> create(const std::string& path, Variant variant = Variant::Brazilian);
  // A position of another game than the file's is an error.
  Status write(const TrainingRecord& r);
  Status finish();
  std::uint64_t count() const { return count_; }

 private:
  std::string path_;
  Variant variant_ = Variant::Brazilian;
  std::ofstream out_;
  std::uint64_t count_ = 0;
  std::uint64_t checksum_ = kFnvOffset;
};

// Reads a whole file (version 1 or 2); its records' positions are of the file's game. A bad magic,
// version, size, checksum, game or record is an error naming the file.
Expected<std::vector<TrainingRecord>> read_training_data(const std::string& path);

}  // namespace damas
