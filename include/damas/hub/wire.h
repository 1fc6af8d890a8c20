// The Hub wire syntax (protocol/hub.md): reading and writing lines (command word, name=value
// pairs, quoting), the info/done/level messages, an engine's param/info/done answers as a client
// reads them, and cutting a byte stream into lines. Shared by the engine's front end (hub.h) and
// the match runner's Hub client (match/hub_engine.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/notation.h"
#include "damas/engine/engine.h"

namespace damas::hub {

// ---- Line scanner ---------------------------------------------------------------------------

struct Argument {
  std::string name;
  std::string value;  // empty for a flag
  bool flag = false;  // a bare name, written without '='
};

struct Line {
  std::string command;
  std::vector<Argument> args;

  // The first argument called `name` (nullptr when absent).
  const Argument* find(std::string_view name) const;
  bool has(std::string_view name) const { return find(name) != nullptr; }
};

// Parses one line (without its '\n'). Whitespace is space, tab, '\r', '\f', '\v'. A token is a
// run of characters that are neither whitespace, control characters, '=' nor '"'. A value is a
// token or a "quoted string" (no escapes); `name=` followed by nothing is an empty value.
// Errors: missing command, unterminated quote, control character, '=' without a name.
Expected<Line> parse_line(std::string_view text);

// ---- Writer ---------------------------------------------------------------------------------

// True when `value` can be written without quotes.
bool is_token(std::string_view value);

// One outgoing line: command, then name=value pairs (values quoted only when needed). A value
// that cannot be written ('"' or control characters) has those characters replaced by '\''/'?'.
class Message {
 public:
  explicit Message(std::string_view command);
  Message& arg(std::string_view name, std::string_view value);
  // Always between quotes, as protocol/hub.md writes `pos ... moves="<move> <move> ..."`.
  Message& quoted(std::string_view name, std::string_view value);
  Message& flag(std::string_view name);
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

// A score in men with two decimals, side to move's view: 5 -> "0.05", win in 7 plies -> "99.93".
std::string format_score(Score s);

// The `info` line for a progress report, or "" when it would carry no field. PV moves are
// checked against the root; the PV is cut at the first move that is not legal.
std::string format_info(const SearchInfo& info, const Position& root, Numbering numbering);

// The move to announce for a finished search: result.best when legal at the root, else the
// first legal PV move, else the first legal move. Null only when the root has no legal move.
Move choose_best_move(const SearchResult& result, const Position& root);
// The expected reply, when it is legal after `best`; null otherwise.
Move choose_ponder_move(const SearchResult& result, const Position& root, const Move& best);
// The `done` line: `done move=<m>` [+ ` ponder=<m>`], exactly in that order (pydraughts).
std::string format_done(const SearchResult& result, const Position& root, Numbering numbering);

// Search limits from a `level` line (protocol/hub.md section "level"). Unknown arguments are
// ignored; a bad value makes the whole line an error.
Expected<SearchLimits> parse_level(const Line& line);

// ---- An engine's answers, as a client reads them (match/hub_engine.h) -------------------------

// The command word of a line without reading the rest ("" when the line has none): for skipping
// lines that are only kept, such as every `info` but the last.
std::string_view command_of(std::string_view text);

// A `param` line: the parameter's name, type, value and, for an enum, its values.
struct ParamDeclaration {
  std::string name;
  std::string type;
  std::string value;
  std::vector<std::string> values;  // enum only
};
// Nothing when the line has no name.
std::optional<ParamDeclaration> read_param(const Line& line);

// The figures of an `info` line, read as leniently as engines write them: a field that is absent
// or does not start with a number keeps its default.
struct InfoFigures {
  int depth = 0;
  std::uint64_t nodes = 0;
  std::optional<int> score;  // hundredths of a man (format_score's unit), the engine's view
};
InfoFigures read_info(const Line& line);

// A `done` line: its move and ponder move as written ("" when absent).
struct DoneAnswer {
  std::string move;
  std::string ponder;
};
DoneAnswer read_done(const Line& line);

// ---- Input assembly -------------------------------------------------------------------------

// Cuts a byte stream into lines at '\n'. A line longer than max_line bytes is not kept: its
// callback receives the first bytes only and too_long = true, once, when the line ends.
class LineSplitter {
 public:
  using Handler = std::function<void(std::string_view line, bool too_long)>;
  explicit LineSplitter(std::size_t max_line) : max_line_(max_line) {}
  void feed(std::string_view bytes, const Handler& handler);
  // End of input: delivers a last line that had no '\n'.
  void finish(const Handler& handler);

 private:
  std::size_t max_line_;
  std::string pending_;
  bool overflow_ = false;
};

inline constexpr std::size_t kMaxLineBytes = std::size_t{4} << 20;  // 4 MiB

}  // namespace damas::hub
