// The C exports of the CheckerBoard API (damas/checkerboard/cb_api.h) over one Frontend. Built
// into the shared library only (CMakeLists.txt), never into the static part, so no program but a
// client of the library gets these names.
//
// The API passes no handle: every call of a process reaches the same engine. That one instance,
// created on first use, is the only global state of damas; it lives here and nowhere else. A call
// that comes while another is running (the API is meant for one caller at a time) is refused.
#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <string_view>

#include "damas/checkerboard/cb_api.h"
#include "damas/checkerboard/frontend.h"
#include "damas/core/platform.h"

namespace {

using damas::checkerboard::Board8x8;
using damas::checkerboard::CbMove;
using damas::checkerboard::CbResult;
using damas::checkerboard::Frontend;
using damas::checkerboard::kTextBytes;

constexpr std::size_t kCommandBytes = 256;  // enginecommand's command buffer

// An in-process call has no line to cross: no time is kept back per move (`set move-overhead N`).
damas::Options library_options() {
  damas::Options options;
  (void)options.set(damas::option::kMoveOverhead, "0");  // a valid value: cannot fail
  return options;
}

struct Instance {
  std::mutex busy;
  Frontend frontend{library_options()};
};

// Made on the first call and kept until the process ends, with the library (platform.h): never
// destroyed, since its engine's threads cannot be joined while the system unloads a library.
Instance& instance() {
  static Instance* const the_instance = [] {
    damas::platform::keep_library_loaded();
    return new Instance;
  }();
  return *the_instance;
}

// At most 1023 bytes and a NUL; bytes a client could not decode as ASCII become '?'.
void write_text(char* out, std::string_view text) {
  const std::size_t n = std::min(text.size(), kTextBytes - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    out[i] = (c < 0x20 && c != '\n') || c >= 0x7f ? '?' : static_cast<char>(c);
  }
  out[n] = '\0';
}

Board8x8 board_from(int board[8][8]) {
  Board8x8 b;
  for (std::size_t x = 0; x < 8; ++x)
    for (std::size_t y = 0; y < 8; ++y) b.cells[x][y] = board[x][y];
  return b;
}

void write_board(const Board8x8& b, int board[8][8]) {
  for (std::size_t x = 0; x < 8; ++x)
    for (std::size_t y = 0; y < 8; ++y) board[x][y] = b.cells[x][y];
}

void write_move(const CbMove& m, CBmove* out) {
  *out = CBmove{};
  out->jumps = m.jumps;
  out->newpiece = m.newpiece;
  out->oldpiece = m.oldpiece;
  out->from = {m.from.x, m.from.y};
  out->to = {m.to.x, m.to.y};
  for (std::size_t i = 0; i < m.path.size(); ++i) {
    out->path[i] = {m.path[i].x, m.path[i].y};
    out->del[i] = {m.del[i].x, m.del[i].y};
    out->delpiece[i] = m.delpiece[i];
  }
}

int get_move(int board[8][8], int color, double maxtime, char str[1024], int* playnow, int info, int moreinfo,
             CBmove* move) {
  Instance& the = instance();
  const std::unique_lock<std::mutex> lock(the.busy, std::try_to_lock);
  if (!lock.owns_lock()) {
    write_text(str, "busy: another call of the engine is running");
    return static_cast<int>(CbResult::Unknown);
  }
  const damas::checkerboard::MoveRequest request{board_from(board), color, maxtime, info, moreinfo};
  // The GUI writes *playnow from its own thread while this one reads it.
  const auto play_now = [playnow] {
    return std::atomic_ref<int>(*playnow).load(std::memory_order_relaxed) != 0;
  };
  const auto progress = [str](std::string_view text) { write_text(str, text); };
  const damas::checkerboard::MoveAnswer answer = the.frontend.get_move(request, play_now, progress);
  write_text(str, answer.text);
  if (answer.move) {
    write_board(answer.board, board);
    write_move(*answer.move, move);
  }
  return static_cast<int>(answer.result);
}

}  // namespace

extern "C" {

int getmove(int board[8][8], int color, double maxtime, char str[1024], int* playnow, int info, int moreinfo,
            CBmove* move) {
  if (!str) return static_cast<int>(CbResult::Unknown);
  if (!board || !playnow || !move) {
    write_text(str, "refused: board, playnow and move must not be null pointers");
    return static_cast<int>(CbResult::Unknown);
  }
  try {
    return get_move(board, color, maxtime, str, playnow, info, moreinfo, move);
  } catch (const std::exception& e) {
    write_text(str, std::string("internal error: ") + e.what());
  } catch (...) {
    write_text(str, "internal error");
  }
  return static_cast<int>(CbResult::Unknown);
}

int enginecommand(const char* command, char reply[1024]) {
  if (!reply) return 0;
  if (!command) {
    write_text(reply, "refused: the command is a null pointer");
    return 0;
  }
  try {
    Instance& the = instance();
    const std::unique_lock<std::mutex> lock(the.busy, std::try_to_lock);
    if (!lock.owns_lock()) {
      write_text(reply, "busy: a search is running");
      return 0;
    }
    // A command of exactly 256 characters fills its buffer with no NUL after it.
    const damas::checkerboard::CommandReply answer = the.frontend.command(std::string_view(
        command, static_cast<std::size_t>(std::find(command, command + kCommandBytes, '\0') - command)));
    write_text(reply, answer.text);
    return answer.understood ? 1 : 0;
  } catch (const std::exception& e) {
    write_text(reply, std::string("internal error: ") + e.what());
  } catch (...) {
    write_text(reply, "internal error");
  }
  return 0;
}

int islegal(int board[8][8], int color, int from, int to, CBmove* move) {
  if (!board || !move) return 0;
  try {
    Instance& the = instance();
    const std::unique_lock<std::mutex> lock(the.busy, std::try_to_lock);
    if (!lock.owns_lock()) return 0;
    const damas::Expected<CbMove> legal = the.frontend.is_legal(board_from(board), color, from, to);
    if (!legal) return 0;
    write_move(*legal, move);
    return 1;
  } catch (...) {
    return 0;
  }
}

}  // extern "C"
