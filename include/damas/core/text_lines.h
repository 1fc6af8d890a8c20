// The one reader of line-oriented data files (bench positions, openings, tactics, evaluation
// weights): numbered lines, '#' comments cut, white space trimmed, blank lines skipped. Each
// format parses the text of its lines; errors name "source:line: ".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"

namespace damas {

enum class CommentStyle {
  ToEndOfLine,    // '#' anywhere starts a comment
  WholeLineOnly,  // only lines starting with '#' are comments ('#' may appear in free text)
};

struct DataLine {
  int number = 0;         // 1-based line number in the file
  std::string_view text;  // trimmed, comment removed, never empty; a view into the input
};

std::vector<DataLine> data_lines(std::string_view text, CommentStyle style = CommentStyle::ToEndOfLine);

// Spaces, tabs, CR and LF removed at both ends.
std::string_view trim(std::string_view s);

// "source:line: ", the prefix of every error about a line.
std::string line_location(const std::string& source, int line_number);

// The whole file, checked (core/file_check.h: a regular file of at most file_limit::kText bytes);
// `what` names it in the error ("cannot open <what> <path>: ...").
Expected<std::string> read_text_file(const std::string& path, std::string_view what);

}  // namespace damas
