// The board's sessions: one game each with its cursor and settings, under random ids, dropped when
// idle for too long, at most max_sessions of them. Not locked itself: the Api's mutex guards it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "api_error.h"
#include "damas/core/game.h"
#include "damas/review/review.h"
#include "damas/web/api.h"
#include "request_fields.h"

namespace damas::web {

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

// The game as it stands at the cursor (the referee decides the result there).
Game game_at_cursor(const Session& s);
// Whether the person is not to move in a game against the computer (and the game goes on).
bool computer_to_move(const Session& s);
// Plays m at the cursor: the moves after it are dropped.
Status play(Session& s, const Move& m, std::size_t max_plies);
// The game changed: a search result or an analysis of it no longer applies.
void changed(Session& s);

class SessionStore {
 public:
  struct Limits {
    std::size_t max_sessions;
    std::chrono::seconds idle_expiry;
    std::function<Clock::time_point()> clock;
    std::function<void(Session&)> on_expire;  // before an idle session is dropped
  };
  explicit SessionStore(Limits limits);

  // A new session of `game`, or Full when there are max_sessions (after dropping the idle ones).
  Result<std::string> add(Game game, const GameSettings& settings);
  // The session named by the body's "session" field, marked as used now; or why there is none.
  struct Found {
    std::string id;
    Session* session;
  };
  Result<Found> find(const Json& body);
  Session* get(std::string_view id);  // nullptr when there is none
  Session& at(std::string_view id);   // a session that exists
  void erase(std::string_view id);
  // Drops the sessions idle for longer than idle_expiry: how many.
  std::size_t expire();
  std::size_t size() const { return sessions_.size(); }
  std::size_t max_sessions() const { return limits_.max_sessions; }

 private:
  std::string new_id();
  Limits limits_;
  std::mt19937_64 rng_;
  std::map<std::string, Session, std::less<>> sessions_;
};

}  // namespace damas::web
