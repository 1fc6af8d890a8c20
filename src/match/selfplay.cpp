#include "damas/match/selfplay.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "damas/core/notation.h"
#include "damas/core/text_lines.h"
#include "damas/engine/options.h"

namespace damas {

// ---- Elo ------------------------------------------------------------------------------------

double elo_from_score(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / score - 1.0);
}

EloEstimate elo_estimate(int wins, int draws, int losses) {
  EloEstimate e;
  const int n = wins + draws + losses;
  if (n <= 0) {
    e.lower = -std::numeric_limits<double>::infinity();
    e.upper = std::numeric_limits<double>::infinity();
    return e;
  }
  const double games = n;
  const double s = (wins + 0.5 * draws) / games;
  // Per-game variance of the points of a trinomial (1, 1/2, 0) outcome.
  const double variance = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / games;
  const double margin = 1.959964 * std::sqrt(variance / games);
  e.score = s;
  e.elo = elo_from_score(s);
  e.lower = elo_from_score(s - margin);
  e.upper = elo_from_score(s + margin);
  return e;
}

namespace {

std::string signed_number(double x) {
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  if (std::fabs(x) < 0.05) x = 0;  // no "-0.0"
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f", x);
  return buffer;
}

}  // namespace

std::string format_elo(const EloEstimate& e) {
  return signed_number(e.elo) + " [" + signed_number(e.lower) + ", " + signed_number(e.upper) + "]";
}

// ---- Openings -------------------------------------------------------------------------------

namespace {

bool looks_like_fen(std::string_view t) {
  return t.size() > 1 && (t[0] == 'W' || t[0] == 'B') && t[1] == ':';
}

// The string literals of a JSON text, in order (escapes \" and \\ only: ballot names and FENs
// need no others); an unterminated string is an error.
Expected<std::vector<std::string>> json_strings(std::string_view text, const std::string& source) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"') continue;
    std::string s;
    std::size_t j = i + 1;
    for (; j < text.size() && text[j] != '"'; ++j) {
      if (text[j] == '\\' && j + 1 < text.size()) ++j;
      s += text[j];
    }
    if (j >= text.size()) return Error{source + ": unterminated string in JSON"};
    out.push_back(std::move(s));
    i = j;
  }
  return out;
}

// pydraughts' ballot files: {"all": {"1-I cd4 ba5 dc5": "B:Wa1,e3,...:Ba5,...", ...}}: every
// string that is a FEN is an opening, named by the string before it.
Expected<std::vector<Opening>> parse_json_ballots(std::string_view text, const std::string& source) {
  Expected<std::vector<std::string>> strings = json_strings(text, source);
  if (!strings) return Error{strings.error()};
  std::vector<Opening> out;
  for (std::size_t i = 1; i < strings->size(); ++i) {
    const std::string& fen = (*strings)[i];
    if (!looks_like_fen(fen)) continue;
    Expected<Position> start = parse_fen(fen);
    if (!start) return Error{source + ": ballot \"" + (*strings)[i - 1] + "\": " + start.error()};
    out.push_back(Opening{*start, {}, fen + " | " + (*strings)[i - 1]});
  }
  if (out.empty()) return Error{source + ": no openings"};
  return out;
}

}  // namespace

Expected<std::vector<Opening>> parse_openings(std::string_view text, const std::string& source) {
  if (const std::string_view t = trim(text); !t.empty() && t.front() == '{')
    return parse_json_ballots(t, source);
  std::vector<Opening> out;
  for (const DataLine& line : data_lines(text)) {
    const std::string opening_text(line.text);
    const std::string where = line_location(source, line.number);
    if (looks_like_fen(opening_text)) {
      // "FEN | ballot name": the name is for people.
      const std::string fen(trim(std::string_view(opening_text).substr(0, opening_text.find('|'))));
      Expected<Position> start = parse_fen(fen);
      if (!start) return Error{where + start.error()};
      out.push_back(Opening{*start, {}, opening_text});
      continue;
    }
    Expected<std::vector<Move>> moves = parse_move_list(Position::start(), opening_text);
    if (!moves) return Error{where + moves.error()};
    out.push_back(Opening{Position::start(), std::move(moves).value(), opening_text});
  }
  if (out.empty()) return Error{source + ": no openings"};
  return out;
}

Position Opening::position() const {
  Position p = start;
  for (const Move& m : moves) p = p.after(m);
  return p;
}

Expected<std::vector<Opening>> load_openings(const std::string& path) {
  Expected<std::string> text = read_text_file(path, "openings file");
  if (!text) return Error{text.error()};
  return parse_openings(*text, path);
}

// ---- Option lists ---------------------------------------------------------------------------

Expected<OptionList> parse_option_list(std::string_view text) {
  OptionList out;
  std::string token;
  auto flush = [&]() -> Status {
    if (token.empty()) return Ok{};
    const auto eq = token.find('=');
    if (eq == std::string::npos || eq == 0)
      return Error{"option \"" + token + "\" is not of the form name=value"};
    std::string name = token.substr(0, eq);
    std::string value = token.substr(eq + 1);
    Options probe;
    if (Status s = probe.set(name, value); !s) return s;
    out.emplace_back(std::move(name), std::move(value));
    token.clear();
    return Ok{};
  };
  for (char c : text) {
    if (c == ' ' || c == ',' || c == '\t') {
      if (Status s = flush(); !s) return Error{s.error()};
    } else {
      token += c;
    }
  }
  if (Status s = flush(); !s) return Error{s.error()};
  return out;
}

