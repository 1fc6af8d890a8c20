#include "damas/web/api.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "damas/core/game.h"
#include "damas/core/json.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/pdn.h"
#include "damas/core/score_text.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"
#include "damas/review/review.h"
#include "damas/web/search_queue.h"

namespace damas::web {
namespace {

enum class Mode { Computer, TwoPlayers };

struct AnalysisLine {
  int multipv = 1;
  Json json;
};

struct Session {
  Game line;               // every move entered, also those after the cursor
  std::size_t cursor = 0;  // plies of `line` on the board
  Mode mode = Mode::TwoPlayers;
  std::string level = "medium";
  Color human = Color::White;
  double movetime = 1.0;
  std::uint64_t version = 0;  // bumped by every change of the game, so a search result can be checked
  Clock::time_point last_used;
  std::vector<AnalysisLine> analysis;
  bool analysing = false;
  std::shared_ptr<review::Reviewer> reviewer;          // while a review runs (review-step)
  std::shared_ptr<const review::GameReview> reviewed;  // the last finished review of `line`
  std::uint64_t analysis_generation = 0;               // of its running analysis, 0 when none
};

// An answer or an error, with the HTTP status.
struct Failure {
  int status;
  std::string message;
};

ApiResponse error_response(int status, const std::string& message) {
  Json j = Json::object();
  j.set("error", json_str(message));
  j.set("status", json_num(status));
  return {status, j.dump()};
}

ApiResponse ok_response(const Json& j) { return {200, j.dump()}; }

std::string color_name(Color c) { return c == Color::White ? "white" : "black"; }

// The game as it stands at the cursor (the referee decides the result there).
Game game_at_cursor(const Session& s) {
  Game g = s.line;
  g.undo(static_cast<int>(g.moves().size() - s.cursor));
  return g;
}

std::string end_reason_text(const Game& g) {
  if (!g.over()) return "";
  const Position& p = g.current();
  if (g.end_reason() == GameEndReason::NoLegalMove && p.pieces(p.side_to_move()) == 0)
    return "no pieces left";
  if (g.end_reason() == GameEndReason::DrawLaw) return g.end_description();  // names the article
  return to_string(g.end_reason());
}

Json square_list(Bitboard b) {
  Json a = Json::array();
  for (; b; b &= b - 1) a.push(json_str(square_name(lowest_square(b))));
  return a;
}

Json move_json(const Position& p, const Move& m) {
  Json j = Json::object();
  j.set("text", json_str(to_algebraic(p, m)));
  j.set("id", json_str(to_hub_move(m)));
  j.set("from", json_str(square_name(m.from)));
  j.set("to", json_str(square_name(m.to)));
  j.set("captured", square_list(m.captured));
  Json routes = Json::array();
  for (const std::vector<Square>& r : capture_routes(p, m)) {
    Json route = Json::array();
    for (const Square s : r) route.push(json_str(square_name(s)));
    routes.push(std::move(route));
  }
  if (!m.is_capture()) routes.push(Json::array({json_str(square_name(m.to))}));
  j.set("routes", std::move(routes));
  return j;
}

Json pieces_json(const Position& p) {
  Json a = Json::array();
  for (const Color c : {Color::White, Color::Black})
    for (Bitboard b = p.pieces(c); b; b &= b - 1) {
      const Square s = lowest_square(b);
      Json piece = Json::object();
      piece.set("square", json_str(square_name(s)));
      piece.set("color", json_str(color_name(c)));
      piece.set("king", json_bool((p.kings() & bb(s)) != 0));
      a.push(std::move(piece));
    }
  return a;
}

Json result_json(const Game& g) {
  Json r = Json::object();
  const GameResult res = g.result();
  r.set("over", json_bool(res != GameResult::Ongoing));
  r.set("score", json_str(to_string(res)));
  r.set("winner", res == GameResult::WhiteWins   ? json_str("white")
                  : res == GameResult::BlackWins ? json_str("black")
                                                 : Json());
  r.set("reason", json_str(end_reason_text(g)));
  std::string text;
  if (res == GameResult::WhiteWins) text = "White wins";
  else if (res == GameResult::BlackWins) text = "Black wins";
  else if (res == GameResult::Draw) text = "Draw";
  if (!text.empty()) text += " (" + end_reason_text(g) + ")";
  r.set("text", json_str(text));
  return r;
}

std::string mode_name(Mode m) { return m == Mode::Computer ? "computer" : "two-players"; }

Json state_json(const std::string& id, const Session& s) {
  const Game g = game_at_cursor(s);
  const Position& p = g.current();
  Json j = Json::object();
  j.set("session", json_str(id));
  j.set("mode", json_str(mode_name(s.mode)));
  j.set("level", json_str(s.level));
  j.set("human", json_str(color_name(s.human)));
  j.set("movetime", json_num(s.movetime));
  j.set("rules", json_str(std::string(to_string(s.line.draw_rules()))));
  j.set("fen", json_str(to_fen(p)));
  j.set("fen_algebraic", json_str(to_fen(p, FenStyle::Algebraic)));
  j.set("side", json_str(color_name(p.side_to_move())));
  j.set("start_side", json_str(color_name(s.line.start().side_to_move())));
  j.set("pieces", pieces_json(p));
  MoveList legal;
  generate_legal_moves(p, legal);
  Json moves = Json::array();
  Bitboard capturers = 0;
  for (const Move& m : legal) {
    moves.push(move_json(p, m));
    if (m.is_capture()) capturers |= bb(m.from);
  }
  j.set("legal", std::move(moves));
  j.set("must_capture", json_bool(capturers != 0));
  j.set("capturers", square_list(capturers));
  Json list = Json::array();
  const std::vector<Position>& positions = s.line.positions();
  for (std::size_t i = 0; i < s.line.moves().size(); ++i) {
    Json item = Json::object();
    item.set("ply", json_num(static_cast<double>(i + 1)));
    item.set("text", json_str(to_algebraic(positions[i], s.line.moves()[i])));
    list.push(std::move(item));
  }
  j.set("moves", std::move(list));
  j.set("cursor", json_num(static_cast<double>(s.cursor)));
  if (s.cursor > 0) {
    const Move& last = s.line.moves()[s.cursor - 1];
    Json lm = Json::object();
    lm.set("from", json_str(square_name(last.from)));
    lm.set("to", json_str(square_name(last.to)));
    lm.set("captured", square_list(last.captured));
    j.set("last_move", std::move(lm));
  } else {
    j.set("last_move", Json());
  }
  const bool over = g.over();
  j.set("turn", json_str(over                                                      ? "none"
                         : s.mode == Mode::Computer && p.side_to_move() != s.human ? "computer"
                                                                                   : "human"));
  j.set("result", result_json(g));
  j.set("pdn", json_str(g.to_pdn({{"Event", "damas board"}})));
  j.set("analysing", json_bool(s.analysing));
  return j;
}

// White's view for people: "+0.35", "White wins in 7 plies".
std::string white_score_text(Score white) {
  if (is_win_score(white)) return "White wins in " + std::to_string(kScoreWin - white) + " plies";
  if (is_loss_score(white)) return "Black wins in " + std::to_string(kScoreWin + white) + " plies";
  return score_text(white);
}

// The PV in algebraic notation, cut at the first move that is not legal.
Json pv_json(Position p, const std::vector<Move>& pv) {
  Json a = Json::array();
  for (const Move& m : pv) {
    MoveList legal;
    generate_legal_moves(p, legal);
    if (!legal.contains(m)) break;
    a.push(json_str(to_algebraic(p, m)));
    p = p.after(m);
  }
  return a;
}

Json info_json(const std::string& id, const Position& root, const SearchInfo& info) {
  Json j = Json::object();
  j.set("type", json_str("info"));
  j.set("session", json_str(id));
  j.set("multipv", json_num(info.multipv_index));
  j.set("depth", json_num(info.depth));
  j.set("score", json_num(info.score));
  // White's view, for the evaluation bar.
  const Score white = root.side_to_move() == Color::White ? info.score : -info.score;
  j.set("white_score", json_num(white));
  j.set("white_score_text", json_str(white_score_text(white)));
  j.set("score_text", json_str(score_text(info.score)));
  j.set("nodes", json_num(static_cast<double>(info.nodes)));
  j.set("seconds", json_num(info.seconds));
  j.set("pv", pv_json(root, info.pv));
  return j;
}

// ---- Request fields ----

Expected<std::string> string_field(const Json& body, std::string_view key,
                                   std::optional<std::string> fallback) {
  const Json* v = body.find(key);
  if (!v) {
    if (fallback) return *fallback;
    return Error{"missing field \"" + std::string(key) + "\""};
  }
  if (!v->is_string()) return Error{"field \"" + std::string(key) + "\" must be a string"};
  return v->as_string();
}

Expected<double> number_field(const Json& body, std::string_view key, double fallback, double lo, double hi) {
  const Json* v = body.find(key);
  if (!v) return fallback;
  if (!v->is_number() || !(v->as_number() >= lo && v->as_number() <= hi))
    return Error{"field \"" + std::string(key) + "\" must be a number from " + std::to_string(lo) + " to " +
                 std::to_string(hi)};
  return v->as_number();
}

struct GameSettings {
  Mode mode = Mode::TwoPlayers;
  DrawRules rules = DrawRules::Seed;
  std::string level = "medium";
  Color human = Color::White;
  double movetime = 1.0;
};

Expected<GameSettings> parse_settings(const Json& body, double default_movetime) {
  GameSettings g;
  const Expected<std::string> mode = string_field(body, "mode", "two-players");
  if (!mode) return Error{mode.error()};
  if (*mode == "computer") g.mode = Mode::Computer;
  else if (*mode != "two-players") return Error{"mode must be \"computer\" or \"two-players\""};
  const Expected<std::string> level = string_field(body, "level", "medium");
  if (!level) return Error{level.error()};
  const OptionSpec* levels = find_option(option::kLevel);
  if (!levels || std::find(levels->values.begin(), levels->values.end(), *level) == levels->values.end())
    return Error{"level must be beginner, easy, medium, hard or full"};
  g.level = *level;
  const Expected<std::string> human = string_field(body, "human", "white");
  if (!human) return Error{human.error()};
  if (*human == "black") g.human = Color::Black;
  else if (*human != "white") return Error{"human must be \"white\" or \"black\""};
  const Expected<double> movetime = number_field(body, "movetime", default_movetime, 0.01, 60);
  if (!movetime) return Error{movetime.error()};
  g.movetime = *movetime;
  const Expected<std::string> rules = string_field(body, "rules", "seed");
  if (!rules) return Error{rules.error()};
  const std::optional<DrawRules> parsed = parse_draw_rules(*rules);
  if (!parsed) return Error{"rules must be \"seed\" or \"fmjd64\""};
  g.rules = *parsed;
  return g;
}

// ---- Review (review/review.h): the page draws the graph from these values ----

// A review of `line` is still about the game when the game has the same start and moves.
bool same_game(const Game& a, const Game& b) { return a.start() == b.start() && a.moves() == b.moves(); }

Json side_json(const review::SideSummary& s) {
  Json j = Json::object();
  j.set("moves", json_num(s.moves));
  j.set("inaccuracies", json_num(s.inaccuracies));
  j.set("mistakes", json_num(s.mistakes));
  j.set("blunders", json_num(s.blunders));
  j.set("average_loss", json_num(std::round(s.average_loss * 100) / 100));
  return j;
}

Json review_json(const review::GameReview& r) {
  Json j = Json::object();
  j.set("limit", json_num(review::kGraphLimit));
  Json colours = Json::object();
  for (const review::Mark m : {review::Mark::Inaccuracy, review::Mark::Mistake, review::Mark::Blunder})
    colours.set(std::string(review::mark_style(m).name), json_str(review::mark_style(m).colour));
  j.set("colours", std::move(colours));
  Json evals = Json::array();
  for (std::size_t i = 0; i < r.evals.size(); ++i) {
    Json e = Json::object();
    e.set("ply", json_num(static_cast<double>(i)));
    e.set("white_score", json_num(r.evals[i]));
    e.set("value", json_num(review::graph_value(r.evals[i])));
    e.set("text", json_str(review::eval_text(r.evals[i])));
    evals.push(std::move(e));
  }
  j.set("evals", std::move(evals));
  Json plies = Json::array();
  for (std::size_t i = 0; i < r.plies.size(); ++i) {
    const review::PlyReview& p = r.plies[i];
    const Position& before = r.game.positions()[i];
    Json e = Json::object();
    e.set("ply", json_num(static_cast<double>(i + 1)));
    e.set("side", json_str(color_name(before.side_to_move())));
    e.set("text", json_str(to_algebraic(before, p.played)));
    e.set("mark", json_str(review::mark_style(p.mark).name));
    e.set("nag", json_str(review::mark_style(p.mark).nag));
    e.set("loss", json_num(p.loss / 100.0));
    e.set("best", json_str(to_algebraic(before, p.best)));
    e.set("best_line", pv_json(before, p.best_line));
    plies.push(std::move(e));
  }
  j.set("plies", std::move(plies));
  j.set("white", side_json(r.white));
  j.set("black", side_json(r.black));
  j.set("pdn", json_str(r.annotated_pdn));
  return j;
}

// The limits of a review request: depth (1..30) or movetime (0.01..60 s) per position; depth 10 by default.
Expected<SearchLimits> review_limits(const Json& body) {
  SearchLimits limits;
  const Expected<double> depth = number_field(body, "depth", 0, 1, 30);
  const Expected<double> movetime = number_field(body, "movetime", 0, 0.01, 60);
  if (!depth || *depth != std::floor(*depth))
    return Error{"field \"depth\" must be a whole number from 1 to 30"};
  if (!movetime) return Error{movetime.error()};
  if (*depth > 0 && *movetime > 0) return Error{"give depth or movetime, not both"};
  if (*movetime > 0) limits.move_time = *movetime;
  else limits.depth = *depth > 0 ? static_cast<int>(*depth) : 10;
  return limits;
}

}  // namespace

struct Api::Impl {
  explicit Impl(ApiConfig c)
      : config(std::move(c)), rng(std::random_device{}()), queue(queue_config(config)) {
    if (!config.clock) config.clock = [] { return Clock::now(); };
    for (std::size_t i = 0; i < queue.config().slots; ++i) {
      engines.push_back(std::make_unique<Engine>());
      (void)engines.back()->set_option(option::kHash, std::to_string(config.hash_mib));
    }
  }

