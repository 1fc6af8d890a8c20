// The Hub wire module (hub/wire.h) on its own: values written by Message come back unchanged from
// parse_line, a malformed line is an error value, never an exception or a partial Line, and what
// the front end writes (param, info, done) reads back through the client's readers.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "damas/engine/options.h"
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

TEST_CASE("hub wire: quoted() always quotes, as a client writes pos moves=", "[hub][wire]") {
  const std::string text =
      Message("pos").arg("pos", "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").quoted("moves", "11-15").str();
  CHECK(text == "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15\"");
  CHECK(Message("c").quoted("v", "a \"b\"").str() == "c v=\"a 'b'\"");
  const Expected<Line> line = parse_line(Message("pos").quoted("moves", "11-15 22-18").str());
  REQUIRE(line.has_value());
  CHECK(line->find("moves")->value == "11-15 22-18");
}

TEST_CASE("hub wire: the command word of a line, read without the rest", "[hub][wire]") {
  CHECK(command_of("info depth=3 pv=\"11-15") == "info");
  CHECK(command_of("  done move=11-15") == "done");
  CHECK(command_of("ready") == "ready");
  CHECK(command_of("") == "");
  CHECK(command_of("   ") == "");
  CHECK(command_of("=x") == "");
}

TEST_CASE("hub wire: a param line written by the front end reads back as its declaration", "[hub][wire]") {
  OptionSpec level;
  level.values = {"beginner", "easy", "full"};
  const std::string text = Message("param")
                               .arg("name", "level")
                               .arg("value", "full")
                               .arg("type", "enum")
                               .arg("values", level.values_text())
                               .str();
  CHECK(text == "param name=level value=full type=enum values=\"beginner easy full\"");
  const Expected<Line> line = parse_line(text);
  REQUIRE(line.has_value());
  const std::optional<ParamDeclaration> p = read_param(*line);
  REQUIRE(p.has_value());
  CHECK(p->name == "level");
  CHECK(p->type == "enum");
  CHECK(p->value == "full");
  CHECK(p->values == std::vector<std::string>{"beginner", "easy", "full"});

  const Expected<Line> spaced = parse_line("param name=v type=enum values=\" a  b \"");
  REQUIRE(spaced.has_value());
  CHECK(read_param(*spaced)->values == std::vector<std::string>{"a", "b"});
  const Expected<Line> bare = parse_line("param name=hash type=int");
  REQUIRE(bare.has_value());
  CHECK(read_param(*bare)->value.empty());
  CHECK(read_param(*bare)->values.empty());
  const Expected<Line> nameless = parse_line("param type=int value=3");
  REQUIRE(nameless.has_value());
  CHECK_FALSE(read_param(*nameless).has_value());
}

TEST_CASE("hub wire: an info line written by format_info reads back as its figures", "[hub][wire]") {
  SearchInfo info;
  info.depth = 12;
  info.mean_depth = 10.5;
  info.score = -35;
  info.nodes = 123456;
  info.seconds = 0.5;
  const std::string text = format_info(info, Position::start(), Numbering::Standard);
  const Expected<Line> line = parse_line(text);
  REQUIRE(line.has_value());
  const InfoFigures figures = read_info(*line);
  CHECK(figures.depth == 12);
  CHECK(figures.nodes == 123456);
  CHECK(figures.score == std::optional<int>(-35));

  const auto read = [](std::string_view t) {
    const Expected<Line> l = parse_line(t);
    REQUIRE(l.has_value());
    return read_info(*l);
  };
  const InfoFigures none = read("info time=0.1");
  CHECK(none.depth == 0);
  CHECK(none.nodes == 0);
  CHECK_FALSE(none.score.has_value());
  CHECK(read("info score=99.93").score == std::optional<int>(9993));
  CHECK_FALSE(read("info score=abc").score.has_value());
  CHECK_FALSE(read("info score=1e9").score.has_value());  // not a score a draughts engine means
}

TEST_CASE("hub wire: a done line reads back as its move and ponder move", "[hub][wire]") {
  const Expected<Line> both = parse_line("done move=11-15 ponder=22-18");
  REQUIRE(both.has_value());
  CHECK(read_done(*both).move == "11-15");
  CHECK(read_done(*both).ponder == "22-18");
  const Expected<Line> bare = parse_line("done");
  REQUIRE(bare.has_value());
  CHECK(read_done(*bare).move.empty());
  CHECK(read_done(*bare).ponder.empty());
}
