#include "damas/match/hub_engine.h"

#include <algorithm>
#include <cstdio>

namespace damas {

namespace {

using std::chrono::milliseconds;

// After a deadline the engine is told to stop; this long it may still answer before it is killed.
constexpr milliseconds kStopGrace{500};
constexpr milliseconds kQuitGrace{200};

double seconds_since(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

SteadyClock::time_point after_seconds(double seconds) {
  return SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                  std::chrono::duration<double>(std::max(0.0, seconds)));
}

}  // namespace

// ---- HubEngine ------------------------------------------------------------------------------

HubEngine::HubEngine(EngineSpec spec, std::shared_ptr<const LogFile> log, bool debug)
    : spec_(std::move(spec)), log_(std::move(log)), debug_(debug) {}

HubEngine::~HubEngine() {
  if (process_.running()) {
    (void)send("quit");
    process_.close(kQuitGrace);
  }
}

void HubEngine::log(char direction, std::string_view line) const {
  if (!debug_ || !log_) return;
  std::string text = "[" + spec_.name + "] " + direction + " ";
  text.append(line);
  text += '\n';
  log_->write(text);  // one write: lines of engines do not mix
}

Status HubEngine::send(std::string_view line) {
  log('>', line);
  return process_.write_line(line);
}

ReadResult HubEngine::receive(SteadyClock::time_point deadline, std::string& line) {
  const ReadResult r = process_.read_line(deadline, line);
  if (r == ReadResult::Line) log('<', line);
  return r;
}

Status HubEngine::start() {
  params_.clear();
  moves_sent_ = 0;
  moves_text_.clear();
  id_name_.clear();
  ProcessSpec process = spec_.process;
  process.stderr_path = log_ ? log_->path() : std::string();
  const std::string who = "engine " + spec_.name + " (" + spec_.process.command + ")";
  if (Status s = process_.start(process); !s) return Error{who + " cannot be started: " + s.error()};
  const auto deadline = after_seconds(spec_.start_timeout);
  Status s = handshake(deadline);
  if (s) s = configure();
  if (s) s = wait_for("ready", deadline, "`ready` after `init`");
  if (!s) {
    process_.kill();
    std::string why = s.error();
    if (!process_.exit_description().empty()) why += " (it " + process_.exit_description() + ")";
    return Error{who + ": " + why};
  }
  return Ok{};
}

Status HubEngine::wait_for(std::string_view command, SteadyClock::time_point deadline,
                           std::string_view what_view) {
  const std::string what(what_view);
  std::string line;
  for (;;) {
    const ReadResult r = receive(deadline, line);
    if (r == ReadResult::Closed) return Error{"closed its output while waiting for " + what};
    if (r == ReadResult::Timeout) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", spec_.start_timeout);
      return Error{"no " + what + " within " + seconds + " s"};
    }
    const Expected<hub::Line> parsed = hub::parse_line(line);
    if (!parsed) continue;  // text before the answer is tolerated (Scan prints "init eval")
    if (parsed->command == command) return Ok{};
    if (parsed->command == "error") {
      const hub::Argument* m = parsed->find("message");
      std::string message = "answered error";
      if (m) message += " \"" + m->value + "\"";
      return Error{message + " while waiting for " + what};
    }
    if (parsed->command == "id" && parsed->find("name")) id_name_ = parsed->find("name")->value;
    if (parsed->command == "param")
      if (std::optional<hub::ParamDeclaration> p = hub::read_param(*parsed)) params_.push_back(std::move(*p));
  }
}

Status HubEngine::handshake(SteadyClock::time_point deadline) {
  if (Status s = send("hub"); !s) return s;
  return wait_for("wait", deadline, "`wait` after `hub`");
}

// The game first: an engine's other settings (an evaluation file of that game's network) may
// depend on it. An option list's own `variant` names the match's game (checked before the match).
Status HubEngine::configure() {
  if (Status s = tell_variant(); !s) return s;
  bool draw_rules_given = false;
  for (const auto& [name, value] : spec_.options) {
    if (name == "variant") continue;
    if (Status s = set_param(name, value); !s) return s;
    draw_rules_given = draw_rules_given || name == "draw-rules";
  }
  if (!spec_.draw_rules.empty() && !draw_rules_given && declares("draw-rules"))
    if (Status s = set_param("draw-rules", spec_.draw_rules); !s) return s;
  return send("init");
}

bool HubEngine::declares(std::string_view name) const {
  return std::any_of(params_.begin(), params_.end(),
                     [&](const hub::ParamDeclaration& p) { return p.name == name; });
}

// An engine that declares draw-rules counts the laws: a start that came with a count (a lidraughts
// FEN's H) is sent as that FEN, which damas' Hub reads. The others get the Hub string all know.
std::string HubEngine::position_text(const Position& start, int start_plies) const {
  if (start_plies > 0 && declares("draw-rules")) return to_fen(start) + ":H" + std::to_string(start_plies);
  return to_hub_position(start);
}

