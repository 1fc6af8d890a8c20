// A client of the CheckerBoard engine library (protocol/checkerboard.md), as pydraughts and the
// CheckerBoard GUI use it: the library loaded at run time, its three functions found by name,
// whole games of every gametype it plays played through them (the engine against itself and against a
// random mover) and every answer checked by the rules core. Usage: checkerboard_host LIBRARY.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "damas/checkerboard/board.h"
#include "damas/checkerboard/cb_api.h"
#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "library_loader.h"

using namespace damas;
using namespace damas::checkerboard;

namespace {

constexpr int kPlyCap = 300;
constexpr double kMoveSeconds = 0.02;
constexpr int kCbLoss = 2;
constexpr int kCbUnknown = 3;

struct Api {
  GetMoveFunction getmove = nullptr;
  EngineCommandFunction enginecommand = nullptr;
  IsLegalFunction islegal = nullptr;
};

struct Checker {
  int failures = 0;
  void expect(bool ok, const std::string& what) {
    if (ok) return;
    std::cerr << "FAIL: " << what << "\n";
    ++failures;
  }
};

// The board as the C functions take it.
struct CBoard {
  int cells[8][8];
};

CBoard c_board(const Board8x8& b) {
  CBoard c{};
  for (std::size_t x = 0; x < 8; ++x)
    for (std::size_t y = 0; y < 8; ++y) c.cells[x][y] = b.cells[x][y];
  return c;
}

Board8x8 from_c_board(const CBoard& c) {
  Board8x8 b;
  for (std::size_t x = 0; x < 8; ++x)
    for (std::size_t y = 0; y < 8; ++y) b.cells[x][y] = c.cells[x][y];
  return b;
}

bool terminated(const char* text) { return std::memchr(text, '\0', 1024) != nullptr; }

// As pydraughts sends it: a 256-byte buffer, with no NUL after a command of 256 characters.
std::pair<int, std::string> command(const Api& api, std::string_view text, Checker& check) {
  std::array<char, 256> buffer{};
  std::copy_n(text.begin(), std::min(text.size(), buffer.size()), buffer.begin());
  std::array<char, 1024> reply;
  reply.fill('Z');
  const int understood = api.enginecommand(buffer.data(), reply.data());
  check.expect(terminated(reply.data()), "enginecommand reply without NUL for '" + std::string(text) + "'");
  check.expect(understood == 0 || understood == 1, "enginecommand returned " + std::to_string(understood));
  return {understood, std::string(reply.data(), strnlen(reply.data(), reply.size()))};
}

// pydraughts' `set gamehist`: the position after the last capture or man move, the moves since in
// algebraic PDN, cut to its last 256 characters less the first word when longer.
std::string game_history(const Game& game) {
  std::size_t first = 0;
  for (std::size_t i = 0; i < game.moves().size(); ++i)
    if (game.positions()[i + 1].reversible_plies() == 0) first = i + 1;
  std::string text = "set gamehist ";
  text += to_fen(game.positions()[first], FenStyle::Algebraic);
  for (std::size_t i = first; i < game.moves().size(); ++i) {
    text += ' ';
    text += to_pdn_move(game.positions()[i], game.moves()[i], PdnSquares::Algebraic);
  }
  if (text.size() <= 256) return text;
  const std::string tail = text.substr(text.size() - 256);
  return tail.substr(std::min(tail.size(), tail.find(' ') + 1));
}

// The CBmove describes m: squares, pieces, and the pieces taken.
void check_cb_move(const Position& before, const Move& m, const CBmove& cb, Checker& check) {
  const Board8x8 was = to_board(before);
  const Board8x8 now = to_board(before.after(m));
  const Coor from = coor_of(m.from), to = coor_of(m.to);
  check.expect(cb.from.x == from.x && cb.from.y == from.y, "CBmove.from");
  check.expect(cb.to.x == to.x && cb.to.y == to.y, "CBmove.to");
  check.expect(cb.jumps == m.capture_count(), "CBmove.jumps");
  check.expect(cb.oldpiece == was.cells[std::size_t(from.x)][std::size_t(from.y)], "CBmove.oldpiece");
  check.expect(cb.newpiece == now.cells[std::size_t(to.x)][std::size_t(to.y)], "CBmove.newpiece");
  Bitboard taken = 0;
  for (int i = 0; i < cb.jumps && i < 12; ++i) {
    const Coor c{cb.del[i].x, cb.del[i].y};
    check.expect(is_dark(c), "CBmove.del on a light square");
    if (!is_dark(c)) return;
    taken |= bb(square_of(c));
    check.expect(cb.delpiece[i] == was.cells[std::size_t(c.x)][std::size_t(c.y)], "CBmove.delpiece");
  }
  check.expect(taken == m.captured, "CBmove.del is not the pieces taken");
}

// islegal agrees with the rules: 1 exactly when one legal move joins m's squares.
void check_islegal(const Api& api, const Position& before, const Move& m, Checker& check) {
  MoveList moves;
  generate_legal_moves(before, moves);
  const auto same = std::count_if(moves.begin(), moves.end(),
                                  [&](const Move& x) { return x.from == m.from && x.to == m.to; });
  CBoard board = c_board(to_board(before));
  CBmove cb{};
  const int legal = api.islegal(board.cells, color_code(before.side_to_move()), square_number(m.from),
                                square_number(m.to), &cb);
  check.expect(legal == (same == 1 ? 1 : 0), "islegal " + to_hub_move(m));
  if (legal == 1) check_cb_move(before, m, cb, check);
}

// One getmove: its board written back must be the position after one legal move, which the CBmove
// describes. nullopt (a failure counted) when it is not.
std::optional<Move> engine_move(const Api& api, const Position& before, Checker& check) {
  CBoard board = c_board(to_board(before));
  CBmove cb{};
  std::array<char, 1024> text;
  text.fill('Z');
  int playnow = 0;
  const int result = api.getmove(board.cells, color_code(before.side_to_move()), kMoveSeconds, text.data(),
                                 &playnow, 0, 0, &cb);
  check.expect(terminated(text.data()), "getmove text without NUL");
  check.expect(result >= 0 && result <= 3, "getmove returned " + std::to_string(result));
  const Board8x8 after = from_c_board(board);
  MoveList moves;
  generate_legal_moves(before, moves);
  for (const Move& m : moves) {
    if (to_board(before.after(m)) != after) continue;
    check_cb_move(before, m, cb, check);
    check_islegal(api, before, m, check);
    return m;
  }
  check.expect(false, "getmove's board is after no legal move of " + to_fen(before) + ": " + text.data());
  return std::nullopt;
}

// At the end of a game by no legal move, getmove answers CB_LOSS and leaves the board alone.
void check_final_position(const Api& api, const Position& p, Checker& check) {
  CBoard board = c_board(to_board(p));
  CBmove cb{};
  std::array<char, 1024> text{};
  int playnow = 0;
  const int result =
      api.getmove(board.cells, color_code(p.side_to_move()), kMoveSeconds, text.data(), &playnow, 0, 0, &cb);
  check.expect(result == kCbLoss, "getmove without a legal move returned " + std::to_string(result));
  check.expect(from_c_board(board) == to_board(p), "getmove without a legal move changed the board");
}

// A game of `variant`: the engine plays both sides, or one against a random mover.
enum class Opponent { Itself, RandomAsBlack, RandomAsWhite };

void play_game(const Api& api, Variant variant, Opponent opponent, unsigned seed, Checker& check) {
  const std::string type = std::to_string(rules::of(variant).pdn_game_type);
  check.expect(command(api, "set gametype " + type, check).first == 1, "set gametype " + type);
  std::mt19937 random(seed);
  Game game(Position::start(variant));
  while (!game.over() && static_cast<int>(game.moves().size()) < kPlyCap) {
    const Position& p = game.current();
    const bool random_turn = (opponent == Opponent::RandomAsBlack && p.side_to_move() == Color::Black) ||
                             (opponent == Opponent::RandomAsWhite && p.side_to_move() == Color::White);
    std::optional<Move> m;
    if (random_turn) {
      MoveList moves;
      generate_legal_moves(p, moves);
      m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(random)];
    } else {
      if (!game.moves().empty()) {
        const std::string history = game_history(game);  // whole (maybe without "set"): understood
        const bool whole = history.rfind("set gamehist ", 0) == 0 || history.rfind("gamehist ", 0) == 0;
        check.expect(command(api, history, check).first == (whole ? 1 : 0), "the answer to " + history);
      }
      m = engine_move(api, p, check);
    }
    if (!m) return;
    check.expect(static_cast<bool>(game.play(*m)), "the referee refused " + to_hub_move(*m));
  }
  if (game.end_reason() == GameEndReason::NoLegalMove) check_final_position(api, game.current(), check);
  std::cout << to_string(variant) << " game, engine against "
            << (opponent == Opponent::Itself ? "itself" : "a random mover") << ": " << game.moves().size()
            << " plies, "
            << (game.over() ? to_string(game.result()) + " (" + game.end_description() + ")" : "ply cap")
            << "\n";
}

