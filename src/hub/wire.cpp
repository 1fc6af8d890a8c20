#include "damas/hub/wire.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "damas/core/input_echo.h"
#include "damas/core/movegen.h"

namespace damas::hub {
namespace {

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
constexpr bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 || u == 0x7f) && !is_space(c);
}
constexpr bool is_id(char c) { return !is_space(c) && !is_control(c) && c != '=' && c != '"'; }

std::string format_real(double v, int decimals) {
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("0");
}

// ---- Number parsing for `level` ----

Expected<std::int64_t> parse_int(std::string_view name, std::string_view text, std::int64_t lo,
                                 std::int64_t hi) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || v < lo || v > hi)
    return Error{"bad " + std::string(name) + " '" + echo_input(text) + "' (expected an integer from " +
                 std::to_string(lo) + " to " + std::to_string(hi) + ")"};
  return v;
}

// A plain decimal number ("1.5", "2e-3", "-0.1"); no hex, no sign '+', no "inf"/"nan".
// (std::from_chars for double is missing from Emscripten's libc++, hence strtod.)
std::optional<double> parse_decimal(std::string_view text) {
  if (text.empty() || text.front() == '+' ||
      text.find_first_not_of("0123456789.eE+-") != std::string_view::npos)
    return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  return v;
}

Expected<double> parse_real(std::string_view name, std::string_view text, double lo, double hi) {
  const std::optional<double> parsed = parse_decimal(text);
  const double v = parsed.value_or(0);
  if (!parsed || !std::isfinite(v) || v < lo || v > hi)
    return Error{"bad " + std::string(name) + " '" + echo_input(text) + "' (expected seconds from " +
                 format_real(lo, 0) + " to " + format_real(hi, 0) + ")"};
  return v;
}

// The value of argument `name`, "" when the line has none.
std::string value_of(const Line& line, std::string_view name) {
  const Argument* a = line.find(name);
  return a ? a->value : std::string();
}

// The words of a `values` list (OptionSpec::values_text's inverse): split at spaces, empty words dropped.
std::vector<std::string> split_values(std::string_view text) {
  std::vector<std::string> words;
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    if (space != 0) words.emplace_back(text.substr(0, space));
    text.remove_prefix(space == std::string_view::npos ? text.size() : space + 1);
  }
  return words;
}

constexpr std::int64_t kMaxLevelDepth = 1000;
constexpr double kMaxSeconds = 1e7;  // about four months: anything above is a typo or an attack
constexpr std::int64_t kMaxMovesToGo = 100000;

}  // namespace

// Input echoed inside a message: short, and without characters a message cannot carry.

// ---- Line scanner ---------------------------------------------------------------------------

const Argument* Line::find(std::string_view name) const {
  for (const Argument& a : args)
    if (a.name == name) return &a;
  return nullptr;
}

Expected<Line> parse_line(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  const auto skip_spaces = [&] {
    while (i < n && is_space(text[i])) ++i;
  };
  const auto read_token = [&] {
    const std::size_t start = i;
    while (i < n && is_id(text[i])) ++i;
    return std::string(text.substr(start, i - start));
  };
  const auto bad_char = [&](std::size_t at) {
    return Error{"control character (code " + std::to_string(static_cast<unsigned char>(text[at])) +
                 ") at column " + std::to_string(at + 1)};
  };

  Line line;
  skip_spaces();
  if (i == n) return Error{"missing command"};
  if (is_control(text[i])) return bad_char(i);
  if (!is_id(text[i])) return Error{"missing command (line starts with '" + std::string(1, text[i]) + "')"};
  line.command = read_token();
  while (true) {
    skip_spaces();
    if (i == n) return line;
    if (is_control(text[i])) return bad_char(i);
    if (!is_id(text[i])) {
      // Appended, not "'" + ...: GCC 12 warns falsely (-Wrestrict) on that.
      std::string message(1, '\'');
      message += text[i];
      message += "' without an argument name at column " + std::to_string(i + 1);
      return Error{message};
    }
    Argument arg;
    arg.name = read_token();
    skip_spaces();
    if (i == n || text[i] != '=') {
      arg.flag = true;
      line.args.push_back(std::move(arg));
      continue;
    }
    ++i;  // '='
    skip_spaces();
    if (i < n && text[i] == '"') {
      const std::size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos)
        return Error{"unterminated quote in the value of '" + echo_input(arg.name) + "'"};
      for (std::size_t k = i + 1; k < close; ++k)
        if (is_control(text[k])) return bad_char(k);
      arg.value = std::string(text.substr(i + 1, close - i - 1));
      i = close + 1;
    } else if (i < n && is_control(text[i])) {
      return bad_char(i);
    } else if (i < n && text[i] == '=') {
      return Error{"'=' after '=' in the value of '" + echo_input(arg.name) + "'"};
    } else {
      arg.value = read_token();  // may be empty at the end of the line
    }
    line.args.push_back(std::move(arg));
  }
}

