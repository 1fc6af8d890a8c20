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
#include "damas/engine/options.h"
#include "damas/match/match_variant.h"

namespace damas {

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

Pentanomial MatchResult::pentanomial() const {
  Pentanomial p;
  for (std::size_t i = 0; i + 1 < games.size(); i += 2)
    if (games[i].opening == games[i + 1].opening && games[i].result != GameResult::Ongoing &&
        games[i + 1].result != GameResult::Ongoing)
      p.add_pair(games[i].a_points(), games[i + 1].a_points());
  return p;
}

Status configure_in_process_engine(Engine& engine, const OptionList& options, DrawRules rules, Variant game) {
  // An engine told another game would search moves the referee refuses.
  if (Status s = check_variant_option(options, game); !s) return s;
  if (Status s = engine.set_option(option::kVariant, to_string(game)); !s) return s;
  // In-process games have no communication delay to keep time back for: without this a
  // --movetime of 20 ms would leave the default 30 ms overhead a 1 ms search. An explicit
  // move-overhead in the option list still wins (it is set after). The opening book is off unless
  // the list turns it on: the openings are the file's, and a measurement of the search is not one
  // of the book.
  if (Status s = engine.set_option(option::kMoveOverhead, "0"); !s) return s;
  if (Status s = engine.set_option(option::kBook, "false"); !s) return s;
  if (Status s = engine.set_option(option::kDrawRules, to_string(rules)); !s) return s;
  for (const auto& [name, value] : options)
    if (Status s = engine.set_option(name, value); !s) return s;
  return Ok{};
}

namespace {

// Plays game `index` between engines a and b; an illegal move from an engine is an error.
Expected<GameRecord> play_game(const MatchConfig& config, int index, Engine& a, Engine& b) {
  GameRecord record;
  record.index = index;
  record.opening = (index / 2) % static_cast<int>(config.openings.size());
  record.a_is_white = index % 2 == 0;
  const Opening& opening = config.openings[static_cast<std::size_t>(record.opening)];
  Game game(opening.start, config.draw_rules, opening.start_plies);
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
    if (Status s = engine.set_position(game.start(), game.moves(), game.start_plies()); !s)
      return Error{std::string("engine ") + (a_to_move ? "A" : "B") + ": " + s.error()};
    const SearchResult r = engine.search(config.limits);
    if (Status s = game.play(r.best); !s)
      return Error{std::string("engine ") + (a_to_move ? "A" : "B") + " in game " +
                   std::to_string(index + 1) + " at " + to_fen(game.current()) + ": " + s.error()};
    record.played.push_back({r.best, a_to_move, r.score, r.depth, r.nodes});
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
  if (Status s = check_openings_variant(config.openings, config.variant); !s) return Error{s.error()};
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
    if (Status s = configure_in_process_engine(a, config.options_a, config.draw_rules, config.variant); !s)
      return fail("engine A: " + s.error());
    if (Status s = configure_in_process_engine(b, config.options_b, config.draw_rules, config.variant); !s)
      return fail("engine B: " + s.error());
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
