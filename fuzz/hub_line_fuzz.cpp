// libFuzzer target: the Hub line scanner, the writer, `level`, the line splitter and the front
// end's handling of pos/level/ping/stop/set-param lines, on arbitrary bytes.
// Invariants (a violation traps):
//   * a line that parses has a command made of token characters;
//   * what the writer produces from a parsed argument parses back to the same value (with '"'
//     written as '\''), and writer output never contains a control character or a newline;
//   * the splitter never delivers a line containing '\n' or longer than its limit;
//   * every front-end answer is one line that the scanner reads, and is an `error`, `pong`,
//     or part of the handshake.
// `go` is not sent to the front end (a search per input would make fuzzing crawl).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "damas/hub/hub.h"

namespace {

using namespace damas;
using namespace damas::hub;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// What the writer makes of a value: '"' becomes '\'', control characters (not the blanks
// tab, CR, FF, VT) become '?'.
std::string written_back(std::string_view v) {
  std::string s;
  for (const char c : v) {
    const auto u = static_cast<unsigned char>(c);
    const bool blank = c == '\t' || c == '\r' || c == '\f' || c == '\v';
    s += c == '"' ? '\'' : (u < 0x20 || u == 0x7f) && !blank ? '?' : c;
  }
  return s;
}

void check_output(std::string_view line) {
  check(line.find('\n') == std::string_view::npos);
  const Expected<Line> l = parse_line(line);
  check(l.has_value());
  const std::string& c = l->command;
  check(c == "error" || c == "pong" || c == "id" || c == "param" || c == "wait" || c == "ready");
}

Frontend& frontend() {
  static Frontend f(check_output, [] {
    Options o;
    (void)o.set(option::kHash, "1");
    return o;
  }());
  return f;
}

bool harmless_for_frontend(const Line& l) {
  if (l.command == "go" || l.command == "quit" || l.command == "new-game") return false;
  if (l.command == "set-param") {
    // Table sizes and files would make every run slow; the parser paths are the same.
    const Argument* name = l.find("name");
    return !name || (name->value != "hash" && name->value != "threads" && name->value != "eval-file");
  }
  return true;
}

void check_line(std::string_view text) {
  const Expected<Line> parsed = parse_line(text);
  if (!parsed) {
    check(!parsed.error().empty());
    frontend().process_line(text);  // an error line, checked by check_output
    return;
  }
  check(is_token(parsed->command));
  for (const Argument& a : parsed->args) {
    check(is_token(a.name));
    const std::string out = Message("x").arg(a.name, a.value).str();
    const Expected<Line> again = parse_line(out);
    check(again.has_value() && again->args.size() == 1);
    check(again->args[0].value == written_back(a.value));
  }
  if (parsed->command == "level") (void)parse_level(*parsed);
  if (harmless_for_frontend(*parsed)) frontend().process_line(text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  constexpr std::size_t kLimit = 300;
  LineSplitter splitter(kLimit);
  const LineSplitter::Handler handle = [](std::string_view line, bool too_long) {
    check(line.find('\n') == std::string_view::npos && line.size() <= kLimit);
    if (too_long) frontend().reject_long_line();
    else check_line(line);
  };
  // Cut the input at an arbitrary point, as read() may.
  const std::size_t cut = size == 0 ? 0 : data[0] % (size + 1);
  splitter.feed(bytes.substr(0, cut), handle);
  splitter.feed(bytes.substr(cut), handle);
  splitter.finish(handle);
  return 0;
}
