#include "damas/core/text_lines.h"

#include "damas/core/file_check.h"

namespace damas {

std::string_view trim(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(kSpace);
  return s.substr(first, last - first + 1);
}

std::vector<DataLine> data_lines(std::string_view text, CommentStyle style) {
  std::vector<DataLine> out;
  int number = 0;
  while (!text.empty()) {
    ++number;
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    if (style == CommentStyle::ToEndOfLine) {
      if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    }
    line = trim(line);
    if (line.empty()) continue;
    if (style == CommentStyle::WholeLineOnly && line.front() == '#') continue;
    out.push_back(DataLine{number, line});
  }
  return out;
}

std::string line_location(const std::string& source, int line_number) {
  return source + ":" + std::to_string(line_number) + ": ";
}

Expected<std::string> read_text_file(const std::string& path, std::string_view what) {
  return read_checked_file(path, what, file_limit::kText);
}

}  // namespace damas