// ---- Writer ---------------------------------------------------------------------------------

bool is_token(std::string_view value) {
  if (value.empty()) return false;
  for (const char c : value)
    if (!is_id(c)) return false;
  return true;
}

Message::Message(std::string_view command) : text_(command) {}

Message& Message::arg(std::string_view name, std::string_view value) {
  if (!is_token(value)) return quoted(name, value);
  text_ += ' ';
  text_ += name;
  text_ += '=';
  text_ += value;
  return *this;
}

Message& Message::quoted(std::string_view name, std::string_view value) {
  text_ += ' ';
  text_ += name;
  text_ += "=\"";
  for (const char c : value) text_ += c == '"' ? '\'' : is_control(c) ? '?' : c;
  text_ += '"';
  return *this;
}

Message& Message::flag(std::string_view name) {
  text_ += ' ';
  text_ += name;
  return *this;
}

std::string format_score(Score s) {
  const std::int64_t v = s;
  const std::int64_t a = v < 0 ? -v : v;
  std::string r = v < 0 ? "-" : "";
  r += std::to_string(a / 100);
  r += '.';
  r += static_cast<char>('0' + a % 100 / 10);
  r += static_cast<char>('0' + a % 10);
  return r;
}

std::string format_info(const SearchInfo& info, const Position& root, Numbering numbering) {
  Message m("info");
  bool any = false;
  if (info.depth > 0) {
    m.arg("depth", std::to_string(info.depth));
    if (info.mean_depth > 0) m.arg("mean-depth", format_real(info.mean_depth, 1));
    m.arg("score", format_score(info.score));
    any = true;
  }
  if (info.nodes > 0) {
    m.arg("nodes", std::to_string(info.nodes));
    any = true;
  }
  if (info.tbhits > 0) m.arg("tbhits", std::to_string(info.tbhits));
  if (info.seconds >= 0.001) {
    m.arg("time", format_real(info.seconds, 3));
    if (info.seconds >= 0.01 && info.nodes > 0)
      m.arg("nps", format_real(static_cast<double>(info.nodes) / info.seconds / 1e6, 1));
    any = true;
  }
  if (info.multipv_index > 1) m.arg("multipv", std::to_string(info.multipv_index));
  if (info.book) m.arg("book", "true");
  const std::vector<Move> pv = legal_prefix(root, info.pv);
  if (!pv.empty()) {
    std::string text;
    for (const Move& mv : pv) {
      if (!text.empty()) text += ' ';
      text += to_hub_move(root, mv, numbering);
    }
    m.arg("pv", text);
    any = true;
  }
  return any ? m.str() : std::string();
}

Move choose_best_move(const SearchResult& result, const Position& root) {
  if (is_legal(root, result.best)) return result.best;
  if (!result.pv.empty() && is_legal(root, result.pv.front())) return result.pv.front();
  MoveList legal;
  generate_legal_moves(root, legal);
  return legal.empty() ? kNullMove : legal[0];
}

Move choose_ponder_move(const SearchResult& result, const Position& root, const Move& best) {
  if (!is_legal(root, best)) return kNullMove;
  const Position next = root.after(best);
  if (is_legal(next, result.ponder)) return result.ponder;
  if (result.pv.size() >= 2 && result.pv[0] == best && is_legal(next, result.pv[1])) return result.pv[1];
  return kNullMove;
}

