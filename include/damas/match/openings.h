// Match openings: a start position and moves played from it, read from a ballot/FEN file, a
// file of move lines, a PDN file or pydraughts' JSON ballot file ({"name": "FEN", ...}). Used by
// selfplay, the Hub match runner and the DXP initiator.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"

namespace damas {

struct Opening {
  Position start = Position::start();
  std::vector<Move> moves;  // played from start
  std::string text;         // as written in the file (or the PDN game's Event/Opening tag)
  std::string name;         // "1-I cd4 ba5 dc5" for a ballot "FEN | name"; else empty
  int start_plies = 0;      // the draw count of a lidraughts FEN's H (draw_rules.h)

  Position position() const;  // start with the moves played
};

enum class OpeningFormat {
  Auto,   // per line: a FEN (starts "W:" or "B:") or moves from the normal start
  Fen,    // one FEN per line, optionally "FEN | name" (the ballot files of bench/)
  Moves,  // one line of moves from the normal start per line ("22-18 11-15", numeric or algebraic)
  Pdn,    // the games of a PDN file: FEN tag and moves
};

// "auto", "fen", "moves" or "pdn".
std::optional<OpeningFormat> parse_opening_format(std::string_view text);

// Line formats: '#' starts a comment; blank lines are skipped. Every move is checked for
// legality and every position must have a legal move. Errors name "source:line: ".
// The openings are positions of `variant` (a FEN names no game, moves start from its start); a PDN
// game names its own by GameType, and one of another game is refused.
Expected<std::vector<Opening>> parse_openings(std::string_view text, const std::string& source = "openings",
                                              OpeningFormat format = OpeningFormat::Auto,
                                              Variant variant = Variant::Brazilian);
Expected<std::vector<Opening>> load_openings(const std::string& path,
                                             OpeningFormat format = OpeningFormat::Auto,
                                             Variant variant = Variant::Brazilian);

// The openings a match of game `variant` plays when none are given (`damas match`, `selfplay`,
// `datagen`): the name of a data file of bench/ (cli::data_file finds it). Brazilian: openings.txt;
// Russian: fmjd64-150-ballots.txt, the FMJD 64 ballots; every other game: openings-<name>.txt (its
// rules::Table name), the balanced openings `damas openings` made for it (match/balanced_openings.h).
std::string default_openings_file(Variant variant);

}  // namespace damas