// Bad boards and null pointers are refused, the board left as it was.
void check_refusals(const Api& api, Checker& check) {
  CBoard board = c_board(to_board(Position::start()));
  board.cells[0][1] = kCbWhite | kCbMan;  // a light square
  const CBoard given = board;
  CBmove cb{};
  std::array<char, 1024> text{};
  int playnow = 0;
  const int result = api.getmove(board.cells, kCbWhite, kMoveSeconds, text.data(), &playnow, 0, 0, &cb);
  check.expect(result == kCbUnknown, "a piece on a light square was not refused");
  check.expect(from_c_board(board) == from_c_board(given), "a refused board was changed");
  check.expect(std::string(text.data()).rfind("bad board", 0) == 0, "no reason for a bad board");
  check.expect(api.getmove(nullptr, kCbWhite, kMoveSeconds, text.data(), &playnow, 0, 0, &cb) == kCbUnknown,
               "getmove with a null board");
  check.expect(api.getmove(board.cells, kCbWhite, kMoveSeconds, nullptr, &playnow, 0, 0, &cb) == kCbUnknown,
               "getmove with a null text");
  check.expect(
      api.getmove(board.cells, kCbWhite, kMoveSeconds, text.data(), nullptr, 0, 0, &cb) == kCbUnknown,
      "getmove with a null playnow");
  check.expect(api.enginecommand(nullptr, text.data()) == 0, "enginecommand with a null command");
  check.expect(api.enginecommand("name", nullptr) == 0, "enginecommand with a null reply");
  check.expect(api.islegal(nullptr, kCbWhite, 22, 18, &cb) == 0, "islegal with a null board");
  check.expect(command(api, "fly me to the moon", check).first == 0, "an unknown command was understood");
}

