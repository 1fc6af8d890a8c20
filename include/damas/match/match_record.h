// The games an interrupted `damas match` wrote to its PDN file, read back so that `-resume` can go
// on where it stopped. The file is the match's own output: each game starts with its Event tag
// and ends with a result token. A last game cut off by the interruption (no result token, or
// broken text) is dropped and reported; a broken game before the last one refuses the whole file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/game.h"
#include "damas/core/move.h"
#include "damas/core/position.h"

namespace damas {

struct RecordedGame {
  int line = 0;  // 1-based line of its Event tag
  int round = 0;
  std::string white;
  std::string black;
  GameResult result = GameResult::Ongoing;
  std::string time_control;  // TimeControl tag
  std::string termination;   // Termination tag
  Position start = Position::start();
  std::vector<Move> moves;
  std::string text;  // the game's PDN as in the file
};

struct RecordedMatch {
  std::vector<RecordedGame> games;
  std::optional<int> dropped_line;  // the cut-off last game that was dropped, by its first line
};

// `source` names the file in errors ("games.pdn:412: ...").
Expected<RecordedMatch> read_match_record(std::string_view text, const std::string& source);

}  // namespace damas
