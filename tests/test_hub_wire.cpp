// The Hub wire module (hub/wire.h) on its own: values written by Message come back unchanged from
// parse_line, and a malformed line is an error value, never an exception or a partial Line.
#include <catch2/catch.hpp>

#include "damas/hub/wire.h"

using namespace damas;
using namespace damas::hub;

TEST_CASE("hub wire: a value with spaces, '=' or nothing round-trips through Message and parse_line",
          "[hub][wire]") {
  for (const std::string value : {"a b", "  lead and trail  ", "x=y", "", "10-14 23-19", "plain"}) {
    INFO("value: [" << value << "]");
    const std::string text = Message("set-param").arg("name", "n").arg("value", value).str();
    const Expected<Line> line = parse_line(text);
    REQUIRE(line.has_value());
    CHECK(line->command == "set-param");
    REQUIRE(line->find("value"));
    CHECK(line->find("value")->value == value);
    CHECK_FALSE(line->find("value")->flag);
  }
  CHECK(Message("c").arg("v", "").str() == "c v=\"\"");  // an empty value is written, not dropped
}

TEST_CASE("hub wire: a quote inside a value is written as an apostrophe and read back as one",
          "[hub][wire]") {
  const std::string text = Message("error").arg("message", "say \"hi\"").str();
  CHECK(text == "error message=\"say 'hi'\"");
  const Expected<Line> line = parse_line(text);
  REQUIRE(line.has_value());
  CHECK(line->find("message")->value == "say 'hi'");
}

TEST_CASE("hub wire: malformed lines give an error value naming the fault", "[hub][wire]") {
  const auto error_of = [](std::string_view text) {
    const Expected<Line> line = parse_line(text);
    INFO(text);
    REQUIRE_FALSE(line.has_value());
    return line.error();
  };
  CHECK(error_of("set-param name=\"open").find("unterminated quote in the value of 'name'") !=
        std::string::npos);
  CHECK(error_of("pos =x").find("without an argument name") != std::string::npos);
  CHECK(error_of("level depth==3").find("'=' after '='") != std::string::npos);
  CHECK(error_of("").find("missing command") != std::string::npos);
}