// ---- Matches --------------------------------------------------------------------------------

double GameRecord::a_points() const {
  if (result == GameResult::Draw) return 0.5;
  const bool white_won = result == GameResult::WhiteWins;
  if (result != GameResult::WhiteWins && result != GameResult::BlackWins) return 0.5;
  return white_won == a_is_white ? 1.0 : 0.0;
}

namespace {

Status configure(Engine& engine, const OptionList& options, DrawRules rules, const char* label) {
  // In-process games have no communication delay to keep time back for: without this a
  // --movetime of 20 ms would leave the default 30 ms overhead a 1 ms search. An explicit
  // move-overhead in the option list still wins (it is set after).
  if (Status s = engine.set_option(option::kMoveOverhead, "0"); !s) return s;
  if (Status s = engine.set_option(option::kDrawRules, to_string(rules)); !s) return s;
  for (const auto& [name, value] : options)
    if (Status s = engine.set_option(name, value); !s)
      return Error{std::string("engine ") + label + ": " + s.error()};
  return Ok{};
}

// Plays game `index` between engines a and b; an illegal move from an engine is an error.
Expected<GameRecord> play_game(const MatchConfig& config, int index, Engine& a, Engine& b) {
  GameRecord record;
  record.index = index;
  record.opening = (index / 2) % static_cast<int>(config.openings.size());
  record.a_is_white = index % 2 == 0;
  const Opening& opening = config.openings[static_cast<std::size_t>(record.opening)];
  Game game(opening.start, config.draw_rules);
  for (const Move& m : opening.moves)
    if (Status s = game.play(m); !s)
      return Error{"opening " + std::to_string(record.opening + 1) + ": " + s.error()};
  a.new_game();
  b.new_game();
  while (!game.over()) {
    if (config.max_plies > 0 && static_cast<int>(game.moves().size()) >= config.max_plies) break;
    const bool white_to_move = game.current().side_to_move() == Color::White;
    const bool a_to_move = white_to_move == record.a_is_white;
    Engine& engine = a_to_move ? a : b;
    if (Status s = engine.set_position(game.start(), game.moves()); !s)
      return Error{std::string("engine ") + (a_to_move ? "A" : "B") + ": " + s.error()};
    const SearchResult r = engine.search(config.limits);
    if (Status s = game.play(r.best); !s)
      return Error{std::string("engine ") + (a_to_move ? "A" : "B") + " in game " +
                   std::to_string(index + 1) + " at " + to_fen(game.current()) + ": " + s.error()};
  }
  record.plies = static_cast<int>(game.moves().size());
  if (game.over()) {
    record.result = game.result();
    record.reason = game.end_reason();
  } else {
    record.result = GameResult::Draw;
    record.reason = GameEndReason::Adjudication;
  }
  record.pdn = game.to_pdn({{"Event", "damas selfplay"},
                            {"Round", std::to_string(index + 1)},
                            {"White", record.a_is_white ? "A" : "B"},
                            {"Black", record.a_is_white ? "B" : "A"},
                            {"Termination", game.over() ? game.end_description() : to_string(record.reason)},
                            {"Result", to_string(record.result)}});
  return record;
}

}  // namespace

Expected<MatchResult> run_match(const MatchConfig& config, const GameCallback& on_game) {
  if (config.openings.empty()) return Error{"no openings"};
  if (config.concurrency < 1) return Error{"concurrency must be at least 1"};
  if (config.games < 0) return Error{"the number of games cannot be negative"};
  if (config.max_plies < 0) return Error{"max plies cannot be negative"};
  const int total = config.games > 0 ? config.games : 2 * static_cast<int>(config.openings.size());

  MatchResult result;
  result.games.resize(static_cast<std::size_t>(total));
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::optional<std::string> error;

  auto fail = [&](const std::string& message) {
    const std::lock_guard lock(mutex);
    if (!error) error = message;
    failed = true;
  };

  auto worker = [&]() {
    Engine a;
    Engine b;
    if (Status s = configure(a, config.options_a, config.draw_rules, "A"); !s) return fail(s.error());
    if (Status s = configure(b, config.options_b, config.draw_rules, "B"); !s) return fail(s.error());
    for (int i = next++; i < total && !failed; i = next++) {
      Expected<GameRecord> record = play_game(config, i, a, b);
      if (!record) return fail(record.error());
      const std::lock_guard lock(mutex);
      const double points = record->a_points();
      (points == 1.0 ? result.wins : points == 0.0 ? result.losses : result.draws) += 1;
      result.games[static_cast<std::size_t>(i)] = std::move(record).value();
      if (on_game) on_game(result.games[static_cast<std::size_t>(i)], result);
    }
  };

  const int threads = std::min(config.concurrency, total);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (error) return Error{*error};
  return result;
}

}  // namespace damas
