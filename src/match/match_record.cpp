#include "damas/match/match_record.h"

#include <charconv>

#include "damas/core/pdn.h"
#include "damas/core/text_lines.h"

namespace damas {

namespace {

struct Chunk {
  int line = 0;  // first line, 1-based
  std::string_view text;
};

// The file cut before every line that starts a game ("[Event "); the text before the first game
// must be blank.
Expected<std::vector<Chunk>> split_games(std::string_view text, const std::string& source) {
  std::vector<Chunk> chunks;
  std::size_t chunk_start = std::string_view::npos;
  int line = 1;
  for (std::size_t pos = 0; pos < text.size(); ++line) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view this_line = text.substr(pos, end - pos);
    if (this_line.rfind("[Event ", 0) == 0) {
      if (chunk_start != std::string_view::npos)
        chunks.back().text = text.substr(chunk_start, pos - chunk_start);
      chunk_start = pos;
      chunks.push_back(Chunk{line, {}});
    } else if (chunk_start == std::string_view::npos && !trim(this_line).empty()) {
      return Error{line_location(source, line) +
                   "not a game of damas match (a game starts with its Event tag)"};
    }
    pos = end + 1;
  }
  if (chunk_start != std::string_view::npos) chunks.back().text = text.substr(chunk_start);
  return chunks;
}

// The inverse of to_string(GameResult) for a finished game.
std::optional<GameResult> result_of(std::string_view text) {
  for (const GameResult r : {GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw})
    if (to_string(r) == text) return r;
  return std::nullopt;
}

// One game; an error says what is missing or broken.
Expected<RecordedGame> read_game(const Chunk& chunk) {
  std::vector<PdnGameOrError> games = read_pdn(chunk.text);
  if (games.size() != 1) return Error{"not one game"};
  if (!games.front()) return Error{games.front().error()};
  const PdnGame& p = *games.front();
  if (p.result.empty()) return Error{"the game has no result (cut off?)"};
  RecordedGame g;
  g.line = chunk.line;
  const std::optional<std::string> round = p.tag("Round");
  const std::optional<std::string> white = p.tag("White");
  const std::optional<std::string> black = p.tag("Black");
  if (!round || !white || !black) return Error{"a Round, White or Black tag is missing"};
  const char* end = round->data() + round->size();
  if (std::from_chars(round->data(), end, g.round).ptr != end || g.round < 1)
    return Error{"bad Round \"" + *round + "\""};
  const std::optional<GameResult> result = result_of(p.tag("Result").value_or(p.result));
  if (!result) return Error{"bad result \"" + p.tag("Result").value_or(p.result) + "\""};
  g.white = *white;
  g.black = *black;
  g.result = *result;
  g.time_control = p.tag("TimeControl").value_or("");
  g.termination = p.tag("Termination").value_or("");
  g.start = p.start;
  g.moves = p.moves;
  g.text = std::string(trim(chunk.text)) + "\n";
  return g;
}

}  // namespace

Expected<RecordedMatch> read_match_record(std::string_view text, const std::string& source) {
  Expected<std::vector<Chunk>> chunks = split_games(text, source);
  if (!chunks) return Error{chunks.error()};
  RecordedMatch record;
  for (std::size_t i = 0; i < chunks->size(); ++i) {
    const Chunk& chunk = (*chunks)[i];
    Expected<RecordedGame> game = read_game(chunk);
    if (game) {
      record.games.push_back(std::move(*game));
      continue;
    }
    if (i + 1 < chunks->size())
      return Error{line_location(source, chunk.line) + "the game starting here is broken: " + game.error()};
    record.dropped_line = chunk.line;  // the interruption cut the last game
  }
  return record;
}

}  // namespace damas
