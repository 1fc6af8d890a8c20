#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "damas/cli/progress.h"

using namespace damas::cli;

namespace {

// Everything written to `f` so far.
std::string written(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) text += static_cast<char>(c);
  return text;
}

}  // namespace

TEST_CASE("progress line redraws in place on a terminal and ends with one newline", "[progress]") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    ProgressLine line(f, true);
    line.draw("1/3");
    line.draw("2/3");
    line.message("game #2: crashed");
    line.draw("3/3");
  }
  CHECK(written(f) == "\r1/3\033[K\r2/3\033[K\r\033[Kgame #2: crashed\n\r3/3\033[K\n");
  std::fclose(f);
}

TEST_CASE("progress line writes nothing but messages when not on a terminal", "[progress]") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    ProgressLine line(f, false);
    line.draw("1/3");
    line.message("game #2: crashed");
    line.clear();
    line.finish();
  }
  CHECK(written(f) == "game #2: crashed\n");
  std::fclose(f);
}

TEST_CASE("progress line cleared leaves no newline behind", "[progress]") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f);
  {
    ProgressLine line(f, true);
    line.clear();  // nothing drawn yet: nothing to erase
    line.draw("game 1/2");
    line.clear();
  }
  CHECK(written(f) == "\rgame 1/2\033[K\r\033[K");
  std::fclose(f);
}

TEST_CASE("progress bar and clock texts", "[progress]") {
  CHECK(bar_text(0, 10, 10) == "[..........]");
  CHECK(bar_text(5, 10, 10) == "[#####.....]");
  CHECK(bar_text(10, 10, 10) == "[##########]");
  CHECK(bar_text(99, 10, 10) == "[##########]");
  CHECK(bar_text(0, 0, 4) == "[####]");
  CHECK(bar_text(1, 3) == "[##########....................]");
  CHECK(clock_text(0) == "0:00:00");
  CHECK(clock_text(59.6) == "0:01:00");
  CHECK(clock_text(3725) == "1:02:05");
  CHECK(clock_text(-5) == "0:00:00");
}
