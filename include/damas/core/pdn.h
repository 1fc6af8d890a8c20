// PDN reader: the games of a PDN file (tags, start position, moves), one result per game.
//
// Accepted: several games per file; tag pairs [Name "value"] (\" and \\ escapes); a FEN tag in
// numeric or algebraic squares (also lidraughts' with its ":H0:F1" counters); a GameType tag "25"
// makes the game Russian (start and moves by Russian rules), any other Brazilian (none: the
// variant the caller gives, Brazilian by default); move numbers
// ("12." "12..." also glued to the move, "12.c3-d4"); numeric moves (Hub form "18x11x15" with
// captured squares, or PDN form "27x18x9" with landing squares), algebraic moves ("c3-d4",
// "c3:e5", "c3xe5"); move strength marks (! ? !? ...) and NAGs ($3); comments {...} and ;... to
// the end of the line, %-escape lines and variations (...), all skipped; results 2-0 0-2 1-1 *
// (and 1-0 0-1 1/2-1/2 written by some programs).
// A game with an error (bad tag, bad FEN, illegal move, unclosed comment) becomes an error naming
// its line and move; reading goes on with the next game. Never throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"

namespace damas {

struct PdnGame {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  Position start = Position::start();                     // the FEN tag, else the start position
  int start_plies = 0;                                    // the FEN tag's lidraughts H counter
  std::vector<Move> moves;                                // legal from start, in order
  std::vector<int> move_lines;                            // line of each move (1-based)
  std::string result;                                     // result token of the move text; "" if none
  int first_line = 0;                                     // line where the game starts

  // The value of the first tag of that name, if any.
  std::optional<std::string> tag(std::string_view name) const;
};

// An error message starts "game G, line L" and names the move ("move 12...", "\"22-19\"") when
// a move is at fault.
using PdnGameOrError = Expected<PdnGame>;

// A game without a GameType tag is played by `untagged` (the board's choice of game).
std::vector<PdnGameOrError> read_pdn(std::string_view text, Variant untagged = Variant::Brazilian);

}  // namespace damas
