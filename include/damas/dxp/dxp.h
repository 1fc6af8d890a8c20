// The DXP session: one connection's dialogue as a pure state machine. It is fed with received
// messages, search results, clock ticks and the disconnection, each with the current time, and
// acts only through the injected Sink. No sockets, threads or clocks inside: tests drive it
// directly (see protocol/dxp.md for the behaviour).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/game.h"
#include "damas/core/notation.h"
#include "damas/core/position.h"
#include "damas/dxp/dxp_message.h"
#include "damas/engine/engine.h"

namespace damas::dxp {

// Time since an arbitrary epoch (the transport uses the steady clock).
using Millis = std::chrono::milliseconds;

enum class Role { Follower, Initiator };

struct SessionConfig {
  Role role = Role::Follower;
  std::string name = "damas";
  Numbering numbering = Numbering::Standard;  // squares of MOVE messages
  DrawRules draw_rules = DrawRules::Seed;     // the referee's draw laws (engine option draw-rules)
  Variant variant = Variant::Brazilian;       // the game of every position (engine option variant)
  // Initiator only: the match.
  int games = 2;
  std::vector<Position> openings;  // empty = normal start; opening k is played in games 2k+1, 2k+2
  int minutes = 5;                 // GAMEREQ thinking time per player
  int moves = 0;                   // GAMEREQ moves per time control (0 = whole game)
  // Our clock.
  double fallback_move_time = 1.0;  // seconds per move when a game announces 000 minutes
  std::optional<int> depth;         // fixed search budget instead of the clock
  std::optional<std::uint64_t> nodes;
  Millis peer_timeout{300'000};  // silence tolerated while we wait for the peer
};

// A game as it is saved: whenever it ended, however it ended.
struct FinishedGame {
  int number = 0;  // 1-based, per connection
  Game game;
  std::string white;
  std::string black;
  GameResult result = GameResult::Ongoing;  // Ongoing = unfinished, written "*"
  std::string termination;                  // why it ended, for people
};

// PDN text of a finished game (tags Event, White, Black, Result, Termination, FEN if needed).
std::string to_pdn(const FinishedGame& g);

// Counts from our side, for the initiator's report.
struct MatchSummary {
  int games_requested = 0;  // GAMEREQs sent (initiator)
  int games_saved = 0;
  int wins = 0;
  int draws = 0;
  int losses = 0;
  int unfinished = 0;
};

// What the session needs from the world.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void send(const std::string& message) = 0;  // one message without NUL
  // Start a search; answer later with Session::on_search_done(ticket, ...). A stale ticket
  // (after stop_thinking or a new think) is ignored by the session.
  virtual void think(std::uint64_t ticket, const Game& game, const SearchLimits& limits) = 0;
  virtual void stop_thinking() = 0;
  virtual void new_game() = 0;
  virtual void game_finished(const FinishedGame& game) = 0;
  virtual void log(std::string_view line) = 0;
  virtual void close() = 0;  // close the connection once every queued message is sent
};

class Session {
 public:
  Session(SessionConfig config, Sink& sink);

  void on_connected(Millis now);
  void on_message(std::string_view text, Millis now);
  void on_frame_error(std::string_view reason, Millis now);
  void on_search_done(std::uint64_t ticket, const SearchResult& result, Millis now);
  void on_tick(Millis now);
  void on_disconnected(Millis now);

  // When on_tick must be called next (nullopt: nothing to wait for).
  std::optional<Millis> deadline() const;
  bool closed() const { return state_ == State::Closed; }
  // Initiator: every requested game was played to a result and the match ended normally.
  bool match_complete() const;
  const MatchSummary& summary() const { return summary_; }
  // The game in progress, if any (tests, logs).
  const Game* game() const { return game_ ? &*game_ : nullptr; }

 private:
  enum class State { Idle, AwaitingAccept, Playing, AwaitingEndAck, Stopped, Closed };

  void handle(const GameRequest& m, Millis now);
  void handle(const GameAccept& m, Millis now);
  void handle(const MoveMessage& m, Millis now);
  void handle(const GameEnd& m, Millis now);
  void handle(const Chat& m, Millis now);
  void handle(const BackRequest& m, Millis now);
  void handle(const BackAccept& m, Millis now);

  void send(const Message& m);
  void request_next_game(Millis now);
  void begin_game(const Position& start, Color ours, int minutes, int moves, std::string peer, Millis now);
  void continue_game(Millis now);  // after any move: end by the rules or think if our turn
  void think(Millis now);
  void cancel_thinking();
  void peer_fault(const std::string& reason, Millis now);
  void end_game_ourselves(GameResult result, const std::string& termination, Millis now);
  void after_game(bool stop, Millis now);  // the game is over and acknowledged
  void save(GameResult result, const std::string& termination);
  void finish_match();
  bool our_turn() const;
  bool last_game() const;

  SessionConfig config_;
  Sink& sink_;
  State state_ = State::Idle;

  std::optional<Game> game_;
  bool game_saved_ = false;
  Color ours_ = Color::White;
  std::string peer_name_;
  int game_number_ = 0;  // games begun on this connection
  bool match_aborted_ = false;

  // Initiator's pending request.
  std::optional<Position> pending_start_;
  Color pending_color_ = Color::White;
  bool we_sent_stop_ = false;

  // Our clock for the current game.
  int minutes_ = 0;
  int moves_ = 0;
  Millis remaining_{0};
  int our_moves_ = 0;
  Millis turn_started_{0};

  std::uint64_t ticket_ = 0;
  bool thinking_ = false;
  Millis last_heard_{0};
  MatchSummary summary_;
};

}  // namespace damas::dxp
