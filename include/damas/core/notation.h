// Text forms of positions and moves. Every parser returns an error value saying what is wrong
// and where; none throws or crashes on any input. Squares are written as the position's game
// numbers and names them (core/game_squares.h: the mirrored board of Spanish and Portuguese).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/game_squares.h"
#include "damas/core/move.h"
#include "damas/core/position.h"

namespace damas {

// The squares of a move as numbers in a numbering, the captured ones ascending (Hub and DXP moves).
struct MoveNumbers {
  int from = 0;
  int to = 0;
  std::vector<int> captured;
};
MoveNumbers move_numbers(const Move& m, Numbering n);
// The numbering named by the `numbering` option's values "standard" and "a1"; nullopt otherwise.
std::optional<Numbering> parse_numbering(std::string_view name);

// The value of 1 to max_digits decimal digits, or -1 for anything else (empty, a sign, a space):
// the numbers of FENs, PDN tags and move texts.
int parse_decimal(std::string_view text, std::size_t max_digits);

// ---- Positions ----
// PDN FEN, e.g. "W:W21-32:B1-12" or "B:W18,K5:BK29", or with algebraic squares as lidraughts
// and pydraughts write 8x8 FENs: "B:Wa1,c3,Kd4:Bb6". Ranges are accepted on input (numeric only).
// Rejected, naming the token: unknown side letter, bad square number or name, a light square,
// a square used twice, more than 12 pieces a side, a man on the row where it would already
// have been crowned. An empty side is valid. Squares are game v's, and so is the position.
Expected<Position> parse_fen(std::string_view text, Variant v = Variant::Brazilian);
// The draw count a lidraughts FEN carries in its counter field H (":H7:F40": 7 plies since the
// material of the draw law in force appeared; draw_rules.h), or 0 when it has none. parse_fen
// reads past the counters; this reads H alone.
int fen_draw_plies(std::string_view text);
enum class FenStyle { Numeric, Algebraic };
// Kings marked K, squares in the order of p's game's numbers, no ranges.
std::string to_fen(const Position& p, FenStyle style = FenStyle::Numeric);
inline constexpr std::string_view kStartFen = "W:W21-32:B1-12";

// Hub position string: side letter (W/B) then 32 of w b W B e, in the order of the game's square
// numbers (on the FMJD board the reading order from White's side, which is what pydraughts sends).
Expected<Position> parse_hub_position(std::string_view text, Variant v = Variant::Brazilian);
std::string to_hub_position(const Position& p);

// ---- Moves ----
// Hub/DXP numeric: "22-18", captures "from x to x c1 x c2..." with every captured square
// (ascending on output, any order on input). Parsed against the legal moves of p, in p's game's
// numbering (game_numbering). The first form numbers the squares as n says, whatever the game.
std::string to_hub_move(const Move& m, Numbering n = Numbering::Standard);
std::string to_hub_move(const Position& p, const Move& m, Numbering n = Numbering::Standard);
Expected<Move> parse_hub_move(const Position& p, std::string_view text, Numbering n = Numbering::Standard);

// Algebraic for people: "c3-d4"; captures "c3:e5", with the route's squares (as in PDN below)
// only where needed to tell two legal moves apart ("d8:b6:d4:f2"). p is the position before m.
std::string to_algebraic(const Position& p, const Move& m);
// PDN 3.0 move (the one form every PDN writer uses): "22-18"; a capture "from x to" ("23x16"),
// with its route only when another legal capture has the same from and to squares: then every
// square between, where the route turns the landing square, where it goes straight on the
// square just behind the piece taken ("27x18x9"). Standard numbering, or algebraic squares
// ("c3-d4", "e3xg5"). p is the position before m.
enum class PdnSquares { Numeric, Algebraic };
std::string to_pdn_move(const Position& p, const Move& m, PdnSquares squares = PdnSquares::Numeric);
// The landing squares of every route of capture m (in order, each ending at m.to), for boards that
// enter a capture square by square; empty for a quiet move. p is the position before m. Nearest
// landing squares are tried first, so the first route is the one PDN writes (to_pdn_move).
std::vector<std::vector<Square>> capture_routes(const Position& p, const Move& m);
// Accepts algebraic ("c3-d4", "c3:e5", "c3xe5", with or without intermediate squares) and
// resolves it against the legal moves; an ambiguous string is an error.
Expected<Move> parse_algebraic(const Position& p, std::string_view text);

// Accepts any of the above (standard numbering for numeric forms).
Expected<Move> parse_any_move(const Position& p, std::string_view text, Numbering n = Numbering::Standard);

// A list of moves separated by spaces, played from p with full legality checks. On error the
// message names the first bad move and its index; `played` (if given) receives the legal prefix.
Expected<std::vector<Move>> parse_move_list(const Position& p, std::string_view text,
                                            Numbering n = Numbering::Standard,
                                            std::vector<Move>* played = nullptr);

// A diagram for people (tools only; not used by protocols).
std::string to_diagram(const Position& p);

}  // namespace damas