  static QueueConfig queue_config(const ApiConfig& c) {
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    return QueueConfig{c.search_slots ? c.search_slots : cores, c.queue_wait, c.max_waiting};
  }

  // An analysis holding a slot: ended is set by its done callback, before the slot is released,
  // so a late stop request never reaches the next search on that engine.
  struct Analysis {
    std::string session;
    std::size_t slot = 0;
    bool stop_requested = false;
    bool ended = false;
  };

  ApiConfig config;
  AnalysisSink sink;

  mutable std::mutex mutex;  // sessions, rng, analyses; never held while searching or waiting
  std::condition_variable analysis_ended;
  std::map<std::string, Session, std::less<>> sessions;
  std::map<std::uint64_t, Analysis> analyses;  // by generation
  std::uint64_t next_generation = 0;
  std::mt19937_64 rng;
  std::map<std::string, std::size_t, std::less<>> review_slots;  // session -> slot of its review step

  SearchQueue queue;  // before the engines: their last done callbacks release slots
  std::vector<std::unique_ptr<Engine>> engines;  // one per slot of the queue

  using Handler = ApiResponse (Impl::*)(const Json&);
  ApiResponse dispatch(std::string_view op, const Json& body);

  ApiResponse op_new(const Json& body);
  ApiResponse op_load_pdn(const Json& body);
  ApiResponse op_state(const Json& body);
  ApiResponse op_move(const Json& body);
  ApiResponse op_undo(const Json& body);
  ApiResponse op_goto(const Json& body);
  ApiResponse op_hint(const Json& body);
  ApiResponse op_engine_move(const Json& body);
  ApiResponse op_analysis_start(const Json& body);
  ApiResponse op_analysis(const Json& body);
  ApiResponse op_analysis_stop(const Json& body);
  ApiResponse op_close(const Json& body);
  ApiResponse op_review_start(const Json& body);
  ApiResponse op_review_step(const Json& body);
  ApiResponse op_review_cancel(const Json& body);
  ApiResponse op_review(const Json& body);
  ApiResponse op_review_line(const Json& body);
  ApiResponse review_progress(const std::string& id, const Session& s) const;
  ApiResponse op_stats(const Json& body);

