#include "damas/core/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace damas {

Json Json::boolean(bool b) {
  Json j;
  j.kind_ = Kind::Bool;
  j.bool_ = b;
  return j;
}

Json Json::number(double d) {
  Json j;
  j.kind_ = Kind::Number;
  j.number_ = std::isfinite(d) ? d : 0;  // JSON has no NaN or infinity
  return j;
}

Json Json::string(std::string s) {
  Json j;
  j.kind_ = Kind::String;
  j.string_ = std::move(s);
  return j;
}

Json Json::array(Array a) {
  Json j;
  j.kind_ = Kind::Array;
  j.array_ = std::move(a);
  return j;
}

Json Json::object(Object o) {
  Json j;
  j.kind_ = Kind::Object;
  j.object_ = std::move(o);
  return j;
}

const Json* Json::find(std::string_view key) const {
  if (kind_ != Kind::Object) return nullptr;
  for (const auto& [k, v] : object_)
    if (k == key) return &v;
  return nullptr;
}

Json& Json::set(std::string key, Json value) {
  if (kind_ != Kind::Object) return *this;
  for (auto& [k, v] : object_)
    if (k == key) {
      v = std::move(value);
      return *this;
    }
  object_.emplace_back(std::move(key), std::move(value));
  return *this;
}

Json& Json::push(Json value) {
  if (kind_ == Kind::Array) array_.push_back(std::move(value));
  return *this;
}

namespace {

void dump_string(const std::string& s, std::string& out) {
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

void dump_number(double d, std::string& out) {
  char buf[32];
  if (d == std::floor(d) && std::fabs(d) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", d);
  else std::snprintf(buf, sizeof buf, "%.17g", d);
  out += buf;
}

void dump_value(const Json& j, std::string& out) {
  switch (j.kind()) {
    case Json::Kind::Null:
      out += "null";
      break;
    case Json::Kind::Bool:
      out += j.as_bool() ? "true" : "false";
      break;
    case Json::Kind::Number:
      dump_number(j.as_number(), out);
      break;
    case Json::Kind::String:
      dump_string(j.as_string(), out);
      break;
    case Json::Kind::Array: {
      out += '[';
      bool first = true;
      for (const Json& v : j.as_array()) {
        if (!first) out += ',';
        first = false;
        dump_value(v, out);
      }
      out += ']';
      break;
    }
    case Json::Kind::Object: {
      out += '{';
      bool first = true;
      for (const auto& [k, v] : j.as_object()) {
        if (!first) out += ',';
        first = false;
        dump_string(k, out);
        out += ':';
        dump_value(v, out);
      }
      out += '}';
      break;
    }
  }
}

// Recursive-descent reader over a bounded text; the depth bound keeps the recursion small.
class Reader {
 public:
  Reader(std::string_view text, int max_depth) : text_(text), max_depth_(max_depth) {}

  Expected<Json> document() {
    Json value;
    if (!parse_value(value, 0)) return Error{error_};
    skip_space();
    if (pos_ != text_.size()) return fail_value("unexpected text after the JSON value");
    return value;
  }

 private:
  Expected<Json> fail_value(const std::string& why) {
    fail(why);
    return Error{error_};
  }
  bool fail(const std::string& why) {
    if (error_.empty()) error_ = "bad JSON at byte " + std::to_string(pos_) + ": " + why;
    return false;
  }
  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("unknown literal");
    pos_ += word.size();
    return true;
  }

  bool parse_value(Json& out, int depth) {
    if (depth > max_depth_) return fail("nested too deeply");
    skip_space();
    if (pos_ >= text_.size()) return fail("expected a value");
    const char c = text_[pos_];
    if (c == '{') return parse_object(out, depth);
    if (c == '[') return parse_array(out, depth);
    if (c == '"') {
      std::string s;
      if (!parse_string(s)) return false;
      out = Json::string(std::move(s));
      return true;
    }
    if (c == 't') {
      out = Json::boolean(true);
      return literal("true");
    }
    if (c == 'f') {
      out = Json::boolean(false);
      return literal("false");
    }
    if (c == 'n') {
      out = Json();
      return literal("null");
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number(out);
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool parse_object(Json& out, int depth) {
    ++pos_;  // '{'
    out = Json::object();
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') return fail("expected a string key");
      std::string key;
      if (!parse_string(key)) return false;
      if (out.find(key)) return fail("repeated key \"" + key + "\"");
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ':') return fail("expected ':'");
      ++pos_;
      Json value;
      if (!parse_value(value, depth + 1)) return false;
      out.set(std::move(key), std::move(value));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  bool parse_array(Json& out, int depth) {
    ++pos_;  // '['
    out = Json::array();
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      Json value;
      if (!parse_value(value, depth + 1)) return false;
      out.push(std::move(value));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool parse_number(Json& out) {
    const std::size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) return fail("bad number");
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))
      return fail("leading zero in a number");
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (pos_ >= text_.size() || !is_digit(text_[pos_])) return fail("bad fraction");
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ >= text_.size() || !is_digit(text_[pos_])) return fail("bad exponent");
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    }
    // The token is validated above, so strtod reads exactly it (from a NUL-terminated copy).
    const std::string token(text_.substr(start, pos_ - start));
    const double d = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(d)) return fail("number out of range");
    out = Json::number(d);
    return true;
  }

  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  bool hex4(std::uint32_t& v) {
    if (pos_ + 4 > text_.size()) return fail("short \\u escape");
    v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else return fail("bad \\u escape");
    }
    return true;
  }

  static void append_utf8(std::uint32_t cp, std::string& s) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool escape(std::string& s) {
    if (pos_ >= text_.size()) return fail("unterminated string");
    const char e = text_[pos_++];
    switch (e) {
      case '"':
        s += '"';
        return true;
      case '\\':
        s += '\\';
        return true;
      case '/':
        s += '/';
        return true;
      case 'b':
        s += '\b';
        return true;
      case 'f':
        s += '\f';
        return true;
      case 'n':
        s += '\n';
        return true;
      case 'r':
        s += '\r';
        return true;
      case 't':
        s += '\t';
        return true;
      case 'u': {
        std::uint32_t cp = 0;
        if (!hex4(cp)) return false;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return fail("lone low surrogate");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          std::uint32_t low = 0;
          if (text_.substr(pos_, 2) != "\\u") return fail("lone high surrogate");
          pos_ += 2;
          if (!hex4(low)) return false;
          if (low < 0xDC00 || low > 0xDFFF) return fail("bad surrogate pair");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(cp, s);
        return true;
      }
      default:
        return fail("bad escape");
    }
  }

  bool parse_string(std::string& s) {
    ++pos_;  // '"'
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      if (c == '\\') {
        if (!escape(s)) return false;
      } else {
        s += c;
      }
    }
    return fail("unterminated string");
  }

  std::string_view text_;
  int max_depth_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

std::string Json::dump() const {
  std::string out;
  dump_value(*this, out);
  return out;
}

Expected<Json> parse_json(std::string_view text, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    return Error{"JSON text of " + std::to_string(text.size()) + " bytes is over the limit of " +
                 std::to_string(limits.max_bytes)};
  return Reader(text, limits.max_depth).document();
}

}  // namespace damas
