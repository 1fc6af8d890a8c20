#include "hub_game.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "damas/core/notation.h"

namespace damas {

namespace {

// One side of a game: its engine, its settings, its clock and its scores so far.
struct Side {
  HubEngine* engine = nullptr;
  const MatchEngine* config = nullptr;
  int index = 0;
  MatchClock clock;
  std::vector<std::optional<int>> scores;  // one per own move
};

Side side_of(const HubMatchSpec& spec, int index, HubEngine& engine) {
  const MatchEngine& config = spec.engines[static_cast<std::size_t>(index)];
  return Side{&engine, &config, index, MatchClock(config.tc, config.margin, config.timeout), {}};
}

// The last n scores all satisfy pred (and there are n).
template <typename Pred>
bool last_scores(const Side& side, int n, Pred pred) {
  if (n <= 0 || static_cast<int>(side.scores.size()) < n) return false;
  for (auto it = side.scores.end() - n; it != side.scores.end(); ++it)
    if (!*it || !pred(**it)) return false;
  return true;
}

struct Outcome {
  GameResult result = GameResult::Ongoing;
  std::string termination;
  Failure failure = Failure::None;
  int failed_engine = -1;
  std::string detail;
};

Outcome loss_of(const Side& loser, Color loser_colour, Failure failure, std::string detail) {
  Outcome o;
  o.result = loser_colour == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
  o.failure = failure;
  o.failed_engine = loser.index;
  o.termination = to_string(failure);
  o.detail = std::move(detail);
  return o;
}

std::optional<Outcome> adjudicate(const HubMatchSpec& spec, const Game& game, const Side& white,
                                  const Side& black) {
  const int plies = static_cast<int>(game.moves().size());
  if (spec.max_moves > 0 && white.clock.moves_made() + black.clock.moves_made() >= 2 * spec.max_moves)
    return Outcome{GameResult::Draw, "adjudication: move limit", Failure::None, -1, ""};
  if (spec.draw && plies / 2 + 1 >= spec.draw->move_number) {
    const auto level = [&](int s) { return std::abs(s) <= spec.draw->score; };
    if (last_scores(white, spec.draw->move_count, level) && last_scores(black, spec.draw->move_count, level))
      return Outcome{GameResult::Draw, "adjudication: draw by score", Failure::None, -1, ""};
  }
  if (spec.resign) {
    const auto lost = [&](int s) { return s <= -spec.resign->score; };
    if (last_scores(white, spec.resign->move_count, lost))
      return Outcome{GameResult::BlackWins, "adjudication: resignation", Failure::None, -1, ""};
    if (last_scores(black, spec.resign->move_count, lost))
      return Outcome{GameResult::WhiteWins, "adjudication: resignation", Failure::None, -1, ""};
  }
  return std::nullopt;
}

// Asks `side` for a move and plays it; a failure ends the game with its loss.
std::optional<Outcome> play_move(Game& game, Side& side, EngineTotals& totals) {
  const Color colour = game.current().side_to_move();
  const MatchClock::Limit limit = side.clock.next_move();
  const ThinkReply reply =
      side.engine->think(game.start(), game.start_plies(), game.moves(), limit.level, limit.budget);
  const std::string at = " at move " + std::to_string(game.moves().size() / 2 + 1);
  switch (reply.outcome) {
    case ThinkReply::Outcome::Done:
      break;
    case ThinkReply::Outcome::TimeLoss:
      return loss_of(side, colour, Failure::TimeLoss,
                     "done after " + seconds_text(reply.seconds) + " s" + at);
    case ThinkReply::Outcome::Hang:
      return loss_of(side, colour, Failure::Hang, "no done within " + seconds_text(limit.budget) + " s" + at);
    case ThinkReply::Outcome::Closed:
      return loss_of(side, colour, Failure::Crash, "engine " + reply.detail + at);
    case ThinkReply::Outcome::Error:
      return loss_of(side, colour, Failure::ErrorAnswer, "error '" + reply.detail + "'" + at);
  }
  const Expected<Move> move = parse_hub_move(game.current(), reply.move, side.config->spec.numbering);
  if (!move)
    return loss_of(side, colour, Failure::IllegalMove, "'" + reply.move + "'" + at + ": " + move.error());
  ++totals.moves;
  totals.seconds += reply.seconds;
  totals.nodes += reply.info.nodes;
  if (reply.info.depth > 0) {
    ++totals.moves_with_depth;
    totals.depth_sum += reply.info.depth;
  }
  side.clock.charge(reply.seconds);
  side.scores.push_back(reply.info.score);
  (void)game.play(*move);  // legal: parse_hub_move matched it against the legal moves
  return std::nullopt;
}

std::string today() {
  using namespace std::chrono;
  const year_month_day date{floor<days>(system_clock::now())};  // UTC
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%04d.%02u.%02u", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
  return buffer;
}

// Asks the engines for moves until the game ends, by the referee, adjudication or a failure.
Outcome play_out(const HubMatchSpec& spec, Game& game, Side& white, Side& black, PlayedGame& played) {
  if (!white.engine->new_game()) return loss_of(white, Color::White, Failure::Crash, "closed its input");
  if (!black.engine->new_game()) return loss_of(black, Color::Black, Failure::Crash, "closed its input");
  for (;;) {
    if (game.over()) return Outcome{game.result(), game.end_description(), Failure::None, -1, ""};
    if (std::optional<Outcome> adjudicated = adjudicate(spec, game, white, black)) return *adjudicated;
    const bool white_to_move = game.current().side_to_move() == Color::White;
    ++played.moves_asked;
    if (std::optional<Outcome> lost =
            play_move(game, white_to_move ? white : black, played.totals[white_to_move ? 0 : 1]))
      return *lost;
  }
}

// The game as the match reports it, with its PDN; a failure is named in the Termination tag.
HubGame game_report(const HubMatchSpec& spec, const ScheduledGame& g, const Opening* opening,
                    const Game& game, Outcome outcome) {
  HubGame h = g.as_hub_game();
  h.result = outcome.result;
  h.termination = std::move(outcome.termination);
  h.failure = outcome.failure;
  h.failed_engine = outcome.failed_engine;
  h.detail = std::move(outcome.detail);
  h.plies = static_cast<int>(game.moves().size());
  const MatchEngine& wc = spec.engines[static_cast<std::size_t>(g.white)];
  const MatchEngine& bc = spec.engines[static_cast<std::size_t>(g.black)];
  std::string termination = h.termination;
  if (h.failure != Failure::None)
    termination +=
        " by " + spec.engines[static_cast<std::size_t>(h.failed_engine)].spec.name + ": " + h.detail;
  std::vector<std::pair<std::string, std::string>> tags{{"Event", spec.event},
                                                        {"Date", today()},
                                                        {"Round", std::to_string(g.round)},
                                                        {"White", wc.spec.name},
                                                        {"Black", bc.spec.name},
                                                        {"Result", to_string(h.result)},
                                                        {"TimeControl", time_control_tag(wc.tc, bc.tc)},
                                                        {"Termination", termination}};
  if (opening && !opening->name.empty()) tags.emplace_back("Opening", opening->name);
  h.pdn = game.to_pdn(tags);
  return h;
}

}  // namespace

PlayedGame play_hub_game(const HubMatchSpec& spec, const ScheduledGame& g, HubEngine& white_engine,
                         HubEngine& black_engine) {
  PlayedGame played;
  const Opening* opening = g.opening >= 0 ? &spec.openings[static_cast<std::size_t>(g.opening)] : nullptr;
  Game game(opening ? opening->start : Position::start(spec.variant),
            spec.draw_rules.value_or(rules::of(spec.variant).draw_rules), opening ? opening->start_plies : 0);
  if (opening)
    for (const Move& m : opening->moves) (void)game.play(m);  // checked when the openings were read
  Side white = side_of(spec, g.white, white_engine);
  Side black = side_of(spec, g.black, black_engine);
  Outcome outcome = play_out(spec, game, white, black, played);
  played.game = game_report(spec, g, opening, game, std::move(outcome));
  return played;
}

}  // namespace damas