  std::string new_id() {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng()));
    return buf;
  }

  // Drops sessions idle for longer than the expiry, stopping their analyses (mutex held).
  std::size_t expire_sessions() {
    const Clock::time_point now = config.clock();
    std::size_t dropped = 0;
    for (auto it = sessions.begin(); it != sessions.end();) {
      if (now - it->second.last_used <= config.idle_expiry) {
        ++it;
        continue;
      }
      request_stop(it->second.analysis_generation);
      it = sessions.erase(it);
      ++dropped;
    }
    return dropped;
  }

  // Creates a session (mutex held) or says why not.
  ApiResponse add_session(Game game, const GameSettings& settings) {
    Session s;
    s.line = std::move(game);
    s.cursor = s.line.moves().size();
    s.mode = settings.mode;
    s.level = settings.level;
    s.human = settings.human;
    s.movetime = settings.movetime;
    expire_sessions();
    if (sessions.size() >= config.max_sessions)
      return error_response(503, "too many games at once on this server (" +
                                     std::to_string(config.max_sessions) +
                                     "); close one or try again when idle ones have expired");
    s.last_used = config.clock();
    std::string id = new_id();
    while (sessions.count(id)) id = new_id();
    const auto [it, inserted] = sessions.emplace(id, std::move(s));
    return ok_response(state_json(it->first, it->second));
  }

  // The session named in the body, or the error answer.
  struct Found {
    std::string id;
    Session* session = nullptr;
    std::optional<ApiResponse> error;
  };
  Found find_session(const Json& body) {  // mutex held
    const Expected<std::string> name = string_field(body, "session", std::nullopt);
    if (!name) return {"", nullptr, error_response(400, name.error())};
    const auto it = sessions.find(*name);
    if (it == sessions.end())
      return {"", nullptr, error_response(404, "unknown session \"" + *name + "\" (expired or closed?)")};
    it->second.last_used = config.clock();
    return {it->first, &it->second, std::nullopt};
  }
  Found lookup(const Json& body) {  // takes the mutex; the id only
    std::lock_guard lock(mutex);
    Found f = find_session(body);
    f.session = nullptr;
    return f;
  }

  // Runs change(id, session) under the mutex after stopping the session's analysis: a change of
  // the game ends it.
  template <typename Change>
  ApiResponse change_session(const Json& body, Change&& change) {
    const Found first = lookup(body);
    if (first.error) return *first.error;
    stop_analysis_of(first.id);
    std::lock_guard lock(mutex);
    const Found f = find_session(body);
    if (f.error) return *f.error;
    return change(f.id, *f.session);
  }

  // Asks the analysis of this generation to stop, without waiting (mutex held).
  void request_stop(std::uint64_t generation) {
    const auto it = analyses.find(generation);
    if (it == analyses.end() || it->second.ended) return;
    it->second.stop_requested = true;
    engines[it->second.slot]->stop();
  }

  // Stops the session's analysis and waits until its slot is free (mutex not held).
  void stop_analysis_of(const std::string& id) {
    std::unique_lock lock(mutex);
    const auto it = sessions.find(id);
    if (it == sessions.end()) return;
    const std::uint64_t generation = it->second.analysis_generation;
    request_stop(generation);
    analysis_ended.wait(lock, [&] { return analyses.count(generation) == 0; });
  }

  // The end of an analysis (its done callback, on the search thread): the slot passes on, the sink
  // hears of it, then whoever waits in stop_analysis_of.
  void end_analysis(std::uint64_t generation, SearchLease& lease) {
    std::string id;
    {
      std::lock_guard lock(mutex);
      Analysis& a = analyses.at(generation);
      a.ended = true;
      id = a.session;
    }
    lease.release();
    if (sink) {
      Json j = Json::object();
      j.set("type", json_str("stopped"));
      j.set("session", json_str(id));
      sink(id, j.dump());
    }
    {
      std::lock_guard lock(mutex);
      analyses.erase(generation);
      if (const auto it = sessions.find(id);
          it != sessions.end() && it->second.analysis_generation == generation) {
        it->second.analysing = false;
        it->second.analysis_generation = 0;
      }
    }
    analysis_ended.notify_all();
  }

  struct Snapshot {
    Position start;
    std::vector<Move> moves;
    std::string level;
    DrawRules rules = DrawRules::Seed;
    double movetime = 1;
    std::uint64_t version = 0;
    bool over = false;
    bool computer_mode = false;
    bool computer_turn = false;
  };
  std::optional<Snapshot> snapshot(const std::string& id) {
    std::lock_guard lock(mutex);
    const auto it = sessions.find(id);
    if (it == sessions.end()) return std::nullopt;
    const Session& s = it->second;
    const Game g = game_at_cursor(s);
    return Snapshot{g.start(),
                    g.moves(),
                    s.level,
                    s.line.draw_rules(),
                    s.movetime,
                    s.version,
                    g.over(),
                    s.mode == Mode::Computer,
                    s.mode == Mode::Computer && g.current().side_to_move() != s.human};
  }

  // Why a search request was not served: busy (503) or this game's search already waits (429).
  static ApiResponse refusal_response(const QueueTicket& ticket) {
    const int status = ticket.refusal == QueueRefusal::SessionBusy ? 429 : 503;
    Json j = Json::object();
    j.set("error", json_str(ticket.message));
    j.set("status", json_num(status));
    j.set("busy", json_bool(true));
    return {status, j.dump()};
  }

  // A search waits for a slot in the queue; `check` refuses a snapshot taken once the slot is ours
  // (the game may have changed while waiting).
  struct Searched {
    std::optional<SearchResult> result;
    Snapshot snap;
    std::optional<ApiResponse> error;
  };
  template <typename Check>
  Searched queued_search(const std::string& id, std::string_view level, bool own_level, double seconds,
                         Check&& check) {
    stop_analysis_of(id);
    if (const std::optional<Snapshot> before = snapshot(id); before)
      if (std::optional<ApiResponse> refused = check(*before)) return {std::nullopt, {}, refused};
    QueueTicket ticket = queue.acquire(id);
    if (!ticket.lease) return {std::nullopt, {}, refusal_response(ticket)};
    const std::optional<Snapshot> snap = snapshot(id);
    if (!snap) return {std::nullopt, {}, error_response(404, "the session was closed while waiting")};
    if (std::optional<ApiResponse> refused = check(*snap)) return {std::nullopt, *snap, refused};
    Engine& engine = *engines[ticket.lease->slot()];
    engine.wait();  // the slot's last search may still be in its done callback
    if (!engine.set_option(option::kLevel, own_level ? std::string_view(snap->level) : level) ||
        !engine.set_option(option::kMultiPv, "1") ||
        !engine.set_option(option::kDrawRules, to_string(snap->rules)) ||
        !engine.set_position(snap->start, snap->moves))
      return {std::nullopt, *snap, error_response(500, "the engine refused the position")};
    SearchLimits limits;
    limits.move_time = own_level ? snap->movetime : seconds;
    return {engine.search(limits, GoMode::Think), *snap, std::nullopt};
  }

  // Plays m at the cursor of session s (mutex held): the moves after the cursor are dropped.
  Status play(Session& s, const Move& m) {
    if (s.cursor >= config.max_plies) return Error{"the game is at its length limit"};
    Game g = game_at_cursor(s);
    if (g.over()) return Error{"the game is over"};
    if (Status st = g.play(m); !st) return st;
    s.line = std::move(g);
    s.cursor = s.line.moves().size();
    ++s.version;
    s.analysis.clear();
    return Ok{};
  }

  void on_info(const std::string& id, std::uint64_t generation, const Position& root,
               const SearchInfo& info) {
    Json j = info_json(id, root, info);
    {
      std::lock_guard lock(mutex);
      const auto it = sessions.find(id);
      if (it == sessions.end() || it->second.analysis_generation != generation) return;
      std::vector<AnalysisLine>& lines = it->second.analysis;
      bool replaced = false;
      for (AnalysisLine& l : lines)
        if (l.multipv == info.multipv_index) {
          l.json = j;
          replaced = true;
        }
      if (!replaced) lines.push_back({info.multipv_index, j});
      std::sort(lines.begin(), lines.end(),
                [](const AnalysisLine& a, const AnalysisLine& b) { return a.multipv < b.multipv; });
    }
    if (sink) sink(id, j.dump());
  }

  ApiResponse start_analysis(const std::string& id, int multipv);
};

