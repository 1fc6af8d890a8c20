// The CheckerBoard API front end (protocol/checkerboard.md) as a C++ object: the board layout,
// getmove, enginecommand and islegal, without the shared library (tests/checkerboard_host.cpp
// plays games through the library itself).
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <thread>

#include "damas/checkerboard/board.h"
#include "damas/checkerboard/frontend.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"

using namespace damas;
using namespace damas::checkerboard;

namespace {

Position fen(std::string_view text, Variant v = Variant::Brazilian) {
  const Expected<Position> p = parse_fen(text);
  REQUIRE(p);
  return p->with_variant(v);
}

Options quiet_options() {
  Options options;
  REQUIRE(options.set(option::kBook, "false"));
  REQUIRE(options.set(option::kEgdbPath, "none"));
  REQUIRE(options.set(option::kHash, "16"));
  return options;
}

MoveRequest request_for(const Position& p, double maxtime = 0.05) {
  return MoveRequest{to_board(p), color_code(p.side_to_move()), maxtime, 0, 0};
}

const auto kNever = [] { return false; };

int& cell(Board8x8& b, int x, int y) {
  return b.cells[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)];
}

// The board after the answer's move is the position after one legal move, and the CBmove is that move.
void require_legal_answer(const Position& before, const MoveAnswer& answer) {
  REQUIRE(answer.played);
  REQUIRE(is_legal(before, *answer.played));
  CHECK(answer.board == to_board(before.after(*answer.played)));
  REQUIRE(answer.move);
  CHECK(*answer.move == to_cb_move(before, *answer.played));
  CHECK(answer.text.size() < kTextBytes);
}

}  // namespace

TEST_CASE("checkerboard: square numbers map to cells as pydraughts fills the board") {
  // pydraughts' get_board: row = ceil(loc / 4) - 1, column = 3 - (loc - 1) % 4, doubled (+1 on odd rows).
  for (int loc = 1; loc <= 32; ++loc) {
    const int row = (loc + 3) / 4 - 1;
    const int column = 3 - (loc - 1) % 4;
    const Coor expected{row % 2 == 0 ? 2 * column : 2 * column + 1, row};
    CHECK(coor_of(square_from_number(loc)) == expected);
    CHECK(square_of(expected) == square_from_number(loc));
    CHECK(is_dark(expected));
  }
}

TEST_CASE("checkerboard: a1 is board[7][7], b8 board[6][0], g1 board[1][7]") {
  CHECK(coor_of(*parse_square_name("a1")) == Coor{7, 7});
  CHECK(coor_of(*parse_square_name("b8")) == Coor{6, 0});
  CHECK(coor_of(*parse_square_name("g1")) == Coor{1, 7});
  CHECK(coor_of(*parse_square_name("h8")) == Coor{0, 0});
}

TEST_CASE("checkerboard: the start position has White's men on y 5 to 7") {
  const Board8x8 board = to_board(Position::start());
  for (int x = 0; x < 8; ++x) {
    for (int y = 0; y < 8; ++y) {
      const int expected = !is_dark({x, y}) ? kCbFree
                           : y >= 5         ? kCbWhite | kCbMan
                           : y <= 2         ? kCbBlack | kCbMan
                                            : kCbFree;
      CHECK(board.cells[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)] == expected);
    }
  }
}

TEST_CASE("checkerboard: a board converts to its position and back") {
  for (const Variant v : kVariants) {
    const Position p = fen("B:W18,K31,32:BK1,9,14", v);
    const Expected<Position> back = to_position(to_board(p), kCbBlack, v);
    REQUIRE(back);
    CHECK(*back == p);
    CHECK(back->variant() == v);
  }
}

