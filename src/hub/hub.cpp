#include "damas/hub/hub.h"

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "damas/core/movegen.h"

namespace damas::hub {
namespace {

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
constexpr bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 || u == 0x7f) && !is_space(c);
}
constexpr bool is_id(char c) { return !is_space(c) && !is_control(c) && c != '=' && c != '"'; }

// Input echoed inside a message: short, and without characters a message cannot carry.
std::string shown(std::string_view s) {
  constexpr std::size_t kMaxShown = 40;
  std::string r;
  for (const char c : s.substr(0, kMaxShown)) r += is_control(c) || is_space(c) ? '?' : c == '"' ? '\'' : c;
  if (s.size() > kMaxShown) r += "...";
  return r;
}

bool legal_at(const Position& p, const Move& m) {
  if (m.is_null()) return false;
  MoveList legal;
  generate_legal_moves(p, legal);
  return legal.contains(m);
}

std::string format_real(double v, int decimals) {
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("0");
}

// The PV from the root, cut before the first move that is not legal where it is played.
std::vector<Move> legal_prefix(const std::vector<Move>& pv, const Position& root) {
  std::vector<Move> out;
  Position p = root;
  for (const Move& m : pv) {
    if (!legal_at(p, m)) break;
    out.push_back(m);
    p = p.after(m);
  }
  return out;
}

// ---- Number parsing for `level` ----

Expected<std::int64_t> parse_int(std::string_view name, std::string_view text, std::int64_t lo,
                                 std::int64_t hi) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || v < lo || v > hi)
    return Error{"bad " + std::string(name) + " '" + shown(text) + "' (expected an integer from " +
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
    return Error{"bad " + std::string(name) + " '" + shown(text) + "' (expected seconds from " +
                 format_real(lo, 0) + " to " + format_real(hi, 0) + ")"};
  return v;
}

constexpr std::int64_t kMaxLevelDepth = 1000;
constexpr double kMaxSeconds = 1e7;  // about four months: anything above is a typo or an attack
constexpr std::int64_t kMaxMovesToGo = 100000;

std::string_view type_name(OptionType t) {
  switch (t) {
    case OptionType::Bool:
      return "bool";
    case OptionType::Int:
      return "int";
    case OptionType::String:
      return "string";
    case OptionType::Enum:
      return "enum";
  }
  return "string";
}

bool is_known_command(std::string_view c) {
  for (const std::string_view k :
       {"hub", "set-param", "init", "new-game", "pos", "level", "go", "stop", "ping", "ponder-hit", "quit"})
    if (c == k) return true;
  return false;
}

}  // namespace

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
    if (!is_id(text[i]))
      return Error{"'" + std::string(1, text[i]) + "' without an argument name at column " +
                   std::to_string(i + 1)};
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
        return Error{"unterminated quote in the value of '" + shown(arg.name) + "'"};
      for (std::size_t k = i + 1; k < close; ++k)
        if (is_control(text[k])) return bad_char(k);
      arg.value = std::string(text.substr(i + 1, close - i - 1));
      i = close + 1;
    } else if (i < n && is_control(text[i])) {
      return bad_char(i);
    } else if (i < n && text[i] == '=') {
      return Error{"'=' after '=' in the value of '" + shown(arg.name) + "'"};
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
  text_ += ' ';
  text_ += name;
  text_ += '=';
  if (is_token(value)) {
    text_ += value;
    return *this;
  }
  text_ += '"';
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
  const std::vector<Move> pv = legal_prefix(info.pv, root);
  if (!pv.empty()) {
    std::string text;
    for (const Move& mv : pv) {
      if (!text.empty()) text += ' ';
      text += to_hub_move(mv, numbering);
    }
    m.arg("pv", text);
    any = true;
  }
  return any ? m.str() : std::string();
}

Move choose_best_move(const SearchResult& result, const Position& root) {
  if (legal_at(root, result.best)) return result.best;
  if (!result.pv.empty() && legal_at(root, result.pv.front())) return result.pv.front();
  MoveList legal;
  generate_legal_moves(root, legal);
  return legal.empty() ? kNullMove : legal[0];
}