std::string format_done(const SearchResult& result, const Position& root, Numbering numbering) {
  const Move best = choose_best_move(result, root);
  Message m("done");
  if (best.is_null()) return m.str();  // only for a root without moves, which go refuses
  m.arg("move", to_hub_move(root, best, numbering));
  const Move ponder = choose_ponder_move(result, root, best);
  if (!ponder.is_null()) m.arg("ponder", to_hub_move(root, ponder, numbering));
  return m.str();
}

Expected<SearchLimits> parse_level(const Line& line) {
  SearchLimits limits;
  for (const Argument& a : line.args) {
    if (a.name == "depth") {
      const Expected<std::int64_t> v = parse_int(a.name, a.value, 1, kMaxLevelDepth);
      if (!v) return Error{v.error()};
      limits.depth = static_cast<int>(*v);
    } else if (a.name == "nodes") {
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(a.value.data(), a.value.data() + a.value.size(), v);
      if (a.value.empty() || ec != std::errc{} || end != a.value.data() + a.value.size() || v == 0)
        return Error{"bad nodes '" + echo_input(a.value) +
                     "' (expected an integer from 1 to 18446744073709551615)"};
      limits.nodes = v;
    } else if (a.name == "move-time") {
      const Expected<double> v = parse_real(a.name, a.value, 0, kMaxSeconds);
      if (!v) return Error{v.error()};
      limits.move_time = *v;
    } else if (a.name == "time") {
      const Expected<double> v = parse_real(a.name, a.value, -kMaxSeconds, kMaxSeconds);
      if (!v) return Error{v.error()};
      limits.time = *v;
    } else if (a.name == "inc") {
      const Expected<double> v = parse_real(a.name, a.value, 0, kMaxSeconds);
      if (!v) return Error{v.error()};
      limits.increment = *v;
    } else if (a.name == "moves") {
      const Expected<std::int64_t> v = parse_int(a.name, a.value, 0, kMaxMovesToGo);
      if (!v) return Error{v.error()};
      limits.moves_to_go = static_cast<int>(*v);
    } else if (a.name == "infinite") {
      limits.infinite = true;
    }
    // Anything else (the `ponder` flag, lidraughts' ply= and handicap=) is ignored.
  }
  return limits;
}

// ---- An engine's answers, as a client reads them --------------------------------------------

std::string_view command_of(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size() && is_space(text[start])) ++start;
  std::size_t end = start;
  while (end < text.size() && is_id(text[end])) ++end;
  return text.substr(start, end - start);
}

std::optional<ParamDeclaration> read_param(const Line& line) {
  if (!line.has("name")) return std::nullopt;
  ParamDeclaration p;
  p.name = value_of(line, "name");
  p.type = value_of(line, "type");
  p.value = value_of(line, "value");
  p.values = split_values(value_of(line, "values"));
  return p;
}

InfoFigures read_info(const Line& line) {
  InfoFigures figures;
  if (const Argument* a = line.find("depth")) figures.depth = std::atoi(a->value.c_str());
  if (const Argument* a = line.find("nodes")) figures.nodes = std::strtoull(a->value.c_str(), nullptr, 10);
  if (const Argument* a = line.find("score")) {
    char* end = nullptr;
    const double v = std::strtod(a->value.c_str(), &end);
    if (end != a->value.c_str() && std::isfinite(v) && std::fabs(v) < 1e6)
      figures.score = static_cast<int>(std::lround(v * 100));
  }
  return figures;
}

DoneAnswer read_done(const Line& line) { return {value_of(line, "move"), value_of(line, "ponder")}; }

// ---- Input assembly -------------------------------------------------------------------------

void LineSplitter::feed(std::string_view bytes, const Handler& handler) {
  while (!bytes.empty()) {
    const std::size_t nl = bytes.find('\n');
    const std::string_view part = bytes.substr(0, nl);
    if (!overflow_) {
      if (pending_.size() + part.size() > max_line_) {
        pending_.append(part.substr(0, max_line_ - pending_.size()));
        overflow_ = true;
      } else {
        pending_.append(part);
      }
    }
    if (nl == std::string_view::npos) return;
    handler(pending_, overflow_);
    pending_.clear();
    overflow_ = false;
    bytes.remove_prefix(nl + 1);
  }
}

void LineSplitter::finish(const Handler& handler) {
  if (!pending_.empty() || overflow_) handler(pending_, overflow_);
  pending_.clear();
  overflow_ = false;
}

}  // namespace damas::hub