TEST_CASE("checkerboard: bad boards are refused with the board left unchanged") {
  Frontend frontend(quiet_options());
  const Position start = Position::start();
  std::vector<std::pair<std::string, Board8x8>> bad;
  Board8x8 light = to_board(start);
  cell(light, 0, 1) = kCbWhite | kCbMan;  // (0 + 1) odd: a light square
  bad.emplace_back("light square", light);
  Board8x8 crowned_white = to_board(fen("W:W21:B12"));
  cell(crowned_white, 6, 0) = kCbWhite | kCbMan;  // b8
  bad.emplace_back("white man on row 8", crowned_white);
  Board8x8 crowned_black = to_board(fen("W:W21:B12"));
  cell(crowned_black, 7, 7) = kCbBlack | kCbMan;
  bad.emplace_back("black man on row 1", crowned_black);
  for (const int code : {3, 7, 12, 16, -1, 5 | 8}) {
    Board8x8 unknown = to_board(start);
    cell(unknown, 3, 3) = code;
    bad.emplace_back("code " + std::to_string(code), unknown);
  }
  for (const auto& [name, board] : bad) {
    INFO(name);
    const MoveAnswer answer = frontend.get_move(MoveRequest{board, kCbWhite, 0.05, 0, 0}, kNever);
    CHECK(answer.result == CbResult::Unknown);
    CHECK(answer.board == board);
    CHECK(!answer.move);
    CHECK(answer.text.rfind("bad board: ", 0) == 0);
  }
}

TEST_CASE("checkerboard: more than 12 pieces a side are refused") {
  Frontend frontend(quiet_options());
  Board8x8 board;
  for (int x = 0; x < 8; ++x)
    for (int y = 3; y < 8; ++y)
      if (is_dark({x, y})) cell(board, x, y) = kCbWhite | kCbMan;
  cell(board, 6, 0) = kCbBlack | kCbKing;
  const MoveAnswer answer = frontend.get_move(MoveRequest{board, kCbWhite, 0.05, 0, 0}, kNever);
  CHECK(answer.result == CbResult::Unknown);
  CHECK(answer.board == board);
  CHECK(answer.text.find("more than 12") != std::string::npos);
}

TEST_CASE("checkerboard: a board whose side not to move has no pieces is refused") {
  Frontend frontend(quiet_options());
  const Position over = fen("W:W21,22:B");
  const MoveAnswer answer = frontend.get_move(request_for(over), kNever);
  CHECK(answer.result == CbResult::Unknown);
  CHECK(!answer.move);
  CHECK(answer.text.find("Black has no pieces") != std::string::npos);
}

TEST_CASE("checkerboard: a colour other than 1 or 2 is refused") {
  Frontend frontend(quiet_options());
  for (const int color : {0, 3, -1, 4}) {
    const MoveAnswer answer =
        frontend.get_move(MoveRequest{to_board(Position::start()), color, 0.05, 0, 0}, kNever);
    CHECK(answer.result == CbResult::Unknown);
    CHECK(answer.text.find("color") != std::string::npos);
  }
}

TEST_CASE("checkerboard: a maxtime that is not a time is refused") {
  Frontend frontend(quiet_options());
  for (const double t : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    const MoveAnswer answer = frontend.get_move(request_for(Position::start(), t), kNever);
    CHECK(answer.result == CbResult::Unknown);
    CHECK(!answer.move);
  }
}

TEST_CASE("checkerboard: the side to move without a move gets CB_LOSS and no move") {
  Frontend frontend(quiet_options());
  const Position blocked = fen("W:W29:B25,22");  // a1 blocked by b2, b2's capture square c3 taken
  REQUIRE(!has_legal_move(blocked));
  const MoveAnswer answer = frontend.get_move(request_for(blocked), kNever);
  CHECK(answer.result == CbResult::Loss);
  CHECK(answer.board == to_board(blocked));
  CHECK(!answer.move);
}

TEST_CASE("checkerboard: getmove plays a legal move and writes the board after it") {
  Frontend frontend(quiet_options());
  for (const Variant v : kVariants) {
    REQUIRE(frontend.command(v == Variant::Russian ? "set gametype 25" : "set gametype 26").understood);
    const Position start = Position::start(v);
    const MoveAnswer answer = frontend.get_move(request_for(start), kNever);
    require_legal_answer(start, answer);
    CHECK(answer.result == CbResult::Unknown);
  }
}

TEST_CASE("checkerboard: the CBmove of a capture gives its landings and the pieces taken in order") {
  const Position p = fen("W:Wc3:Bd4,f6,a7");
  MoveList moves;
  generate_legal_moves(p, moves);
  REQUIRE(moves.size() == 1);
  const CbMove m = to_cb_move(p, moves[0]);
  CHECK(m.jumps == 2);
  CHECK(m.oldpiece == (kCbWhite | kCbMan));
  CHECK(m.newpiece == (kCbWhite | kCbMan));
  CHECK(m.from == Coor{5, 5});
  CHECK(m.to == Coor{1, 1});
  CHECK(m.path[0] == Coor{5, 5});
  CHECK(m.path[1] == Coor{3, 3});  // e5
  CHECK(m.path[2] == Coor{1, 1});  // g7
  CHECK(m.del[0] == Coor{4, 4});   // d4
  CHECK(m.del[1] == Coor{2, 2});   // f6
  CHECK(m.delpiece[0] == (kCbBlack | kCbMan));
  CHECK(m.delpiece[1] == (kCbBlack | kCbMan));
}