// The match's game, where the engine declares a variant parameter. An engine that declares none
// is taken to play Brazilian, the game of Hub engines without variants (Scan's Brazilian build).
Status HubEngine::tell_variant() {
  const std::string game(to_string(spec_.variant));
  const auto variant = std::find_if(params_.begin(), params_.end(),
                                    [](const hub::ParamDeclaration& p) { return p.name == "variant"; });
  if (variant == params_.end()) {
    if (spec_.variant == Variant::Brazilian) return Ok{};
    return Error{"it declares no variant parameter, so it cannot be told to play " + game};
  }
  const bool offered = variant->value == game || std::find(variant->values.begin(), variant->values.end(),
                                                           game) != variant->values.end();
  if (!offered) return Error{"its variant parameter does not offer \"" + game + "\""};
  return set_param("variant", game);
}

Status HubEngine::set_param(std::string_view name, std::string_view value) {
  return send(hub::Message("set-param").arg("name", name).arg("value", value).str());
}

Status HubEngine::new_game() {
  moves_sent_ = 0;
  moves_text_.clear();
  return send("new-game");
}

// The moves of a game only grow between two `pos` lines of one game: the text of the moves sent
// before is kept and only the new ones are written (else every move would rewrite the game).
const std::string& HubEngine::moves_text(const Position& start, const std::vector<Move>& moves) {
  if (!(start == moves_start_) || moves.size() < moves_sent_) {
    moves_start_ = start;
    moves_sent_ = 0;
    moves_text_.clear();
  }
  for (; moves_sent_ < moves.size(); ++moves_sent_) {
    if (moves_sent_) moves_text_ += ' ';
    moves_text_ += to_hub_move(moves[moves_sent_], game_numbering(spec_.variant, spec_.numbering));
  }
  return moves_text_;
}

// The deadline passed: ask for the move and give the engine a short while before killing it.
void HubEngine::finish_late(ThinkReply& reply, SteadyClock::time_point started) {
  reply.outcome = ThinkReply::Outcome::Hang;
  if (send("stop")) {
    const auto deadline = SteadyClock::now() + kStopGrace;
    std::string line;
    while (receive(deadline, line) == ReadResult::Line) {
      const Expected<hub::Line> parsed = hub::parse_line(line);
      if (parsed && parsed->command == "done") {
        reply.outcome = ThinkReply::Outcome::TimeLoss;
        break;
      }
    }
  }
  reply.seconds = seconds_since(started);
  if (reply.outcome == ThinkReply::Outcome::Hang) {
    reply.detail = "no done after stop";
    process_.kill();
  }
}

ThinkReply HubEngine::think(const Position& start, int start_plies, const std::vector<Move>& moves,
                            std::string_view level, double budget_seconds) {
  ThinkReply reply;
  hub::Message pos("pos");
  pos.arg("pos", position_text(start, start_plies));
  if (!moves.empty()) pos.quoted("moves", moves_text(start, moves));
  const auto started = SteadyClock::now();
  if (!send(pos.str()) || !send(level) || !send("go think")) {
    reply.outcome = ThinkReply::Outcome::Closed;
    process_.kill();
    reply.detail = process_.exit_description();
    return reply;
  }
  const auto deadline = after_seconds(budget_seconds);
  std::string line;
  std::string last_info;  // only the last `info` before `done` is read: the figures of the move
  for (;;) {
    const ReadResult r = receive(deadline, line);
    if (r == ReadResult::Timeout) {
      finish_late(reply, started);
      return reply;
    }
    if (r == ReadResult::Closed) {
      reply.seconds = seconds_since(started);
      reply.outcome = ThinkReply::Outcome::Closed;
      process_.kill();
      reply.detail = process_.exit_description();
      return reply;
    }
    if (hub::command_of(line) == "info") {
      last_info.swap(line);
      continue;
    }
    const Expected<hub::Line> parsed = hub::parse_line(line);
    if (!parsed) continue;  // not Hub: ignored
    if (parsed->command == "done") {
      reply.seconds = seconds_since(started);
      if (const Expected<hub::Line> info = hub::parse_line(last_info); info)
        reply.info = hub::read_info(*info);
      reply.move = hub::read_done(*parsed).move;
      return reply;
    } else if (parsed->command == "error") {
      reply.seconds = seconds_since(started);
      reply.outcome = ThinkReply::Outcome::Error;
      const hub::Argument* m = parsed->find("message");
      reply.detail = m ? m->value : line;
      process_.kill();  // its state is unknown now; a fresh process plays the next game
      return reply;
    }
  }
}

}  // namespace damas