ApiResponse Api::Impl::dispatch(std::string_view op, const Json& body) {
  static constexpr std::pair<std::string_view, Handler> kOps[] = {
      {"new", &Impl::op_new},
      {"load-pdn", &Impl::op_load_pdn},
      {"state", &Impl::op_state},
      {"move", &Impl::op_move},
      {"undo", &Impl::op_undo},
      {"goto", &Impl::op_goto},
      {"hint", &Impl::op_hint},
      {"engine-move", &Impl::op_engine_move},
      {"analysis-start", &Impl::op_analysis_start},
      {"analysis", &Impl::op_analysis},
      {"analysis-stop", &Impl::op_analysis_stop},
      {"close", &Impl::op_close},
      {"review-start", &Impl::op_review_start},
      {"review-step", &Impl::op_review_step},
      {"review-cancel", &Impl::op_review_cancel},
      {"review", &Impl::op_review},
      {"review-line", &Impl::op_review_line},
      {"stats", &Impl::op_stats},
  };
  for (const auto& [name, handler] : kOps)
    if (name == op) return (this->*handler)(body);
  return error_response(404, "unknown API operation \"" + std::string(op) + "\"");
}

ApiResponse Api::Impl::op_new(const Json& body) {
  const Expected<GameSettings> settings = parse_settings(body, config.default_move_seconds);
  if (!settings) return error_response(400, settings.error());
  const Expected<std::string> fen = string_field(body, "fen", std::string(kStartFen));
  if (!fen) return error_response(400, fen.error());
  const Expected<Position> start = parse_fen(*fen);
  if (!start) return error_response(422, "bad FEN: " + start.error());
  std::lock_guard lock(mutex);
  return add_session(Game(*start, settings->rules), *settings);
}

