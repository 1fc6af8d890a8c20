#include "damas/dxp/dxp.h"

#include <algorithm>
#include <cmath>

#include "damas/core/movegen.h"

namespace damas::dxp {
namespace {

GameResult win_for(Color c) { return c == Color::White ? GameResult::WhiteWins : GameResult::BlackWins; }

// The GAMEEND reason the side `sender` gives for `result`.
EndReason reason_for(GameResult result, Color sender) {
  switch (result) {
    case GameResult::Draw:
      return EndReason::Draw;
    case GameResult::WhiteWins:
      return sender == Color::White ? EndReason::SenderWins : EndReason::SenderLoses;
    case GameResult::BlackWins:
      return sender == Color::Black ? EndReason::SenderWins : EndReason::SenderLoses;
    case GameResult::Ongoing:
      return EndReason::Unknown;
  }
  return EndReason::Unknown;
}

// The result claimed by a GAMEEND from `sender`.
GameResult claimed_result(EndReason reason, Color sender) {
  switch (reason) {
    case EndReason::SenderLoses:
      return win_for(~sender);
    case EndReason::Draw:
      return GameResult::Draw;
    case EndReason::SenderWins:
      return win_for(sender);
    case EndReason::Unknown:
      return GameResult::Ongoing;
  }
  return GameResult::Ongoing;
}

std::string_view reason_text(EndReason r) {
  switch (r) {
    case EndReason::Unknown:
      return "no reason given";
    case EndReason::SenderLoses:
      return "peer gives up";
    case EndReason::Draw:
      return "peer claims a draw";
    case EndReason::SenderWins:
      return "peer claims a win";
  }
  return "";
}

constexpr Millis kClockGrace{10'000};

std::string seconds_text(Millis t) { return std::to_string(t.count() / 1000) + " s"; }

}  // namespace

Session::Session(SessionConfig config, Sink& sink) : config_(std::move(config)), sink_(sink) {}

// ---- inputs ----

void Session::on_connected(Millis now) {
  last_heard_ = now;
  if (config_.role == Role::Initiator) request_next_game(now);
}

void Session::on_message(std::string_view text, Millis now) {
  if (state_ == State::Closed) return;
  last_heard_ = now;
  Expected<Message> m = parse_message(text);
  if (m) {
    std::visit([&](const auto& x) { handle(x, now); }, *m);
    return;
  }
  const char type = text.empty() ? '\0' : text[0];
  if (type == 'M' && state_ == State::Playing) {
    peer_fault("malformed MOVE: " + m.error(), now);
  } else if (type == 'R' && config_.role == Role::Follower) {
    send(Chat{"refused GAMEREQ: " + m.error()});
    send(GameAccept{config_.name, AcceptCode::GameRefused});
  } else {
    sink_.log("ignored bad message: " + m.error());
    send(Chat{"ignored: " + m.error()});
  }
}

void Session::on_frame_error(std::string_view reason, Millis now) {
  if (state_ == State::Closed) return;
  last_heard_ = now;
  sink_.log("refused data: " + std::string(reason));
  send(Chat{"ignored: " + std::string(reason)});
}

void Session::on_search_done(std::uint64_t ticket, const SearchResult& result, Millis now) {
  if (!thinking_ || ticket != ticket_) return;  // stale answer of a cancelled search
  thinking_ = false;
  if (state_ != State::Playing || !game_ || !our_turn()) return;
  Move m = result.best;
  if (Status s = game_->play(m); !s) {
    // Never stall a game on an engine fault: play the first legal move instead.
    sink_.log("engine returned an unplayable move (" + s.error() + "); playing the first legal move");
    MoveList legal;
    generate_legal_moves(game_->current(), legal);
    if (legal.empty()) {
      continue_game(now);
      return;
    }
    m = legal[0];
    game_->play(m);
  }
  const Millis spent = now - turn_started_;
  if (minutes_ > 0) {
    remaining_ -= spent;
    ++our_moves_;
    if (moves_ > 0 && our_moves_ % moves_ == 0) remaining_ += Millis{minutes_ * 60'000};
  }
  const int seconds = static_cast<int>(std::lround(static_cast<double>(spent.count()) / 1000.0));
  send(to_move_message(m, seconds, game_numbering(config_.variant, config_.numbering)));
  last_heard_ = now;  // the peer's silence is counted from our move
  // If the game is now over it is the peer's turn: it ends it (GAMEEND) or moves, and we end
  // it on our turn (continue_game after its MOVE).
}

void Session::on_tick(Millis now) {
  const std::optional<Millis> due = deadline();
  if (!due || now < *due) return;
  const std::string why = "no message from the peer for " + seconds_text(now - last_heard_);
  sink_.log(why + ": closing the connection");
  if (state_ == State::Playing) {
    send(Chat{why + ": game ended"});
    send(GameEnd{EndReason::Unknown, true});
    save(game_->over() ? game_->result() : GameResult::Ongoing, "peer silent (" + why + ")");
  }
  if (config_.role == Role::Initiator) match_aborted_ = true;
  finish_match();
}

void Session::on_disconnected(Millis now) {
  (void)now;
  if (state_ == State::Closed) return;
  cancel_thinking();
  if (game_ && !game_saved_) save(game_->over() ? game_->result() : GameResult::Ongoing, "connection lost");
  if (config_.role == Role::Initiator) match_aborted_ = true;  // we close first after a full match
  state_ = State::Closed;
}

std::optional<Millis> Session::deadline() const {
  if (state_ == State::Closed || thinking_) return std::nullopt;
  Millis allowance = config_.peer_timeout;
  // On its move in a timed game the peer may use its whole clock: never call that silence.
  if (state_ == State::Playing && !our_turn() && minutes_ > 0)
    allowance = std::max(allowance, Millis{minutes_ * 60'000} + kClockGrace);
  return last_heard_ + allowance;
}

bool Session::match_complete() const {
  return config_.role == Role::Initiator && !match_aborted_ && summary_.games_requested == config_.games &&
         summary_.unfinished == 0 && summary_.games_saved == config_.games;
}

// ---- messages ----

void Session::handle(const GameRequest& m, Millis now) {
  if (config_.role == Role::Initiator) {
    send(Chat{"I am the initiator: GAMEREQ ignored"});
    return;
  }
  if (m.version != kProtocolVersion) {
    sink_.log("GAMEREQ for protocol version " + std::to_string(m.version) + " refused");
    send(GameAccept{config_.name, AcceptCode::VersionUnsupported});
    return;
  }
  if (state_ == State::Playing) {
    cancel_thinking();
    save(game_->over() ? game_->result() : GameResult::Ongoing, "abandoned: new GAMEREQ");
  }
  const Position start = m.start ? *m.start : Position::start();
  if (!has_legal_move(start)) {
    send(Chat{"refused GAMEREQ: the side to move has no legal move"});
    send(GameAccept{config_.name, AcceptCode::GameRefused});
    state_ = State::Idle;
    return;
  }
  send(GameAccept{config_.name, AcceptCode::Accepted});
  begin_game(start, m.follower_color, m.minutes, m.moves, m.initiator_name, now);
}

void Session::handle(const GameAccept& m, Millis now) {
  if (config_.role != Role::Initiator || state_ != State::AwaitingAccept) {
    send(Chat{"unexpected GAMEACC ignored"});
    return;
  }
  switch (m.code) {
    case AcceptCode::Accepted:
      begin_game(pending_start_ ? *pending_start_ : Position::start(), ~pending_color_, config_.minutes,
                 config_.moves, m.follower_name, now);
      return;
    case AcceptCode::GameRefused:
      sink_.log("peer refused game " + std::to_string(summary_.games_requested) + "; trying the next one");
      state_ = State::Idle;
      request_next_game(now);
      return;
    case AcceptCode::VersionUnsupported:
    case AcceptCode::NeverPlay:
      sink_.log("peer refuses to play (GAMEACC code " + std::to_string(static_cast<int>(m.code)) + ")");
      match_aborted_ = true;
      finish_match();
      return;
  }
}

void Session::handle(const MoveMessage& m, Millis now) {
  if (state_ == State::AwaitingEndAck) {
    sink_.log("MOVE after our GAMEEND ignored");
    return;
  }
  if (state_ != State::Playing) {
    send(Chat{"no game in progress: MOVE " + describe(m) + " ignored"});
    return;
  }
  if (game_->over()) {
    // The game ended by the rules and the peer moves on: the turn is ours now, end it.
    end_game_ourselves(game_->result(), "ended by the rules: " + game_->end_description(), now);
    return;
  }
  if (our_turn()) {
    peer_fault("MOVE " + describe(m) + " received while it is my turn", now);
    return;
  }
  Expected<Move> move = to_move(game_->current(), m, config_.numbering);
  if (!move) {
    peer_fault(move.error(), now);
    return;
  }
  if (Status s = game_->play(*move); !s) {
    peer_fault(s.error(), now);
    return;
  }
  continue_game(now);
}

void Session::handle(const GameEnd& m, Millis now) {
  if (state_ == State::AwaitingEndAck) {
    after_game(m.stop || we_sent_stop_, now);
    return;
  }
  if (state_ != State::Playing) {
    sink_.log("GAMEEND outside a game ignored");
    return;
  }
  cancel_thinking();
  send(GameEnd{EndReason::Unknown, m.stop});
  const Color peer = ~ours_;
  if (game_->over()) save(game_->result(), "ended by the rules: " + game_->end_description());
  else save(claimed_result(m.reason, peer), "GAMEEND from peer: " + std::string(reason_text(m.reason)));
  after_game(m.stop, now);
}

void Session::handle(const Chat& m, Millis now) {
  (void)now;
  sink_.log("peer says: " + m.text);
}

void Session::handle(const BackRequest& m, Millis now) {
  if (state_ != State::Playing) {
    send(BackAccept{BackCode::Refused});
    return;
  }
  // Ply of (move N, side) from the start, as Scan counts it.
  const Color first = game_->start().side_to_move();
  int ply = (m.move_number - 1) * 2 + (m.side == Color::Black ? 1 : 0) - (first == Color::Black ? 1 : 0);
  const int played = static_cast<int>(game_->moves().size());
  if (ply < 0 || ply > played) {
    send(BackAccept{BackCode::Refused});
    return;
  }
  cancel_thinking();
  game_->undo(played - ply);
  send(BackAccept{BackCode::Accepted});
  sink_.log("took back to ply " + std::to_string(ply));
  continue_game(now);
}

void Session::handle(const BackAccept& m, Millis now) {
  (void)now;
  sink_.log("BACKACC " + std::to_string(static_cast<int>(m.code)) + " ignored (no take-back asked)");
}

// ---- the game ----

void Session::send(const Message& m) { sink_.send(format_message(m)); }

bool Session::our_turn() const { return game_ && game_->current().side_to_move() == ours_; }

bool Session::last_game() const { return summary_.games_requested >= config_.games; }

void Session::request_next_game(Millis now) {
  if (last_game()) {
    finish_match();
    return;
  }
  const int i = summary_.games_requested++;
  pending_start_.reset();
  if (!config_.openings.empty()) {
    const Position& opening = config_.openings[static_cast<std::size_t>(i / 2) % config_.openings.size()];
    if (!(opening.with_variant(config_.variant) == Position::start(config_.variant)))
      pending_start_ = opening;
  }
  pending_color_ = i % 2 == 0 ? Color::Black : Color::White;  // we play White in odd-numbered games
  GameRequest r;
  r.initiator_name = config_.name;
  r.follower_color = pending_color_;
  r.minutes = config_.minutes;
  r.moves = config_.moves;
  r.start = pending_start_;
  send(r);
  state_ = State::AwaitingAccept;
  last_heard_ = now;
}

void Session::begin_game(const Position& start, Color ours, int minutes, int moves, std::string peer,
                         Millis now) {
  sink_.new_game();
  // DXP positions name no game (GAMEREQ has no variant field): both sides are told it.
  game_.emplace(start.with_variant(config_.variant), config_.draw_rules);
  game_saved_ = false;
  ours_ = ours;
  peer_name_ = std::move(peer);
  ++game_number_;
  minutes_ = minutes;
  moves_ = moves;
  remaining_ = Millis{minutes * 60'000};
  our_moves_ = 0;
  state_ = State::Playing;
  we_sent_stop_ = false;
  sink_.log("game " + std::to_string(game_number_) + " against " + (peer_name_.empty() ? "?" : peer_name_) +
            ": we play " + (ours == Color::White ? "White" : "Black") + ", " + std::to_string(minutes) +
            " min / " + std::to_string(moves) + " moves");
  continue_game(now);
}

void Session::continue_game(Millis now) {
  if (!our_turn()) return;
  if (game_->over()) {
    end_game_ourselves(game_->result(), "ended by the rules: " + game_->end_description(), now);
    return;
  }
  think(now);
}

void Session::think(Millis now) {
  SearchLimits limits;
  if (config_.depth || config_.nodes) {
    limits.depth = config_.depth;
    limits.nodes = config_.nodes;
  } else if (minutes_ > 0) {
    limits.time = static_cast<double>(remaining_.count()) / 1000.0;
    limits.moves_to_go = moves_ > 0 ? moves_ - our_moves_ % moves_ : 0;
  } else {
    limits.move_time = config_.fallback_move_time;
  }
  turn_started_ = now;
  thinking_ = true;
  sink_.think(++ticket_, *game_, limits);
}

void Session::cancel_thinking() {
  if (!thinking_) return;
  thinking_ = false;
  ++ticket_;
  sink_.stop_thinking();
}

void Session::peer_fault(const std::string& reason, Millis now) {
  (void)now;
  sink_.log("peer fault: " + reason);
  cancel_thinking();
  send(Chat{"error: " + reason});
  we_sent_stop_ = config_.role == Role::Initiator && last_game();
  send(GameEnd{EndReason::Unknown, we_sent_stop_});
  save(GameResult::Ongoing, "protocol error by peer: " + reason);
  state_ = State::AwaitingEndAck;
}

void Session::end_game_ourselves(GameResult result, const std::string& termination, Millis now) {
  (void)now;
  cancel_thinking();
  we_sent_stop_ = config_.role == Role::Initiator && last_game();
  send(GameEnd{reason_for(result, ours_), we_sent_stop_});
  save(result, termination);
  state_ = State::AwaitingEndAck;
}

void Session::after_game(bool stop, Millis now) {
  game_.reset();
  if (config_.role == Role::Initiator) {
    state_ = State::Idle;
    if (stop && !last_game()) {
      sink_.log("peer stops the match");
      match_aborted_ = true;
      finish_match();
      return;
    }
    request_next_game(now);
    return;
  }
  // Follower: with stop code 1 the initiator closes the connection; we wait for that.
  state_ = stop ? State::Stopped : State::Idle;
}

void Session::save(GameResult result, const std::string& termination) {
  if (!game_ || game_saved_) return;
  game_saved_ = true;
  FinishedGame g;
  g.number = game_number_;
  g.game = *game_;
  g.white = ours_ == Color::White ? config_.name : peer_name_;
  g.black = ours_ == Color::Black ? config_.name : peer_name_;
  g.result = result;
  g.termination = termination;
  ++summary_.games_saved;
  if (result == GameResult::Ongoing) ++summary_.unfinished;
  else if (result == GameResult::Draw) ++summary_.draws;
  else if (result == win_for(ours_)) ++summary_.wins;
  else ++summary_.losses;
  sink_.log("game " + std::to_string(g.number) + " over: " + to_string(result) + " (" + termination + ")");
  sink_.game_finished(g);
}

void Session::finish_match() {
  cancel_thinking();
  if (state_ == State::Closed) return;
  state_ = State::Closed;
  sink_.close();
}

// ---- PDN ----

std::string to_pdn(const FinishedGame& g) {
  const std::vector<std::pair<std::string, std::string>> tags = {
      {"Event", "DXP game " + std::to_string(g.number)},
      {"White", g.white},
      {"Black", g.black},
      {"Result", to_string(g.result)},
      {"Termination", g.termination},
  };
  // The Result tag also ends the move text: a game ended by a claim, a fault or a lost
  // connection keeps the result recorded here.
  return g.game.to_pdn(tags);
}

}  // namespace damas::dxp
