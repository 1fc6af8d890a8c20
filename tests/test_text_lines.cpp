#include <catch2/catch.hpp>

#include "damas/core/text_lines.h"

using namespace damas;

TEST_CASE("Data lines: numbered, comments cut, trimmed, blank lines skipped", "[text_lines]") {
  const auto lines =
      data_lines("# header\n\n  first line  # note\r\n\t\nsecond\r\n   # only a comment\nlast");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].number == 3);
  CHECK(lines[0].text == "first line");
  CHECK(lines[1].number == 5);
  CHECK(lines[1].text == "second");
  CHECK(lines[2].number == 7);
  CHECK(lines[2].text == "last");
}

TEST_CASE("Data lines: whole-line comments keep a '#' inside the text", "[text_lines]") {
  const auto lines =
      data_lines("# comment\nFEN | 2-6 | stage of #2\n  #indented comment\n", CommentStyle::WholeLineOnly);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].number == 2);
  CHECK(lines[0].text == "FEN | 2-6 | stage of #2");
}

TEST_CASE("Data lines: empty text and text of only comments give no lines", "[text_lines]") {
  CHECK(data_lines("").empty());
  CHECK(data_lines("\n\n#x\n   \n").empty());
}

TEST_CASE("Data lines: errors are located as source:line", "[text_lines]") {
  CHECK(line_location("bench/openings.txt", 12) == "bench/openings.txt:12: ");
}

TEST_CASE("Data lines: a missing file is an error naming what and where", "[text_lines]") {
  const auto text = read_text_file("/nonexistent/damas/weights.txt", "weights file");
  REQUIRE_FALSE(text);
  CHECK(text.error() == "cannot open weights file /nonexistent/damas/weights.txt: No such file or directory");
}

TEST_CASE("Trim removes spaces, tabs, CR and LF at both ends only", "[text_lines]") {
  CHECK(trim(" \t a b \r\n") == "a b");
  CHECK(trim("   ").empty());
  CHECK(trim("x") == "x");
}