ApiResponse Api::Impl::op_load_pdn(const Json& body) {
  const Expected<GameSettings> settings = parse_settings(body, config.default_move_seconds);
  if (!settings) return error_response(400, settings.error());
  const Expected<std::string> text = string_field(body, "pdn", std::nullopt);
  if (!text) return error_response(400, text.error());
  const std::vector<PdnGameOrError> games = read_pdn(*text);
  if (games.empty()) return error_response(422, "no game in the PDN text");
  if (!games.front()) return error_response(422, "bad PDN: " + games.front().error());
  if (games.front()->moves.size() > config.max_plies) return error_response(422, "the game is too long");
  // The game's own DrawRules tag decides when the request names no law set.
  DrawRules rules = settings->rules;
  if (const std::optional<std::string> tag = games.front()->tag("DrawRules"); tag && !body.find("rules"))
    if (const std::optional<DrawRules> tagged = parse_draw_rules(*tag)) rules = *tagged;
  Game game(games.front()->start, rules);
  for (const Move& m : games.front()->moves)
    if (Status st = game.play(m); !st) return error_response(422, "bad PDN: " + st.error());
  std::lock_guard lock(mutex);
  return add_session(std::move(game), *settings);
}

ApiResponse Api::Impl::op_state(const Json& body) {
  std::lock_guard lock(mutex);
  const Found f = find_session(body);
  if (f.error) return *f.error;
  return ok_response(state_json(f.id, *f.session));
}

ApiResponse Api::Impl::op_move(const Json& body) {
  const Expected<std::string> text = string_field(body, "move", std::nullopt);
  if (!text) return error_response(400, text.error());
  return change_session(body, [&](const std::string& id, Session& session) {
    const Game g = game_at_cursor(session);
    if (g.over()) return error_response(409, "the game is over: " + result_json(g).find("text")->as_string());
    if (session.mode == Mode::Computer && g.current().side_to_move() != session.human)
      return error_response(409, "it is the computer's turn");
    const Expected<Move> m = parse_any_move(g.current(), *text);
    if (!m) return error_response(422, m.error());
    if (Status st = play(session, *m); !st) return error_response(409, st.error());
    return ok_response(state_json(id, session));
  });
}

