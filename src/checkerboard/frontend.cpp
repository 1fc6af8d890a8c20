#include "damas/checkerboard/frontend.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"

namespace damas::checkerboard {
namespace {

// How often get_move looks at play_now: short against any move time a person notices.
constexpr std::chrono::milliseconds kPollInterval{5};
// The search text stays below getmove's 1024 bytes with room for the words around the line.
constexpr std::size_t kLineBytes = 800;

// What the search thread hands to the thread that called get_move.
struct SearchState {
  std::mutex mutex;
  std::condition_variable done;
  std::string text;
  bool text_changed = false;
  bool book = false;
  std::optional<SearchResult> result;
};

std::string seconds_text(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fs", seconds);
  return buf;
}

// "c3-d4 f6-e5 ...": the line's legal prefix, cut before it fills the text.
std::string line_text(const Position& root, const std::vector<Move>& line) {
  std::string text;
  Position p = root;
  for (const Move& m : legal_prefix(root, line)) {
    const std::string move = to_algebraic(p, m);
    if (text.size() + move.size() + 1 > kLineBytes) break;
    if (!text.empty()) text += ' ';
    text += move;
    p = p.after(m);
  }
  return text;
}

std::string info_text(const Position& root, const SearchInfo& info) {
  if (info.book) return "book move " + line_text(root, info.pv);
  return "depth " + std::to_string(info.depth) + " score " + score_text(info.score) + " nodes " +
         std::to_string(info.nodes) + " time " + seconds_text(info.seconds) + " pv " +
         line_text(root, info.pv);
}

CbResult result_of(Score s) {
  if (is_win_score(s)) return CbResult::Win;
  if (is_loss_score(s)) return CbResult::Loss;
  return CbResult::Unknown;
}

// Waits on the calling thread for the search's result, passing its progress on and stopping it
// when play_now says so. Returns whether it was stopped.
bool wait_for_result(Engine& engine, SearchState& state, const std::function<bool()>& play_now,
                     const std::function<void(std::string_view)>& progress) {
  bool stopped = false;
  std::unique_lock<std::mutex> lock(state.mutex);
  while (!state.result) {
    if (state.text_changed && progress) {
      state.text_changed = false;
      const std::string text = state.text;
      lock.unlock();
      progress(text);
      lock.lock();
    }
    if (!stopped && play_now && play_now()) {
      stopped = true;
      lock.unlock();
      engine.stop();  // never blocks; the result still comes through `done`
      lock.lock();
    }
    if (!state.result) state.done.wait_for(lock, kPollInterval);
  }
  return stopped;
}

std::string side_name(Color c) { return c == Color::White ? "White" : "Black"; }

}  // namespace

Expected<double> move_seconds(const MoveRequest& request) {
  if (!std::isfinite(request.maxtime) || request.maxtime < 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "maxtime %g is not a number of seconds", request.maxtime);
    return Error{buf};
  }
  double seconds = request.maxtime;
  const int unit = (request.info >> kInfoIncrementShift) & 3;
  if (unit != 0) {
    constexpr double kUnitSeconds[3] = {0.001, 0.01, 0.1};
    const auto clock = static_cast<std::uint32_t>(request.moreinfo) >> 16;
    const double remaining = clock * kUnitSeconds[unit - 1];
    if (remaining > 0) seconds = std::min(seconds, remaining / 2);
  }
  return seconds;
}

Frontend::Frontend(const Options& options) : engine_(options) {}

MoveAnswer Frontend::get_move(const MoveRequest& request, const std::function<bool()>& play_now,
                              const std::function<void(std::string_view)>& progress) {
  MoveAnswer refused;
  refused.board = request.board;
  const Expected<Position> position = to_position(request.board, request.color, variant());
  if (!position) {
    refused.text = "bad board: " + position.error();
    return refused;
  }
  const Expected<double> seconds = move_seconds(request);
  if (!seconds) {
    refused.text = "bad time: " + seconds.error();
    return refused;
  }
  const Color side = position->side_to_move();
  if (!has_legal_move(*position)) {
    refused.result = CbResult::Loss;
    refused.text = "no legal move: " + side_name(side) + " to move has lost";
    return refused;
  }
  if (position->pieces(~side) == 0) {
    refused.text = "bad board: " + side_name(~side) + " has no pieces, the game ended before this move";
    return refused;
  }
  if (const Status s = set_root(*position); !s) {
    refused.text = "bad board: " + s.error();
    return refused;
  }
  return search(engine_.position(), *seconds, play_now, progress);
}

// The game history counts when it ends in the board given; otherwise the board alone.
Status Frontend::set_root(const Position& position) {
  if (history_ && history_->last == position) return engine_.set_position(history_->start, history_->moves);
  return engine_.set_position(position);
}

MoveAnswer Frontend::search(const Position& root, double seconds, const std::function<bool()>& play_now,
                            const std::function<void(std::string_view)>& progress) {
  const auto state = std::make_shared<SearchState>();
  GoParams params;
  params.limits.move_time = seconds;
  engine_.go(
      params,
      [state, root](const SearchInfo& info) {
        std::string text = info_text(root, info);
        const std::lock_guard<std::mutex> lock(state->mutex);
        state->text = std::move(text);
        state->text_changed = true;
        state->book = info.book;
      },
      [state](const SearchResult& result) {
        const std::lock_guard<std::mutex> lock(state->mutex);
        state->result = result;
        state->done.notify_all();
      });
  const bool stopped = wait_for_result(engine_, *state, play_now, progress);
  engine_.wait();
  const SearchResult result = *state->result;
  const bool book = state->book;

  MoveAnswer answer;
  answer.board = to_board(root);
  if (result.best.is_null() || !damas::is_legal(root, result.best)) {
    answer.text = "no move: the search returned none";
    return answer;
  }
  answer.result = book ? CbResult::Unknown : result_of(result.score);
  answer.board = to_board(root.after(result.best));
  answer.move = to_cb_move(root, result.best);
  answer.played = result.best;
  answer.text = "best " + to_algebraic(root, result.best) + (book ? " (book)" : "") + " depth " +
                std::to_string(result.depth) + " score " + score_text(result.score) + " nodes " +
                std::to_string(result.nodes) + " time " + seconds_text(result.seconds) +
                (stopped ? " (play now)" : "") + " pv " + line_text(root, result.pv);
  return answer;
}

Expected<CbMove> Frontend::is_legal(const Board8x8& board, int color, int from, int to) const {
  const Expected<Position> position = to_position(board, color, variant());
  if (!position) return Error{"bad board: " + position.error()};
  if (from < 1 || from > rules::kBoardSquares || to < 1 || to > rules::kBoardSquares)
    return Error{"squares are numbered 1 to 32"};
  MoveList moves;
  generate_legal_moves(*position, moves);
  std::optional<Move> found;
  int count = 0;
  for (const Move& m : moves) {
    if (m.from != square_from_number(from) || m.to != square_from_number(to)) continue;
    ++count;
    found = m;
  }
  const std::string squares = std::to_string(from) + " to " + std::to_string(to);
  if (count == 0) return Error{"no legal move from " + squares};
  if (count > 1) return Error{std::to_string(count) + " legal moves go from " + squares};
  return to_cb_move(*position, *found);
}

}  // namespace damas::checkerboard
