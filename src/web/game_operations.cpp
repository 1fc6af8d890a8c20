// The operations on a session's game: games, new, load-pdn, state, move, undo, goto, close; and stats.
#include <mutex>

#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/engine/options.h"
#include "operations.h"
#include "request_fields.h"
#include "views.h"

namespace damas::web {
namespace {

ApiError conflict(std::string message) { return {ErrorKind::Conflict, std::move(message)}; }
ApiError unprocessable(std::string message) { return {ErrorKind::Unprocessable, std::move(message)}; }

Answer add_session(ApiState& state, Game game, const GameSettings& settings) {
  std::lock_guard lock(state.mutex);
  const Result<std::string> id = state.sessions.add(std::move(game), settings);
  if (!id) return id.error();
  return state_json(*id, state.sessions.at(*id));
}

// The values of an engine option (its registry entry), as the page offers them.
std::vector<std::string> option_values(std::string_view name) {
  const OptionSpec* spec = find_option(name);
  return spec ? spec->values : std::vector<std::string>{};
}

}  // namespace

// What a new game may be: the games the engine plays (its `variant` option) with their titles and
// boards, and the draw laws (its `draw-rules` option). The page builds its selectors from this.
Answer op_games(ApiState& state, const Json&) {
  Json games = Json::array();
  for (const std::string& name : option_values(option::kVariant)) {
    const std::optional<Variant> v = parse_variant(name);
    if (!v) continue;
    Json g = Json::object();
    g.set("name", json_str(name));
    g.set("title", json_str(std::string(rules::of(*v).title)));
    g.set("mirrored_board", json_bool(rules::of(*v).mirrored_board));
    games.push(std::move(g));
  }
  Json laws = Json::array();
  for (const std::string& name : option_values(option::kDrawRules)) laws.push(json_str(name));
  Json j = Json::object();
  j.set("games", std::move(games));
  j.set("default", json_str(std::string(to_string(state.default_variant()))));
  j.set("rules", std::move(laws));
  return j;
}

Answer op_new(ApiState& state, const Json& body) {
  const Result<Variant> variant = variant_field(body, state.default_variant());
  if (!variant) return variant.error();
  const Result<GameSettings> settings = game_settings(body, state.config.default_move_seconds, *variant);
  if (!settings) return settings.error();
  const Result<std::string> fen = string_field(body, "fen", to_fen(Position::start(*variant)));
  if (!fen) return fen.error();
  const Expected<Position> start = parse_fen(*fen, *variant);
  if (!start) return unprocessable("bad FEN: " + start.error());
  return add_session(state, Game(start->with_variant(*variant), settings->rules, fen_draw_plies(*fen)),
                     *settings);
}

Answer op_load_pdn(ApiState& state, const Json& body) {
  const Result<Variant> untagged = variant_field(body, state.default_variant());
  if (!untagged) return untagged.error();
  const Result<std::string> text = string_field(body, "pdn", std::nullopt);
  if (!text) return text.error();
  // The game's GameType tag names its variant; `variant` is for a game without one.
  const std::vector<PdnGameOrError> games = read_pdn(*text, *untagged);
  if (games.empty()) return unprocessable("no game in the PDN text");
  if (!games.front()) return unprocessable("bad PDN: " + games.front().error());
  if (games.front()->moves.size() > state.config.max_plies) return unprocessable("the game is too long");
  const Result<GameSettings> settings =
      game_settings(body, state.config.default_move_seconds, games.front()->start.variant());
  if (!settings) return settings.error();
  // The game's own DrawRules tag decides when the request names no law set.
  DrawRules rules = settings->rules;
  if (const std::optional<std::string> tag = games.front()->tag("DrawRules"); tag && !body.find("rules"))
    if (const std::optional<DrawRules> tagged = parse_draw_rules(*tag)) rules = *tagged;
  Game game(games.front()->start, rules, games.front()->start_plies);
  for (const Move& m : games.front()->moves)
    if (Status st = game.play(m); !st) return unprocessable("bad PDN: " + st.error());
  return add_session(state, std::move(game), *settings);
}

Answer op_state(ApiState& state, const Json& body) {
  return with_session(state, body,
                      [](const std::string& id, Session& s) -> Answer { return state_json(id, s); });
}

Answer op_move(ApiState& state, const Json& body) {
  const Result<std::string> text = string_field(body, "move", std::nullopt);
  if (!text) return text.error();
  return change_session(state, body, [&](const std::string& id, Session& session) -> Answer {
    const Game g = game_at_cursor(session);
    if (g.over()) return conflict("the game is over: " + result_json(g).find("text")->as_string());
    if (session.mode == Mode::Computer && g.current().side_to_move() != session.human)
      return conflict("it is the computer's turn");
    const Expected<Move> m = parse_any_move(g.current(), *text);
    if (!m) return unprocessable(m.error());
    if (Status st = play(session, *m, state.config.max_plies); !st) return conflict(st.error());
    return state_json(id, session);
  });
}

Answer op_undo(ApiState& state, const Json& body) {
  return change_session(state, body, [](const std::string& id, Session& session) -> Answer {
    if (session.cursor == 0) return conflict("nothing to undo");
    Game g = game_at_cursor(session);
    g.undo(1);
    // Against the computer, go back to a position where the person is to move (if there is one).
    if (session.mode == Mode::Computer)
      while (!g.moves().empty() && g.current().side_to_move() != session.human) g.undo(1);
    session.line = std::move(g);
    session.cursor = session.line.moves().size();
    changed(session);
    return state_json(id, session);
  });
}

Answer op_goto(ApiState& state, const Json& body) {
  return change_session(state, body, [&](const std::string& id, Session& session) -> Answer {
    const int plies = static_cast<int>(session.line.moves().size());
    const Result<int> ply = whole_field(body, "ply", -1, 0, plies);
    if (!ply) return ply.error();
    session.cursor = static_cast<std::size_t>(*ply);
    changed(session);
    return state_json(id, session);
  });
}

Answer op_close(ApiState& state, const Json& body) {
  return change_session(state, body, [&](const std::string& id, Session&) -> Answer {
    Json j = Json::object();
    j.set("closed", json_str(id));
    state.sessions.erase(id);
    return j;
  });
}

// The server's load, for people watching it and for tools/soak.
Answer op_stats(ApiState& state, const Json&) {
  const QueueStats q = state.queue.stats();
  Json j = Json::object();
  {
    std::lock_guard lock(state.mutex);
    j.set("sessions", json_num(static_cast<double>(state.sessions.size())));
    j.set("max_sessions", json_num(static_cast<double>(state.sessions.max_sessions())));
  }
  j.set("search_slots", json_num(static_cast<double>(state.queue.config().slots)));
  j.set("searches_running", json_num(static_cast<double>(q.running)));
  j.set("searches_waiting", json_num(static_cast<double>(q.waiting)));
  j.set("searches_served", json_num(static_cast<double>(q.served)));
  j.set("searches_refused", json_num(static_cast<double>(q.refused)));
  j.set("longest_wait_ms", json_num(static_cast<double>(q.longest_wait.count()) / 1000.0));
  return j;
}

}  // namespace damas::web