ApiResponse Api::Impl::op_undo(const Json& body) {
  return change_session(body, [&](const std::string& id, Session& session) {
    if (session.cursor == 0) return error_response(409, "nothing to undo");
    Game g = game_at_cursor(session);
    g.undo(1);
    // Against the computer, go back to a position where the person is to move (if there is one).
    if (session.mode == Mode::Computer)
      while (!g.moves().empty() && g.current().side_to_move() != session.human) g.undo(1);
    session.line = std::move(g);
    session.cursor = session.line.moves().size();
    ++session.version;
    session.analysis.clear();
    return ok_response(state_json(id, session));
  });
}

ApiResponse Api::Impl::op_goto(const Json& body) {
  return change_session(body, [&](const std::string& id, Session& session) {
    const std::size_t plies = session.line.moves().size();
    const Expected<double> ply = number_field(body, "ply", -1, 0, static_cast<double>(plies));
    if (!ply || *ply < 0 || *ply != std::floor(*ply))
      return error_response(400, "field \"ply\" must be a whole number from 0 to " + std::to_string(plies));
    session.cursor = static_cast<std::size_t>(*ply);
    ++session.version;
    session.analysis.clear();
    return ok_response(state_json(id, session));
  });
}

ApiResponse Api::Impl::op_hint(const Json& body) {
  const Found f = lookup(body);
  if (f.error) return *f.error;
  const Searched s = queued_search(f.id, "full", false, config.hint_seconds,
                                   [](const Snapshot& snap) -> std::optional<ApiResponse> {
                                     if (snap.over) return error_response(409, "the game is over");
                                     return std::nullopt;
                                   });
  if (s.error) return *s.error;
  if (!s.result || s.result->best.is_null()) return error_response(500, "the engine found no move");
  Position root = s.snap.start;
  for (const Move& m : s.snap.moves) root = root.after(m);
  Json j = Json::object();
  j.set("session", json_str(f.id));
  j.set("hint", move_json(root, s.result->best));
  j.set("score", json_num(s.result->score));
  j.set("score_text", json_str(score_text(s.result->score)));
  j.set("pv", pv_json(root, s.result->pv));
  return ok_response(j);
}

ApiResponse Api::Impl::op_engine_move(const Json& body) {
  const Found f = lookup(body);
  if (f.error) return *f.error;
  const Searched s = queued_search(f.id, "", true, 0, [](const Snapshot& snap) -> std::optional<ApiResponse> {
    if (!snap.computer_mode) return error_response(409, "not a game against the computer");
    if (snap.over) return error_response(409, "the game is over");
    if (!snap.computer_turn) return error_response(409, "it is not the computer's turn");
    return std::nullopt;
  });
  if (s.error) return *s.error;
  if (!s.result || s.result->best.is_null()) return error_response(500, "the engine found no move");
  std::lock_guard lock(mutex);
  const auto it = sessions.find(f.id);
  if (it == sessions.end()) return error_response(404, "the session was closed during the search");
  if (it->second.version != s.snap.version) return error_response(409, "the game changed during the search");
  if (Status st = play(it->second, s.result->best); !st) return error_response(409, st.error());
  return ok_response(state_json(f.id, it->second));
}

ApiResponse Api::Impl::op_analysis_start(const Json& body) {
  const Expected<double> multipv = number_field(body, "multipv", 3, 1, 8);
  if (!multipv || *multipv != std::floor(*multipv))
    return error_response(400, "field \"multipv\" must be a whole number from 1 to 8");
  const Found f = lookup(body);
  if (f.error) return *f.error;
  stop_analysis_of(f.id);
  return start_analysis(f.id, static_cast<int>(*multipv));
}

// The analysis holds its slot until stopped: by analysis-stop, a change of the game, its
// WebSocket closing, the session expiring, or a request waiting for a slot.
ApiResponse Api::Impl::start_analysis(const std::string& id, int multipv) {
  if (const std::optional<Snapshot> before = snapshot(id); before && before->over)
    return error_response(409, "the game is over: nothing to analyse");
  QueueTicket ticket = queue.acquire(id);
  if (!ticket.lease) return refusal_response(ticket);
  const std::size_t slot = ticket.lease->slot();
  Engine& engine = *engines[slot];
  engine.wait();
  const std::optional<Snapshot> snap = snapshot(id);
  if (!snap) return error_response(404, "the session was closed while waiting");
  if (snap->over) return error_response(409, "the game is over: nothing to analyse");
  if (!engine.set_option(option::kLevel, "full") ||
      !engine.set_option(option::kMultiPv, std::to_string(multipv)) ||
      !engine.set_option(option::kDrawRules, to_string(snap->rules)) ||
      !engine.set_position(snap->start, snap->moves))
    return error_response(500, "the engine refused the position");
  const Position root = engine.position();
  std::uint64_t generation = 0;
  {
    std::lock_guard lock(mutex);
    generation = ++next_generation;
    analyses[generation] = Analysis{id, slot, false, false};
  }
  auto lease = std::make_shared<SearchLease>(std::move(*ticket.lease));
  lease->make_preemptible([this, generation] {
    std::lock_guard lock(mutex);
    request_stop(generation);
  });
  std::lock_guard lock(mutex);
  const auto it = sessions.find(id);
  if (it == sessions.end() || analyses.at(generation).stop_requested) {
    analyses.erase(generation);  // stopped before it began: the slot goes back
    lease->release();
    queue.count_refused();
    return refusal_response(QueueTicket{std::nullopt, QueueRefusal::Busy,
                                        "the analysis gave way before it began: the engine is busy"});
  }
  it->second.analysing = true;
  it->second.analysis_generation = generation;
  it->second.analysis.clear();
  SearchLimits limits;
  limits.infinite = true;
  engine.go(
      limits, GoMode::Analyze,
      [this, id, generation, root](const SearchInfo& info) { on_info(id, generation, root, info); },
      [this, generation, lease](const SearchResult&) { end_analysis(generation, *lease); });
  Json j = Json::object();
  j.set("session", json_str(id));
  j.set("analysing", json_bool(true));
  return ok_response(j);
}