TEST_CASE("checkerboard: a man crowned by its move lands as a king") {
  const Position p = fen("W:Wc7:Ba5");
  MoveList moves;
  generate_legal_moves(p, moves);
  REQUIRE(moves.size() == 2);
  for (const Move& move : moves) {
    const CbMove m = to_cb_move(p, move);
    CHECK(m.oldpiece == (kCbWhite | kCbMan));
    CHECK(m.newpiece == (kCbWhite | kCbKing));
    CHECK(m.jumps == 0);
  }
}

TEST_CASE("checkerboard: islegal fills the one move between two squares") {
  const Frontend frontend(quiet_options());
  const Board8x8 start = to_board(Position::start());
  const Expected<CbMove> move = frontend.is_legal(start, kCbWhite, 22, 18);  // c3-d4
  REQUIRE(move);
  CHECK(move->from == Coor{5, 5});
  CHECK(move->to == Coor{4, 4});
  CHECK(move->jumps == 0);
  CHECK(!frontend.is_legal(start, kCbWhite, 22, 15));  // two rows
  CHECK(!frontend.is_legal(start, kCbBlack, 22, 18));  // not Black's man
  CHECK(!frontend.is_legal(start, kCbWhite, 0, 18));
  CHECK(!frontend.is_legal(start, kCbWhite, 22, 33));
}

TEST_CASE("checkerboard: islegal answers only when one legal move joins the two squares") {
  const Frontend frontend(quiet_options());
  const Position p = fen("W:WK29:B22,15,24,26", Variant::Russian);
  MoveList moves;
  generate_legal_moves(p, moves);
  for (const Move& a : moves) {
    int same = 0;
    for (const Move& b : moves) same += a.from == b.from && a.to == b.to ? 1 : 0;
    const Expected<CbMove> legal =
        frontend.is_legal(to_board(p), kCbWhite, square_number(a.from), square_number(a.to));
    CHECK(static_cast<bool>(legal) == (same == 1));
  }
}

TEST_CASE("checkerboard: name, about and help are answered") {
  Frontend frontend(quiet_options());
  for (const std::string_view c : {"name", "about", "help"}) {
    const CommandReply reply = frontend.command(c);
    CHECK(reply.understood);
    CHECK(reply.text.rfind("damas", 0) == (c == "help" ? std::string::npos : 0));
    CHECK(reply.text.size() < kTextBytes);
  }
}

TEST_CASE("checkerboard: gametype 25 is Russian, 26 Brazilian, 23 pool, 29 Czech, any other refused") {
  Frontend frontend(quiet_options());
  CHECK(frontend.command("get gametype").text == "26");
  CHECK(frontend.command("set gametype 25").understood);
  CHECK(frontend.variant() == Variant::Russian);
  CHECK(frontend.command("get gametype").text == "25");
  for (const std::string_view bad : {"set gametype 21", "set gametype 22", "set gametype x", "set gametype",
                                     "set gametype 24", "set gametype 28"}) {
    const CommandReply reply = frontend.command(bad);
    CHECK(!reply.understood);
    CHECK(!reply.text.empty());
  }
  CHECK(frontend.variant() == Variant::Russian);
  // The mirrored board's games are named in the refusal's list of what is played: not there.
  CHECK_THAT(frontend.command("set gametype 24").text,
             !Catch::Contains("spanish") && Catch::Contains("29 (czech)"));
  CHECK(frontend.command("set gametype 29").understood);
  CHECK(frontend.variant() == Variant::Czech);
  CHECK(frontend.command("get gametype").text == "29");
  CHECK(frontend.command("set gametype 23").understood);
  CHECK(frontend.variant() == Variant::Pool);
  CHECK(frontend.command("set gametype 26").understood);
  CHECK(frontend.variant() == Variant::Brazilian);
}

