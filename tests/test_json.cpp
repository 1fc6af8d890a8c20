// The web part's strict JSON reader and writer: exactly one value, bounded, errors with offsets.
#include <catch2/catch.hpp>
#include <string>

#include "damas/core/json.h"

using namespace damas;

TEST_CASE("json: values of every kind read back and dump compactly", "[json]") {
  const auto j =
      parse_json(R"( {"a": [1, -2.5, 3e2, true, false, null], "s": "x\"\\\n\u00e9\ud83d\ude00"} )");
  REQUIRE(j.has_value());
  REQUIRE(j->find("a"));
  CHECK(j->find("a")->as_array().size() == 6);
  CHECK(j->find("a")->as_array()[1].as_number() == -2.5);
  CHECK(j->find("a")->as_array()[2].as_number() == 300);
  CHECK(j->find("s")->as_string() == "x\"\\\n\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(j->dump() == "{\"a\":[1,-2.5,300,true,false,null],\"s\":\"x\\\"\\\\\\n\xc3\xa9\xf0\x9f\x98\x80\"}");
  CHECK(parse_json(j->dump())->dump() == j->dump());
}

TEST_CASE("json: anything but exactly one strict value is refused with its offset", "[json]") {
  for (const char* bad : {"",         "{",           "{\"a\":1,}",  "[1,]",
                          "{'a':1}",  "01",          "1.",          "-",
                          "NaN",      "{\"a\" 1}",   "tru",         "\"abc",
                          "\"a\tb\"", "\"\\x\"",     "\"\\ud800\"", "\"\\udc00\"",
                          "1 2",      "{\"a\":1}{}", "// c\n1",     "{\"k\":1,\"k\":2}",
                          "1e999",    "[1 2]"}) {
    INFO(bad);
    const auto j = parse_json(bad);
    REQUIRE_FALSE(j.has_value());
    CHECK(j.error().find("bad JSON at byte") == 0);
  }
}

TEST_CASE("json: nesting depth and size are bounded", "[json]") {
  const std::string deep = std::string(40, '[') + std::string(40, ']');
  CHECK_FALSE(parse_json(deep, {1 << 20, 32}).has_value());
  CHECK(parse_json(deep, {1 << 20, 64}).has_value());
  const auto big = parse_json("\"" + std::string(100, 'x') + "\"", {50, 8});
  REQUIRE_FALSE(big.has_value());
  CHECK(big.error().find("over the limit") != std::string::npos);
}

TEST_CASE("json: control characters are escaped on output", "[json]") {
  CHECK(Json::string(std::string("a\x01") + "b").dump() == "\"a\\u0001b\"");
}