// playnow set by another thread during an hour's search ends it with a legal move.
void check_play_now(const Api& api, Checker& check) {
  const Position start = Position::start();
  CBoard board = c_board(to_board(start));
  CBmove cb{};
  std::array<char, 1024> text{};
  int playnow = 0;
  std::thread gui([&playnow] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::atomic_ref<int>(playnow).store(1);
  });
  api.getmove(board.cells, kCbWhite, 3600, text.data(), &playnow, 0, 0, &cb);
  gui.join();
  MoveList moves;
  generate_legal_moves(start, moves);
  const bool legal = std::any_of(moves.begin(), moves.end(), [&](const Move& m) {
    return to_board(start.after(m)) == from_c_board(board);
  });
  check.expect(legal, "getmove stopped by playnow played no legal move");
}

bool load(const std::string& path, void*& library, Api& api) {
  std::string error;
  library = test::open_library(path, error);
  if (!library) {
    std::cerr << "cannot load " << path << ": " << error << "\n";
    return false;
  }
  api.getmove = reinterpret_cast<GetMoveFunction>(test::find_function(library, "getmove", error));
  api.enginecommand =
      reinterpret_cast<EngineCommandFunction>(test::find_function(library, "enginecommand", error));
  api.islegal = reinterpret_cast<IsLegalFunction>(test::find_function(library, "islegal", error));
  if (api.getmove && api.enginecommand && api.islegal) return true;
  std::cerr << path << ": " << error << "\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: checkerboard_host LIBRARY\n";
    return 2;
  }
  Checker check;
  for (int load_count = 0; load_count < 2; ++load_count) {  // unloaded and loaded again, as pydraughts may
    void* library = nullptr;
    Api api;
    if (!load(argv[1], library, api)) return 1;
    check.expect(command(api, "name", check).second.rfind("damas", 0) == 0, "name");
    check.expect(command(api, "set book 0", check).first == 1, "set book 0");
    check.expect(command(api, "set hashsize 16", check).first == 1, "set hashsize 16");
    if (load_count == 0) {
      check_refusals(api, check);
      check_play_now(api, check);
      unsigned seed = 1;
      // Every game of the FMJD board: the API's board is laid out for it (protocol/checkerboard.md).
      for (const Variant v : kVariants)
        if (!rules::of(v).mirrored_board)
          for (const Opponent o : {Opponent::Itself, Opponent::RandomAsBlack, Opponent::RandomAsWhite})
            play_game(api, v, o, seed++, check);
    }
    test::close_library(library);
  }
  std::cout << (check.failures == 0 ? "all checks passed" : std::to_string(check.failures) + " checks failed")
            << "\n";
  return check.failures == 0 ? 0 : 1;
}
