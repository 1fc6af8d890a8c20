// A minimal strict JSON value, reader and writer (RFC 8259 subset): the web API and the
// openings files (pydraughts' ballots) use it.
//
// The reader refuses anything that is not exactly one JSON value: trailing text, comments,
// trailing commas, single quotes, leading zeros, lone surrogates, control characters in strings,
// NaN/Infinity. It bounds its input (size and nesting depth) and never throws; errors name the
// byte offset. Numbers are doubles. Object keys keep their first occurrence; a repeated key is an
// error (so "move" cannot mean two things).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "damas/core/expected.h"

namespace damas {

class Json {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;  // insertion order, unique keys

  Json() = default;  // null
  static Json boolean(bool b);
  static Json number(double d);
  static Json string(std::string s);
  static Json array(Array a = {});
  static Json object(Object o = {});

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_number() const { return kind_ == Kind::Number; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_object() const { return kind_ == Kind::Object; }

  bool as_bool() const { return bool_; }
  double as_number() const { return number_; }
  const std::string& as_string() const { return string_; }
  const Array& as_array() const { return array_; }
  const Object& as_object() const { return object_; }

  // Object member (nullptr when absent or when this is not an object).
  const Json* find(std::string_view key) const;
  // Builders (on an object / array; they do nothing on other kinds).
  Json& set(std::string key, Json value);  // replaces an existing key
  Json& push(Json value);

  std::string dump() const;  // compact, keys in insertion order

 private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  Array array_;
  Object object_;
};

struct JsonLimits {
  std::size_t max_bytes = 1 << 20;
  int max_depth = 32;
};

Expected<Json> parse_json(std::string_view text, const JsonLimits& limits = {});

// Convenience for building answers.
inline Json json_str(std::string_view s) { return Json::string(std::string(s)); }
inline Json json_num(double d) { return Json::number(d); }
inline Json json_bool(bool b) { return Json::boolean(b); }

}  // namespace damas
