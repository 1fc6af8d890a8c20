#include "session_store.h"

#include <cstdio>

namespace damas::web {

Game game_at_cursor(const Session& s) {
  Game g = s.line;
  g.undo(static_cast<int>(g.moves().size() - s.cursor));
  return g;
}

bool computer_to_move(const Session& s) {
  return s.mode == Mode::Computer && game_at_cursor(s).current().side_to_move() != s.human;
}

Status play(Session& s, const Move& m, std::size_t max_plies) {
  if (s.cursor >= max_plies) return Error{"the game is at its length limit"};
  Game g = game_at_cursor(s);
  if (g.over()) return Error{"the game is over"};
  if (Status st = g.play(m); !st) return st;
  s.line = std::move(g);
  s.cursor = s.line.moves().size();
  changed(s);
  return Ok{};
}

void changed(Session& s) {
  ++s.version;
  s.analysis.clear();
}

SessionStore::SessionStore(Limits limits) : limits_(std::move(limits)), rng_(std::random_device{}()) {}

std::string SessionStore::new_id() {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng_()));
  return buf;
}

Result<std::string> SessionStore::add(Game game, const GameSettings& settings) {
  Session s;
  s.line = std::move(game);
  s.cursor = s.line.moves().size();
  s.mode = settings.mode;
  s.level = settings.level;
  s.human = settings.human;
  s.movetime = settings.movetime;
  expire();
  if (sessions_.size() >= limits_.max_sessions)
    return ApiError{ErrorKind::Full, "too many games at once on this server (" +
                                         std::to_string(limits_.max_sessions) +
                                         "); close one or try again when idle ones have expired"};
  s.last_used = limits_.clock();
  std::string id = new_id();
  while (sessions_.count(id)) id = new_id();
  sessions_.emplace(id, std::move(s));
  return id;
}

Result<SessionStore::Found> SessionStore::find(const Json& body) {
  const Result<std::string> name = string_field(body, "session", std::nullopt);
  if (!name) return name.error();
  const auto it = sessions_.find(*name);
  if (it == sessions_.end())
    return ApiError{ErrorKind::NotFound, "unknown session \"" + *name + "\" (expired or closed?)"};
  it->second.last_used = limits_.clock();
  return Found{it->first, &it->second};
}

Session* SessionStore::get(std::string_view id) {
  const auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : &it->second;
}

Session& SessionStore::at(std::string_view id) { return sessions_.find(id)->second; }

void SessionStore::erase(std::string_view id) {
  if (const auto it = sessions_.find(id); it != sessions_.end()) sessions_.erase(it);
}

std::size_t SessionStore::expire() {
  const Clock::time_point now = limits_.clock();
  std::size_t dropped = 0;
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (now - it->second.last_used <= limits_.idle_expiry) {
      ++it;
      continue;
    }
    if (limits_.on_expire) limits_.on_expire(it->second);
    it = sessions_.erase(it);
    ++dropped;
  }
  return dropped;
}

}  // namespace damas::web