TEST_CASE("checkerboard: hashsize is the hash option in MiB") {
  Frontend frontend(quiet_options());
  CHECK(frontend.command("set hashsize 32").understood);
  CHECK(frontend.command("get hashsize").text == "32");
  CHECK(frontend.engine().options().get(option::kHash) == "32");
  CHECK(!frontend.command("set hashsize lots").understood);
  CHECK(frontend.command("get hashsize").text == "32");
}

TEST_CASE("checkerboard: book 0 turns the book off and 1 to 3 on") {
  Frontend frontend(quiet_options());
  CHECK(frontend.command("get book").text == "0");
  for (const std::string_view on : {"set book 1", "set book 2", "set book 3"}) {
    CHECK(frontend.command(on).understood);
    CHECK(frontend.engine().options().get_bool(option::kBook));
    CHECK(frontend.command("get book").text == "2");
  }
  CHECK(frontend.command("set book 0").understood);
  CHECK(!frontend.engine().options().get_bool(option::kBook));
  CHECK(!frontend.command("set book 4").understood);
  CHECK(!frontend.command("set book true").understood);
}

TEST_CASE("checkerboard: the protocol version is 2") {
  Frontend frontend(quiet_options());
  const CommandReply reply = frontend.command("get protocolversion");
  CHECK(reply.understood);
  CHECK(reply.text == "2");
}

TEST_CASE("checkerboard: engine options are set and read by name") {
  Frontend frontend(quiet_options());
  const CommandReply set = frontend.command("set level easy");
  CHECK(set.understood);
  CHECK(frontend.command("get level").text == "easy");
  CHECK(frontend.engine().options().get(option::kLevel) == "easy");
  const CommandReply bad = frontend.command("set level superhuman");
  CHECK(!bad.understood);
  CHECK(!bad.text.empty());
  CHECK(!frontend.command("set no-such-option 1").understood);
  CHECK(!frontend.command("get no-such-option").understood);
}

TEST_CASE("checkerboard: unknown and empty commands get a message and 0") {
  Frontend frontend(quiet_options());
  for (const std::string_view c : {"", "   ", "fly", "get", "set hash", "go now please"}) {
    const CommandReply reply = frontend.command(c);
    CHECK(!reply.understood);
    CHECK(!reply.text.empty());
  }
}

TEST_CASE("checkerboard: a game history ending in the board counts for repetitions") {
  Frontend frontend(quiet_options());
  const Position start = fen("W:WK29:BK5");
  const CommandReply reply = frontend.command("set gamehist W:WK29:BK5 a1-b2 a7-b8 b2-a1 b8-a7");
  CHECK(reply.understood);
  const MoveAnswer answer = frontend.get_move(request_for(start), kNever);
  require_legal_answer(start, answer);
  CHECK(frontend.engine().history().size() == 5);
  // Another board: the history is not used.
  const Position other = fen("W:WK28:BK5");
  require_legal_answer(other, frontend.get_move(request_for(other), kNever));
  CHECK(frontend.engine().history().size() == 1);
}

TEST_CASE("checkerboard: a game history cut only of its set is used") {
  Frontend frontend(quiet_options());
  const Position start = fen("W:WK29:BK5");
  CHECK(frontend.command("gamehist W:WK29:BK5 a1-b2 a7-b8 b2-a1 b8-a7").understood);
  require_legal_answer(start, frontend.get_move(request_for(start), kNever));
  CHECK(frontend.engine().history().size() == 5);
}

TEST_CASE("checkerboard: a bad game history is refused and forgotten") {
  Frontend frontend(quiet_options());
  CHECK(!frontend.command("set gamehist W:W99:B1 a1-b2").understood);
  CHECK(!frontend.command("set gamehist W:WK29:BK5 a1-b3 a7-b8").understood);
  CHECK(!frontend.command("set gamehist").understood);
}

TEST_CASE("checkerboard: a cut game history is answered, forgotten, and play goes on") {
  Frontend frontend(quiet_options());
  const Position start = fen("W:WK29:BK5");
  REQUIRE(frontend.command("set gamehist W:WK29:BK5 a1-b2 a7-b8 b2-a1 b8-a7").understood);
  const CommandReply reply = frontend.command("a7-b8 b2-a1 b8-a7 a1-b2 a7-b8 b2-a1 b8-a7");
  CHECK(!reply.understood);
  CHECK(reply.text.find("cut") != std::string::npos);
  require_legal_answer(start, frontend.get_move(request_for(start), kNever));
  CHECK(frontend.engine().history().size() == 1);
}