ApiResponse Api::Impl::op_analysis(const Json& body) {
  std::lock_guard lock(mutex);
  const Found f = find_session(body);
  if (f.error) return *f.error;
  Json j = Json::object();
  j.set("session", json_str(f.id));
  j.set("analysing", json_bool(f.session->analysing));
  Json lines = Json::array();
  for (const AnalysisLine& l : f.session->analysis) lines.push(l.json);
  j.set("lines", std::move(lines));
  return ok_response(j);
}

ApiResponse Api::Impl::op_analysis_stop(const Json& body) {
  const Found f = lookup(body);
  if (f.error) return *f.error;
  stop_analysis_of(f.id);
  return op_analysis(body);
}

ApiResponse Api::Impl::op_close(const Json& body) {
  return change_session(body, [&](const std::string& id, Session&) {
    sessions.erase(id);
    Json j = Json::object();
    j.set("closed", json_str(id));
    return ok_response(j);
  });
}

// ---- Review: one position per review-step, so other requests get the engine in between ----

ApiResponse Api::Impl::review_progress(const std::string& id, const Session& s) const {
  Json j = Json::object();
  j.set("session", json_str(id));
  j.set("reviewing", json_bool(s.reviewer != nullptr));
  j.set("done", json_num(s.reviewer ? static_cast<double>(s.reviewer->done()) : 0));
  j.set("total", json_num(s.reviewer ? static_cast<double>(s.reviewer->total()) : 0));
  const bool finished = !s.reviewer && s.reviewed && same_game(s.reviewed->game, s.line);
  j.set("finished", json_bool(finished));
  if (finished) j.set("review", review_json(*s.reviewed));
  return ok_response(j);
}

ApiResponse Api::Impl::op_review_start(const Json& body) {
  const Expected<SearchLimits> limits = review_limits(body);
  if (!limits) return error_response(400, limits.error());
  return change_session(body, [&](const std::string& id, Session& session) {
    if (session.line.moves().empty()) return error_response(409, "nothing to review: the game has no moves");
    PdnGame pdn;
    pdn.tags = {{"Event", "damas board"}};
    pdn.start = session.line.start();
    pdn.moves = session.line.moves();
    pdn.result = to_string(session.line.result());
    review::ReviewConfig settings;
    settings.limits = *limits;
    settings.default_rules = session.line.draw_rules();
    session.reviewer = std::make_shared<review::Reviewer>(pdn, settings);
    session.reviewed.reset();
    return review_progress(id, session);
  });
}

ApiResponse Api::Impl::op_review_step(const Json& body) {
  const Found f = lookup(body);
  if (f.error) return *f.error;
  stop_analysis_of(f.id);
  // The review of this session as it stands, or why it cannot step.
  const auto current_reviewer = [&]() -> Expected<std::shared_ptr<review::Reviewer>> {
    std::lock_guard lock(mutex);
    const auto it = sessions.find(f.id);
    if (it == sessions.end()) return Error{"unknown session \"" + f.id + "\""};
    std::shared_ptr<review::Reviewer> reviewer = it->second.reviewer;
    if (!reviewer)
      return Error{"no review is running for this session (finished or cancelled): review-start"};
    if (!same_game(reviewer->game(), it->second.line)) {
      it->second.reviewer.reset();
      return Error{"the game changed during the review: review cancelled"};
    }
    return reviewer;
  };
  const auto refused = [&](const std::string& why) {
    return error_response(why.rfind("unknown session", 0) == 0 ? 404 : 409, why);
  };
  if (const auto before = current_reviewer(); !before) return refused(before.error());
  // One position per request through the search queue, like a hint: other sessions are served in between.
  QueueTicket ticket = queue.acquire(f.id);
  if (!ticket.lease) return refusal_response(ticket);
  const std::size_t slot = ticket.lease->slot();
  Engine& engine = *engines[slot];
  engine.wait();
  const auto reviewer = current_reviewer();
  if (!reviewer) return refused(reviewer.error());
  if (!engine.set_option(option::kLevel, "full") || !engine.set_option(option::kMultiPv, "1"))
    return error_response(500, "the engine refused the review settings");
  {
    std::lock_guard lock(mutex);
    review_slots[f.id] = slot;  // review-cancel stops this search
  }
  (*reviewer)->step(engine);
  std::lock_guard lock(mutex);
  review_slots.erase(f.id);
  const auto it = sessions.find(f.id);
  if (it == sessions.end()) return error_response(404, "the session was closed during the review");
  Session& s = it->second;
  if (s.reviewer == *reviewer && (*reviewer)->finished()) {
    s.reviewed = std::make_shared<const review::GameReview>((*reviewer)->result());
    s.reviewer.reset();
  }
  return review_progress(f.id, s);
}

ApiResponse Api::Impl::op_review_cancel(const Json& body) {
  std::lock_guard lock(mutex);
  const Found f = find_session(body);
  if (f.error) return *f.error;
  f.session->reviewer.reset();
  // A step searching for this review ends now (its result is dropped): stop() never blocks.
  if (const auto it = review_slots.find(f.id); it != review_slots.end()) engines[it->second]->stop();
  return review_progress(f.id, *f.session);
}

