// The safety set (bench/safety.txt): game-speed moves refuted by a deep search; reader and writer.
//
// Each position is one where the move damas played at game speed (a node budget per move) loses at
// least a man against the best move of its own deep search (`damas safety mine`, match/safety_mine.h);
// `damas safety check` (match/safety_check.h) counts the positions the game-speed search handles.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/core/types.h"

namespace damas {

// The first data line of the file: its format and version.
inline constexpr std::string_view kSafetySetVersion = "safety-set 1";

// A root move and its deep score (side to move's view, 1/100 man).
struct MoveScore {
  Move move;
  Score score = 0;
};

// Whether `other` is at least one man (kMan) worse than `best` for the side to move: a won score
// against a won one, or a lost score against a lost one, is not (the win or the loss is the same).
bool loses_a_man(Score best, Score other);

// One position, one line of the file:
//   FEN | refuted M/S [M/S ...] | best M/S | line M M ... | game FEN0 [M ...] | source
// `refuted`: the moves the deep search scores at least a man below `best`, the move damas played at
// game speed first; `line`: that move, then the deep principal variation after it (the refutation);
// `game`: the game it was played in, from its position after the opening (FEN0) to this one: the
// engine's own earlier moves are the positions with this side to move (safety_check.h replays them);
// `source`: free text (where it was found). Moves in Hub notation, scores in 1/100 man ("+35").
struct SafetyPosition {
  Position position;
  std::vector<MoveScore> refuted;  // never empty; refuted[0] is the game-speed move
  MoveScore best;
  std::vector<Move> line;  // starts with refuted[0].move; every move legal in turn
  Position game_start;     // the game: these moves from game_start reach `position`
  std::vector<Move> game;  // (none, with game_start == position, when there is no game)
  std::string source;
  int line_number = 0;  // in the file it was read from (0: made in memory)

  const Move& played() const { return refuted.front().move; }
  bool is_refuted(const Move& m) const;
};

struct SafetySet {
  std::vector<std::string> header;  // the comment lines before the version line, '#' included
  std::vector<SafetyPosition> positions;
};

// The file: comment lines ('#'), then the version line, then one position per line (later '#'
// lines are comments too). A line that does not parse, an illegal move, a refuted move that does not
// lose a man against the best one, a line that does not start with the played move, a game that
// does not reach the position, a position given twice: refused with "source:line: ". An empty set is allowed
// (a mining run may find none).
Expected<SafetySet> parse_safety_set(std::string_view text, const std::string& source = "safety set");
Expected<SafetySet> load_safety_set(const std::string& path);

// The writer: format_safety_set(parse_safety_set(text)) is the text again for a text it wrote.
std::string safety_line(const SafetyPosition& p);
std::string format_safety_set(const SafetySet& set);
// Written to a temporary file beside `path`, then renamed over it: an interruption leaves the old file.
Status write_safety_set(const std::string& path, const SafetySet& set);

}  // namespace damas
