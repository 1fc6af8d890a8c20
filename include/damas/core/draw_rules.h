// Draw laws. Three sets: `seed` (threefold repetition; 80 plies without a capture or a man move:
// rules::kNoProgressDrawPlies in types.h), `portuguese` (the FPD's rules 3.2.1, below) and
// `fmjd64`, the FMJD-64 articles 7.2.3-7.2.8 as
// lidraughts applies them to Brazilian draughts (its Russian variant's drawing rules, which its
// Brazilian variant reuses). Facts taken from lidraughts' public variant code:
//   * one counter of plies since the last reset; the game is drawn when the law that fits the
//     position after a ply has a limit and the counter has reached it;
//   * which law fits, and whether the ply resets the counter, depends on the position after it;
//   * a second counter per colour: plies (of either side) after which a lone king stood alone on
//     the long diagonal a1-h8 against three pieces with a king (article 7.2.7); never reset.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/position.h"

namespace damas {

// DrawRules (types.h): a game's own set is its rules-table row's.
std::string_view to_string(DrawRules r);  // "seed", "fmjd64", "portuguese"
std::optional<DrawRules> parse_draw_rules(std::string_view text);
// The `draw-rules` option's values: the sets, and kGameDrawRules for the game's own (the default).
inline constexpr std::string_view kGameDrawRules = "game";
std::vector<std::string> draw_rules_names();  // "game" then each set
// A `draw-rules` value in game v: "game" is v's own set.
std::optional<DrawRules> parse_draw_rules(std::string_view text, Variant v);

// How a capture or a promotion affects the counter under a law.
enum class CaptureReset : std::uint8_t {
  Always,      // every capture resets
  IntoEnding,  // only the capture that brings the board from 4+ pieces to 3 or fewer
};
enum class PromotionReset : std::uint8_t {
  Always,     // every promotion resets
  FirstKing,  // only a promotion that gives the mover its first (only) king
};

struct DrawLaw {
  std::string_view article;
  std::string_view text;
  int limit_plies;  // drawn when the counter reaches this
  CaptureReset capture;
  PromotionReset promotion;
  bool man_move_resets;
};

// The FMJD-64 laws, most specific first. "Strong": the side with more than a lone king.
namespace fmjd64 {
enum Law : std::uint8_t {
  kTwoVsLoneKing,         // 7.2.8: one or two pieces with a king against a lone king: 5 moves
  kLongDiagonalWaiting,   // 7.2.7: three pieces with a king against a lone king alone on the
                          //        long diagonal, before it has made 5 moves there: 15 moves
  kLongDiagonal,          // 7.2.7: ... once it has: 5 moves
  kThreeKingsVsLoneKing,  // 7.2.4: three or more kings (no men) against a lone king: 15 moves
  kFourFivePieces,        // 7.2.6: kings on both sides, 4 or 5 pieces in all: 30 moves
  kSixSevenPieces,        // 7.2.6: kings on both sides, 6 or 7 pieces in all: 60 moves
  kOnlyKingsMoved,        // 7.2.5: kings on both sides, any other count: 15 moves of kings only
  kLawCount
};
inline constexpr std::array<DrawLaw, kLawCount> kLaws = {{
    {"7.2.8", "two pieces with a king against a lone king", 10, CaptureReset::IntoEnding,
     PromotionReset::FirstKing, false},
    {"7.2.7", "three pieces with a king against a lone king on the long diagonal", 30, CaptureReset::Always,
     PromotionReset::FirstKing, false},
    {"7.2.7", "5 moves of the lone king on the long diagonal", 10, CaptureReset::IntoEnding,
     PromotionReset::FirstKing, false},
    {"7.2.4", "three or more kings against a lone king", 30, CaptureReset::Always, PromotionReset::Always,
     false},
    {"7.2.6", "4- and 5-piece ending with kings on both sides", 60, CaptureReset::Always,
     PromotionReset::Always, false},
    {"7.2.6", "6- and 7-piece ending with kings on both sides", 120, CaptureReset::Always,
     PromotionReset::Always, false},
    {"7.2.5", "only kings moved, kings on both sides", 30, CaptureReset::Always, PromotionReset::Always,
     true},
}};
// 7.2.7 turns from waiting to active when the lone king's counter reaches this (5 moves each).
inline constexpr int kLongDiagonalPlies = 10;
// The long diagonal a1-h8 (standard numbers 29 25 22 18 15 11 8 4).
inline constexpr Bitboard kLongDiagonalSquares = bb(square_from_number(29)) | bb(square_from_number(25)) |
                                                 bb(square_from_number(22)) | bb(square_from_number(18)) |
                                                 bb(square_from_number(15)) | bb(square_from_number(11)) |
                                                 bb(square_from_number(8)) | bb(square_from_number(4));
}  // namespace fmjd64

// The Portuguese federation's laws (Regras do Jogo de Damas Classicas, 2013, rule 3.2.1; its
// wording as bench/games.md cites it). The rio is the long diagonal from square 1 to 32, on damas'
// squares fmjd64::kLongDiagonalSquares (the mirrored board reflects a1-h8 onto h1-a8).
namespace portuguese {
enum Law : std::uint8_t {
  kForcada,    // 3.2.1 b): three kings against a lone king, won within 12 moves of taking the rio
  kKingMoves,  // 3.2.1 a): 20 moves of each side with kings, no capture and no man moved
  kLawCount
};
inline constexpr std::array<DrawLaw, kLawCount> kLaws = {{
    {"3.2.1 b", "three kings against a lone king, 12 moves from taking the rio", 24, CaptureReset::Always,
     PromotionReset::Always, true},
    {"3.2.1 a", "20 moves of kings without a capture or a man moved", 40, CaptureReset::Always,
     PromotionReset::Always, true},
}};
}  // namespace portuguese

// The counters of a game position under the counted laws (fmjd64, portuguese).
struct DrawCounters {
  std::uint16_t plies = 0;                           // since the last reset
  std::array<std::uint8_t, 2> lone_king_diagonal{};  // fmjd64 7.2.7, by colour of the lone king
  std::uint8_t rio = 0;  // portuguese 3.2.1 b: 1 + plies since three kings took the rio (0: not yet)
  bool operator==(const DrawCounters&) const = default;
};

// The law that fits `p` (nullptr: none; the counter then resets every ply).
const DrawLaw* fmjd64_law(const Position& p, const DrawCounters& c);
// The counters after the ply before -> after.
DrawCounters fmjd64_advance(const DrawCounters& c, const Position& before, const Position& after);
// Drawn by a law at `p` with counters `c`.
inline bool fmjd64_drawn(const Position& p, const DrawCounters& c) {
  const DrawLaw* law = fmjd64_law(p, c);
  return law && c.plies >= law->limit_plies;
}
// Plies left before a law draws (a large number when no law fits).
int fmjd64_plies_left(const Position& p, const DrawCounters& c);
// The Portuguese laws: the one that fits p, the counters after a ply, whether p is drawn.
const DrawLaw* portuguese_law(const Position& p, const DrawCounters& c);
DrawCounters portuguese_advance(const DrawCounters& c, const Position& before, const Position& after);
bool portuguese_drawn(const Position& p, const DrawCounters& c);

// Any law set: `seed` counts the 80 plies without capture or man move (its counter is the
// position's own, so its DrawCounters stay zero), the counted sets their counters c.
bool counts_plies(DrawRules rules);  // the counters c mean something
const DrawLaw* law_in_force(const Position& p, DrawRules rules, const DrawCounters& c);
DrawCounters advance_counters(DrawRules rules, const DrawCounters& c, const Position& before,
                              const Position& after);
// The counters after the positions of a game (start first). `start_plies` is the count at the start
// when the start came with one: lidraughts' FEN counter H, the plies since the material of the law
// in force appeared; it is the FMJD-64 count (the other sets start at zero).
DrawCounters counters_of(DrawRules rules, const std::vector<Position>& positions, int start_plies = 0);
DrawCounters start_counters(DrawRules rules, int start_plies);
int plies_left_by_law(const Position& p, DrawRules rules, const DrawCounters& c);
// Drawn by the laws of `rules` at p (a side without a legal move has lost all the same).
bool drawn_by_law(const Position& p, DrawRules rules, const DrawCounters& c);
// Whether 7.2.7 (the lone king on the long diagonal, whose count never resets) may come into force
// within `plies` plies from p: then a count that fits now may still end the game early.
bool fmjd64_diagonal_law_possible(const Position& p, const DrawCounters& c, int plies);
// The same for any set: a law may cut a count short within `plies` plies (7.2.7, the forcada).
bool law_may_cut_short(const Position& p, DrawRules rules, const DrawCounters& c, int plies);

}  // namespace damas