ApiResponse Api::Impl::op_review(const Json& body) {
  std::lock_guard lock(mutex);
  const Found f = find_session(body);
  if (f.error) return *f.error;
  const Session& s = *f.session;
  if (!s.reviewer && !(s.reviewed && same_game(s.reviewed->game, s.line)))
    return error_response(409, "this game has not been reviewed: review-start");
  return review_progress(f.id, *f.session);
}

ApiResponse Api::Impl::op_review_line(const Json& body) {
  std::lock_guard lock(mutex);
  const Found f = find_session(body);
  if (f.error) return *f.error;
  const std::shared_ptr<const review::GameReview> r = f.session->reviewed;
  if (!r || !same_game(r->game, f.session->line))
    return error_response(409, "no finished review of this game: review-start");
  const std::size_t plies = r->plies.size();
  const Expected<double> ply = number_field(body, "ply", 0, 1, static_cast<double>(plies));
  if (!ply || *ply < 1 || *ply != std::floor(*ply))
    return error_response(400, "field \"ply\" must be a whole number from 1 to " + std::to_string(plies));
  const std::size_t i = static_cast<std::size_t>(*ply) - 1;
  // The position before move `ply`, then each position of the engine's line from there.
  Position p = r->game.positions()[i];
  Json steps = Json::array();
  Json first = Json::object();
  first.set("pieces", pieces_json(p));
  first.set("side", json_str(color_name(p.side_to_move())));
  steps.push(std::move(first));
  for (const Move& m : r->plies[i].best_line) {
    MoveList legal;
    generate_legal_moves(p, legal);
    if (!legal.contains(m)) break;
    Json step = Json::object();
    step.set("text", json_str(to_algebraic(p, m)));
    p = p.after(m);
    step.set("pieces", pieces_json(p));
    step.set("side", json_str(color_name(p.side_to_move())));
    Json lm = Json::object();
    lm.set("from", json_str(square_name(m.from)));
    lm.set("to", json_str(square_name(m.to)));
    step.set("last_move", std::move(lm));
    steps.push(std::move(step));
  }
  Json j = Json::object();
  j.set("session", json_str(f.id));
  j.set("ply", json_num(*ply));
  j.set("steps", std::move(steps));
  return ok_response(j);
}

// The server's load, for people watching it and for tools/soak.
ApiResponse Api::Impl::op_stats(const Json&) {
  const QueueStats q = queue.stats();
  Json j = Json::object();
  {
    std::lock_guard lock(mutex);
    j.set("sessions", json_num(static_cast<double>(sessions.size())));
    j.set("max_sessions", json_num(static_cast<double>(config.max_sessions)));
  }
  j.set("search_slots", json_num(static_cast<double>(queue.config().slots)));
  j.set("searches_running", json_num(static_cast<double>(q.running)));
  j.set("searches_waiting", json_num(static_cast<double>(q.waiting)));
  j.set("searches_served", json_num(static_cast<double>(q.served)));
  j.set("searches_refused", json_num(static_cast<double>(q.refused)));
  j.set("longest_wait_ms", json_num(static_cast<double>(q.longest_wait.count()) / 1000.0));
  return ok_response(j);
}

Api::Api(ApiConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

Api::~Api() {
  shut_down();
  for (const auto& engine : impl_->engines) engine->wait();
}

void Api::shut_down() {
  impl_->queue.close();
  std::lock_guard lock(impl_->mutex);
  for (auto& [generation, analysis] : impl_->analyses) impl_->request_stop(generation);
}

ApiResponse Api::refuse_busy(const std::string& message) {
  impl_->queue.count_refused();
  return Impl::refusal_response(QueueTicket{std::nullopt, QueueRefusal::Busy, message});
}

std::size_t Api::search_capacity() const {
  return impl_->queue.config().slots + impl_->queue.config().max_waiting;
}

bool Api::may_search(std::string_view target) {
  return target == "/api/hint" || target == "/api/engine-move" || target == "/api/analysis-start";
}

void Api::set_analysis_sink(AnalysisSink sink) { impl_->sink = std::move(sink); }

Status Api::set_engine_option(std::string_view name, std::string_view value) {
  for (const auto& engine : impl_->engines)
    if (Status s = engine->set_option(name, value); !s) return s;
  return Ok{};
}

EgdbStatus Api::egdb_status() const { return impl_->engines.front()->egdb_status(); }

bool Api::has_session(std::string_view id) const {
  std::lock_guard lock(impl_->mutex);
  return impl_->sessions.find(id) != impl_->sessions.end();
}

void Api::stop_analysis(const std::string& session) { impl_->stop_analysis_of(session); }

std::size_t Api::expire_idle_sessions() {
  std::lock_guard lock(impl_->mutex);
  return impl_->expire_sessions();
}

ApiResponse Api::handle(const ApiRequest& request) {
  constexpr std::string_view kPrefix = "/api/";
  if (request.target.rfind(kPrefix, 0) != 0) return error_response(404, "not an API path: " + request.target);
  const std::string_view op = std::string_view(request.target).substr(kPrefix.size());
  if (request.method != "POST") return error_response(405, "use POST for /api/" + std::string(op));
  if (request.body.size() > impl_->config.max_body)
    return error_response(413, "request body of " + std::to_string(request.body.size()) +
                                   " bytes is over the limit of " + std::to_string(impl_->config.max_body));
  const std::string_view text =
      request.body.empty() ? std::string_view("{}") : std::string_view(request.body);
  const Expected<Json> body = parse_json(text, {impl_->config.max_body, 16});
  if (!body) return error_response(400, body.error());
  if (!body->is_object()) return error_response(400, "the request body must be a JSON object");
  return impl_->dispatch(op, *body);
}

}  // namespace damas::web
