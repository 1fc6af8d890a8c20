// A small strict XML reader for the tests of files damas writes (the SVG graphs of
// `analyze --plot`): elements, attributes in quotes, text, comments and the XML declaration;
// every element closed by its own name, one root. Enough to refuse a malformed file and to look
// at its elements; not a general XML parser (no DTD, no CDATA, entities left as written).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"

namespace xml {

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<Element> children;
  std::string text;  // the text directly inside

  // Every element below this one (and itself) with that name, in document order.
  void collect(std::string_view wanted, std::vector<const Element*>& out) const {
    if (name == wanted) out.push_back(this);
    for (const Element& c : children) c.collect(wanted, out);
  }
};

class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  damas::Expected<Element> document() {
    skip_misc();
    Element root;
    if (!element(root)) return damas::Error{error_};
    skip_misc();
    if (at_ != s_.size()) return damas::Error{"text after the root element at byte " + std::to_string(at_)};
    return root;
  }

 private:
  std::string_view s_;
  std::size_t at_ = 0;
  std::string error_;

  bool fail(const std::string& why) {
    if (error_.empty()) error_ = why + " at byte " + std::to_string(at_);
    return false;
  }
  bool starts(std::string_view p) const { return s_.substr(at_, p.size()) == p; }
  void skip_space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\t' || s_[at_] == '\r'))
      ++at_;
  }
  // Whitespace, comments and processing instructions (<?xml ...?>).
  void skip_misc() {
    for (;;) {
      skip_space();
      if (starts("<?")) at_ = std::min(s_.size(), s_.find("?>", at_) + 2);
      else if (starts("<!--")) at_ = std::min(s_.size(), s_.find("-->", at_) + 3);
      else return;
    }
  }
  std::string name() {
    const std::size_t from = at_;
    while (at_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[at_])) || s_[at_] == '-' ||
                               s_[at_] == '_' || s_[at_] == ':' || s_[at_] == '.'))
      ++at_;
    return std::string(s_.substr(from, at_ - from));
  }
  bool element(Element& e) {
    if (!starts("<")) return fail("expected an element");
    ++at_;
    e.name = name();
    if (e.name.empty()) return fail("element without a name");
    for (;;) {
      skip_space();
      if (starts("/>")) {
        at_ += 2;
        return true;
      }
      if (starts(">")) {
        ++at_;
        break;
      }
      const std::string key = name();
      if (key.empty() || !starts("=\"")) return fail("bad attribute in <" + e.name + ">");
      at_ += 2;
      const std::size_t end = s_.find('"', at_);
      if (end == std::string_view::npos) return fail("unclosed attribute value");
      const std::string value(s_.substr(at_, end - at_));
      if (value.find('<') != std::string::npos) return fail("'<' in an attribute value");
      if (!e.attributes.emplace(key, value).second) return fail("repeated attribute " + key);
      at_ = end + 1;
    }
    return content(e);
  }
  bool content(Element& e) {
    for (;;) {
      if (at_ >= s_.size()) return fail("<" + e.name + "> is not closed");
      if (starts("<!--")) {
        skip_misc();
      } else if (starts("</")) {
        at_ += 2;
        if (name() != e.name || !starts(">")) return fail("</...> does not close <" + e.name + ">");
        ++at_;
        return true;
      } else if (starts("<")) {
        e.children.emplace_back();
        if (!element(e.children.back())) return false;
      } else {
        e.text += s_[at_++];
      }
    }
  }
};

inline damas::Expected<Element> read(std::string_view text) { return Reader(text).document(); }

}  // namespace xml
