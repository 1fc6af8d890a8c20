#include "damas/hub/hub.h"

#include <atomic>
#include <memory>

#include "damas/core/input_echo.h"
#include "damas/core/movegen.h"

namespace damas::hub {
namespace {

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

// ---- Front end ------------------------------------------------------------------------------

Frontend::Frontend(Sink sink, const Options& options) : sink_(std::move(sink)), engine_(options) {
  (void)engine_.set_position(Position::start(variant()));  // idle engine: cannot fail
}

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
  return parse_numbering(engine_.options().get(option::kNumbering)).value_or(Numbering::Standard);
}

// Positions set by `pos` are played by these rules (set-param name=variant).
Variant Frontend::variant() const { return engine_.options().variant(); }

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
    error("unknown command '" + echo_input(c) + "'");
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
    if (spec.type == OptionType::Enum) m.arg("values", spec.values_text());
    emit(m.str());
  }
  emit("wait");
}

// Informational lines before `ready` start with `init` (GUIs skip them): the endgame databases in
// use, and each damaged file left out of them; the opening book found, or why it is not used.
void Frontend::cmd_init() {
  const EgdbStatus egdb = engine_.egdb_status();
  if (!egdb.dir.empty()) emit("init " + egdb.text());
  for (const std::string& problem : egdb.problems) emit("init endgame databases: " + problem);
  const BookStatus book = engine_.book_status();
  if (!book.path.empty()) emit("init " + book.text());
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
  // Another game: the root is its start position until the next `pos`, so no search mixes the two.
  if (s && engine_.position().variant() != variant()) (void)engine_.set_position(Position::start(variant()));
}

void Frontend::cmd_pos(const Line& line) {
  limits_ = SearchLimits{};
  Position start = Position::start(variant());
  int start_plies = 0;
  if (const Argument* pos = line.find("pos")) {
    // A PDN FEN is accepted too (it contains ':'; the Hub string never does).
    const Expected<Position> parsed = pos->value.find(':') != std::string::npos
                                          ? parse_fen(pos->value, variant())
                                          : parse_hub_position(pos->value, variant());
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
    start = parsed->with_variant(variant());
    start_plies = fen_draw_plies(pos->value);
  }
  std::vector<Move> played;
  std::string move_error;
  if (const Argument* moves = line.find("moves")) {
    const Expected<std::vector<Move>> list = parse_move_list(start, moves->value, numbering(), &played);
    if (!list)
      move_error = list.error() + " (the " + std::to_string(played.size()) + " moves before it are kept)";
  }
  if (const Status s = engine_.set_position(start, played, start_plies); !s) {
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