Move choose_ponder_move(const SearchResult& result, const Position& root, const Move& best) {
  if (!legal_at(root, best)) return kNullMove;
  const Position next = root.after(best);
  if (legal_at(next, result.ponder)) return result.ponder;
  if (result.pv.size() >= 2 && result.pv[0] == best && legal_at(next, result.pv[1])) return result.pv[1];
  return kNullMove;
}

std::string format_done(const SearchResult& result, const Position& root, Numbering numbering) {
  const Move best = choose_best_move(result, root);
  Message m("done");
  if (best.is_null()) return m.str();  // only for a root without moves, which go refuses
  m.arg("move", to_hub_move(best, numbering));
  const Move ponder = choose_ponder_move(result, root, best);
  if (!ponder.is_null()) m.arg("ponder", to_hub_move(ponder, numbering));
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
        return Error{"bad nodes '" + shown(a.value) +
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

// ---- Front end ------------------------------------------------------------------------------

Frontend::Frontend(Sink sink, const Options& options) : sink_(std::move(sink)), engine_(options) {}

Frontend::~Frontend() { finish(); }

void Frontend::emit(std::string_view line) {
  const std::lock_guard<std::mutex> lock(out_mutex_);
  sink_(line);
}

void Frontend::error(std::string_view message) { emit(Message("error").arg("message", message).str()); }

void Frontend::stop_search() {
  if (engine_.searching()) engine_.stop();
  engine_.wait();
}

void Frontend::finish() { stop_search(); }

void Frontend::wait() { engine_.wait(); }

bool Frontend::searching() const { return engine_.searching(); }

std::uint64_t Frontend::searches_started() const {
  const std::lock_guard<std::mutex> lock(out_mutex_);
  return searches_started_;
}

std::uint64_t Frontend::dones_written() const {
  const std::lock_guard<std::mutex> lock(out_mutex_);
  return dones_written_;
}

Numbering Frontend::numbering() const {
  return engine_.options().get(option::kNumbering) == "a1" ? Numbering::A1 : Numbering::Standard;
}

void Frontend::reject_long_line() {
  error("line too long (more than " + std::to_string(kMaxLineBytes >> 20) + " MiB), ignored");
}

Frontend::Next Frontend::process_line(std::string_view text) {
  const Expected<Line> parsed = parse_line(text);
  if (!parsed) {
    error(parsed.error());
    return Next::Continue;
  }
  const Line& line = *parsed;
  const std::string& c = line.command;
  // The two commands that leave a running search alone.
  if (c == "ping") {
    emit("pong");
    return Next::Continue;
  }
  if (c == "ponder-hit") {
    engine_.ponder_hit();
    return Next::Continue;
  }
  if (!is_known_command(c)) {
    error("unknown command '" + shown(c) + "'");
    return Next::Continue;
  }
  stop_search();  // a search's `done` always comes before the answer to the next command
  if (c == "quit") return Next::Quit;
  if (c == "hub") cmd_hub();
  else if (c == "set-param") cmd_set_param(line);
  else if (c == "init") cmd_init();
  else if (c == "new-game") engine_.new_game();
  else if (c == "pos") cmd_pos(line);
  else if (c == "level") cmd_level(line);
  else if (c == "go") cmd_go(line);
  // `stop` has nothing left to do.
  return Next::Continue;
}

void Frontend::cmd_hub() {
  emit(Message("id")
           .arg("name", "damas")
           .arg("version", DAMAS_VERSION)
           .arg("author", "damas developers")
           .arg("country", "Brazil")
           .str());
  for (const OptionSpec& spec : option_specs()) {
    if (spec.visibility != Visibility::User) continue;  // tuning knobs are set by name only
    Message m("param");
    m.arg("name", spec.name).arg("value", engine_.options().get(spec.name)).arg("type", type_name(spec.type));
    if (spec.type == OptionType::Int)
      m.arg("min", std::to_string(spec.min)).arg("max", std::to_string(spec.max));
    if (spec.type == OptionType::Enum) {
      std::string values;
      for (const std::string& v : spec.values) values += (values.empty() ? "" : " ") + v;
      m.arg("values", values);
    }
    emit(m.str());
  }
  emit("wait");
}

// Informational lines before `ready` start with `init` (GUIs skip them): the endgame databases in
// use, and each damaged file left out of them.
void Frontend::cmd_init() {
  const EgdbStatus egdb = engine_.egdb_status();
  if (!egdb.dir.empty()) emit("init " + egdb.text());
  for (const std::string& problem : egdb.problems) emit("init endgame databases: " + problem);
  emit("ready");
}

void Frontend::cmd_set_param(const Line& line) {
  const Argument* name = line.find("name");
  if (!name || name->value.empty()) {
    error("missing name");
    return;
  }
  if (!find_option(name->value)) return;  // unknown names are ignored (lidraughts-bot sends initial-time)
  const Argument* value = line.find("value");
  const Status s =
      engine_.set_option(name->value, value ? std::string_view(value->value) : std::string_view());
  if (!s) error(s.error());
}

void Frontend::cmd_pos(const Line& line) {
  limits_ = SearchLimits{};
  Position start = Position::start();
  if (const Argument* pos = line.find("pos")) {
    // A PDN FEN is accepted too (it contains ':'; the Hub string never does).
    const Expected<Position> parsed =
        pos->value.find(':') != std::string::npos ? parse_fen(pos->value) : parse_hub_position(pos->value);
    if (!parsed) {
      error("bad position: " + parsed.error());
      return;
    }
    for (const Color side : {Color::White, Color::Black}) {
      if (parsed->pieces(side) == 0) {
        error(std::string("bad position: ") + (side == Color::White ? "White" : "Black") + " has no pieces");
        return;
      }
    }
    start = *parsed;
  }
  std::vector<Move> played;
  std::string move_error;
  if (const Argument* moves = line.find("moves")) {
    const Expected<std::vector<Move>> list = parse_move_list(start, moves->value, numbering(), &played);
    if (!list)
      move_error = list.error() + " (the " + std::to_string(played.size()) + " moves before it are kept)";
  }
  if (const Status s = engine_.set_position(start, played); !s) {
    error("bad position: " + s.error());
    return;
  }
  if (!move_error.empty()) error(move_error);
}

void Frontend::cmd_level(const Line& line) {
  const Expected<SearchLimits> limits = parse_level(line);
  if (!limits) {
    error("level: " + limits.error() + "; limits unchanged");
    return;
  }
  limits_ = *limits;
}

void Frontend::cmd_go(const Line& line) {
  GoMode mode = GoMode::Think;
  if (line.has("ponder")) mode = GoMode::Ponder;
  else if (line.has("analyze")) mode = GoMode::Analyze;
  const SearchLimits limits = limits_;
  limits_ = SearchLimits{};
  const Position root = engine_.position();
  if (!has_legal_move(root)) {
    error("no legal move: the game is over, nothing to search");
    return;
  }
  const Numbering n = numbering();
  // Set once the `done` of this search is written: a later callback is dropped.
  const auto finished = std::make_shared<std::atomic<bool>>(false);
  {
    const std::lock_guard<std::mutex> lock(out_mutex_);
    ++searches_started_;
  }
  engine_.go(
      limits, mode,
      [this, root, n, finished](const SearchInfo& info) {
        if (finished->load()) return;
        const std::string text = format_info(info, root, n);
        if (!text.empty()) emit(text);
      },
      [this, root, n, finished](const SearchResult& result) {
        if (finished->exchange(true)) return;
        const std::string text = format_done(result, root, n);
        const std::lock_guard<std::mutex> lock(out_mutex_);
        sink_(text);
        ++dones_written_;
      });
}

}  // namespace damas::hub