TEST_CASE("checkerboard: playnow set during a search ends it with a legal move") {
  Frontend frontend(quiet_options());
  std::atomic<bool> play_now{false};
  std::atomic<bool> searching{false};
  std::thread gui([&] {
    while (!searching.load()) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    play_now.store(true);
  });
  const Position start = Position::start();
  // An hour to think: only playnow can end this search before the test suite's timeout.
  const MoveAnswer answer = frontend.get_move(
      request_for(start, 3600), [&] { return play_now.load(); },
      [&](std::string_view) { searching.store(true); });
  searching.store(true);
  gui.join();
  require_legal_answer(start, answer);
  CHECK(answer.text.find("play now") != std::string::npos);
}

TEST_CASE("checkerboard: playnow set before the search still gives a legal move") {
  Frontend frontend(quiet_options());
  const Position start = Position::start(Variant::Russian);
  REQUIRE(frontend.command("set gametype 25").understood);
  require_legal_answer(start, frontend.get_move(request_for(start, 3600), [] { return true; }));
}

TEST_CASE("checkerboard: a won position returns CB_WIN and a lost one CB_LOSS") {
  Frontend frontend(quiet_options());
  const Position won = fen("W:Wc3,e3:Bd4");  // either capture takes the last piece
  const MoveAnswer win = frontend.get_move(request_for(won, 0.2), kNever);
  require_legal_answer(won, win);
  CHECK(win.result == CbResult::Win);
  const Position lost = fen("B:WKa3,Kh2:Bd6");  // c5 and e5 are both taken by a king
  const MoveAnswer loss = frontend.get_move(request_for(lost, 0.5), kNever);
  require_legal_answer(lost, loss);
  CHECK(loss.result == CbResult::Loss);
}

TEST_CASE("checkerboard: the clock bits cap maxtime at half the remaining time") {
  MoveRequest r;
  r.maxtime = 5;
  CHECK(*move_seconds(r) == 5);
  r.info = 1 << kInfoIncrementShift;  // milliseconds
  r.moreinfo = 1000 << 16;            // 1 s left
  CHECK(*move_seconds(r) == Approx(0.5));
  r.info = 1 << 4;  // pydraughts' millisecond bit: no clock by cb_interface.h, maxtime stands
  CHECK(*move_seconds(r) == 5);
  r.info = kInfoExactTime;
  r.maxtime = 0.3;
  CHECK(*move_seconds(r) == Approx(0.3));
}

TEST_CASE("checkerboard: random boards and commands are answered without a crash") {
  Frontend frontend(quiet_options());
  std::mt19937 random(48);
  const std::array<int, 8> codes = {0, 0, 0, 0, 5, 6, 9, 10};
  const std::array<int, 4> bad_codes = {3, 7, 16, -5};
  int played = 0;
  for (int i = 0; i < 200; ++i) {
    Board8x8 board;
    for (int x = 0; x < 8; ++x)
      for (int y = 0; y < 8; ++y)
        if (is_dark({x, y})) cell(board, x, y) = codes[random() % codes.size()];
    if (random() % 8 == 0) cell(board, 0, 1) = codes[random() % codes.size()];  // a light square
    if (random() % 8 == 0) cell(board, 3, 3) = bad_codes[random() % bad_codes.size()];
    const int color = 1 + static_cast<int>(random() % 2);
    const MoveAnswer answer = frontend.get_move(MoveRequest{board, color, 0.001, 0, 0}, kNever);
    CHECK(answer.text.size() < kTextBytes);
    const Expected<Position> p = to_position(board, color, Variant::Brazilian);
    if (answer.move) require_legal_answer(*p, answer);
    else CHECK(answer.board == board);
    played += answer.move ? 1 : 0;
  }
  CHECK(played > 0);
  for (int i = 0; i < 200; ++i) {
    std::string text;
    for (std::size_t n = random() % 40; n > 0; --n) text += static_cast<char>(random() % 256);
    const CommandReply reply = frontend.command(i % 2 ? "set " + text : text);
    CHECK(!reply.text.empty());
    CHECK(reply.text.size() < kTextBytes);
  }
}
