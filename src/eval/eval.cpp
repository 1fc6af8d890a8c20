#include "damas/eval/eval.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include "damas/core/text_lines.h"

namespace damas {
namespace {

using D = Direction;

// ---- Masks (squares in standard numbering; Black's masks are White's rotated 180 degrees) ----

constexpr Bitboard squares_of(std::initializer_list<int> numbers) {
  Bitboard m = 0;
  for (int n : numbers) m |= bb(square_from_number(n));
  return m;
}

// Row k (0 = the row of squares 1-4, 7 = squares 29-32).
constexpr Bitboard row_mask(int k) { return squares_mask(4 * k + 1, 4 * k + 4); }

// Rows whose index has bit `b` set: the advancement of a man is then three popcounts.
constexpr Bitboard rows_with_bit(int b) {
  Bitboard m = 0;
  for (int k = 0; k < 8; ++k)
    if (k & (1 << b)) m |= row_mask(k);
  return m;
}

constexpr Bitboard left_wing_mask() {  // columns a-d: the first two squares of every row
  Bitboard m = 0;
  for (int k = 0; k < 8; ++k) m |= squares_mask(4 * k + 1, 4 * k + 2);
  return m;
}

inline constexpr Bitboard kCentre = squares_of({14, 15, 18, 19});
inline constexpr Bitboard kLongDiagonal = squares_of({29, 25, 22, 18, 15, 11, 8, 4});
inline constexpr Bitboard kLeftWing = left_wing_mask();
inline constexpr Bitboard kRightWing = kBoard & ~kLeftWing;
inline constexpr std::array<Bitboard, 3> kRowBits = {rows_with_bit(0), rows_with_bit(1), rows_with_bit(2)};
inline constexpr Bitboard kWhiteBackRow = row_mask(7);
inline constexpr Bitboard kBlackBackRow = row_mask(0);

// ---- Colour-relative helpers -------------------------------------------------------------

template <Color C>
constexpr D kForwardLeft = C == Color::White ? D::UpLeft : D::DownRight;
template <Color C>
constexpr D kForwardRight = C == Color::White ? D::UpRight : D::DownLeft;
template <Color C>
constexpr D kBackLeft = C == Color::White ? D::DownLeft : D::UpRight;
template <Color C>
constexpr D kBackRight = C == Color::White ? D::DownRight : D::UpLeft;

template <D Dir>
constexpr Bitboard on_board_step(Bitboard b) {
  return step<Dir>(b) & kBoard;
}
// Squares whose neighbour in direction Dir is in b.
template <D Dir>
constexpr Bitboard neighbour_in(Bitboard b) {
  return on_board_step<opposite(Dir)>(b);
}

// Squares two columns to either side on the same row.
constexpr Bitboard same_row_neighbours(Bitboard b) {
  const Bitboard left = on_board_step<D::UpLeft>(on_board_step<D::DownLeft>(b)) |
                        on_board_step<D::DownLeft>(on_board_step<D::UpLeft>(b));
  const Bitboard right = on_board_step<D::UpRight>(on_board_step<D::DownRight>(b)) |
                         on_board_step<D::DownRight>(on_board_step<D::UpRight>(b));
  return left | right;
}

// Sum over men of rows advanced from their own back row.
template <Color C>
constexpr int advancement(Bitboard men) {
  const int rows_from_top =
      popcount(men & kRowBits[0]) + 2 * popcount(men & kRowBits[1]) + 4 * popcount(men & kRowBits[2]);
  if constexpr (C == Color::White) return 7 * popcount(men) - rows_from_top;
  else return rows_from_top;
}

// Squares where a man of colour C could be intercepted by the enemy men `enemy`: every square
// whose forward cone (widened by one column each side) holds an enemy man, plus the squares
// diagonally behind an enemy man (from where it captures us after we pass). Enemy men move
// towards us, so this is their own forward cone, filled row by row.
template <Color C>
constexpr Bitboard interception_zone(Bitboard enemy) {
  constexpr Color E = ~C;
  Bitboard zone = enemy | same_row_neighbours(enemy);
  for (int i = 0; i < 7; ++i)
    zone |= on_board_step<kForwardLeft<E>>(zone) | on_board_step<kForwardRight<E>>(zone);
  return zone | on_board_step<kBackLeft<E>>(enemy) | on_board_step<kBackRight<E>>(enemy);
}

// Runaway bonus for men of colour C that no enemy man can reach; the enemy has no king.
template <Color C>
int runaway_score(Bitboard men, Bitboard enemy_men, const EvalWeights& w) {
  const Bitboard free_men = men & ~interception_zone<C>(enemy_men);
  if (!free_men) return 0;
  int total = 0;
  for (int rows_to_go = 1; rows_to_go < 8; ++rows_to_go) {
    const int k = C == Color::White ? rows_to_go : 7 - rows_to_go;
    const int n = popcount(free_men & row_mask(k));
    if (n) total += n * std::max(0, w.runaway - w.runaway_per_row * (rows_to_go - 1));
  }
  return total;
}

// Forward steps of men and whether the opponent answers them with a capture.
struct ManSteps {
  int safe_steps = 0;
  Bitboard movable = 0;  // men with an empty forward square
  Bitboard safely_movable = 0;
};

// Destinations of steps in direction F that an adjacent enemy piece can capture at once.
// The step's origin becomes empty, so an enemy straight ahead always captures.
template <D F, D Side>
constexpr Bitboard answered_by_capture(Bitboard dest, Bitboard enemy, Bitboard empty) {
  constexpr D OtherSide = opposite(Side);
  return dest & (neighbour_in<F>(enemy) | (neighbour_in<Side>(enemy) & neighbour_in<OtherSide>(empty)) |
                 (neighbour_in<OtherSide>(enemy) & neighbour_in<Side>(empty)));
}

template <Color C>
ManSteps man_steps(Bitboard men, Bitboard enemy, Bitboard empty) {
  constexpr D FL = kForwardLeft<C>;
  constexpr D FR = kForwardRight<C>;
  const Bitboard to_left = step<FL>(men) & empty;
  const Bitboard to_right = step<FR>(men) & empty;
  // A step forward-left has forward-right / back-left as its sideways diagonal, and vice versa.
  const Bitboard safe_left = to_left & ~answered_by_capture<FL, FR>(to_left, enemy, empty);
  const Bitboard safe_right = to_right & ~answered_by_capture<FR, FL>(to_right, enemy, empty);
  ManSteps s;
  s.safe_steps = popcount(safe_left) + popcount(safe_right);
  s.movable = neighbour_in<FL>(to_left) | neighbour_in<FR>(to_right);
  s.safely_movable = neighbour_in<FL>(safe_left) | neighbour_in<FR>(safe_right);
  return s;
}

// Men with no empty forward square and an enemy piece on one of them.
template <Color C>
constexpr Bitboard blocked_by_enemy(Bitboard men, Bitboard movable, Bitboard enemy) {
  return men & ~movable & (neighbour_in<kForwardLeft<C>>(enemy) | neighbour_in<kForwardRight<C>>(enemy));
}

constexpr int interpolate(int opening, int endgame, int pieces) {
  return (opening * pieces + endgame * (2 * rules::kMenPerSide - pieces)) / (2 * rules::kMenPerSide);
}

// Positional terms of side C (material aside).
template <Color C>
int positional(const Position& p, const EvalWeights& w, int pieces, ManSteps& steps) {
  constexpr Color E = ~C;
  const Bitboard men = p.men(C);
  const Bitboard kings = p.kings(C);
  const Bitboard enemy = p.pieces(E);
  int s = 0;
  s += interpolate(w.advance_opening, w.advance_endgame, pieces) * advancement<C>(men);
  s += w.centre_man * popcount(men & kCentre) + w.centre_king * popcount(kings & kCentre);
  if (!p.kings(E)) s += w.back_row * popcount(men & (C == Color::White ? kWhiteBackRow : kBlackBackRow));
  s += w.king_long_diagonal * popcount(kings & kLongDiagonal);
  steps = man_steps<C>(men, enemy, p.empty());
  s += w.safe_mobility * steps.safe_steps;
  s -= w.trapped_man * popcount(steps.movable & ~steps.safely_movable);
  s -= w.blocked_man * popcount(blocked_by_enemy<C>(men, steps.movable, enemy));
  s -= w.wing_imbalance * std::abs(popcount(men & kLeftWing) - popcount(men & kRightWing));
  if (!p.kings(E)) s += runaway_score<C>(men, p.men(E), w);
  return s;
}

// Lone king against too little to win: true if the side with `lone` cannot lose.
bool lone_king_holds(const Position& p, Color lone) {
  const Bitboard ours = p.pieces(lone);
  if (popcount(ours) != 1 || !p.kings(lone)) return false;
  const int theirs = popcount(p.pieces(~lone));
  return theirs <= 2 || (theirs == 3 && (ours & kLongDiagonal));
}

Score white_view(const Position& p, const EvalWeights& w) {
  const int pieces = popcount(p.occupied());
  const int material = w.man * (popcount(p.men(Color::White)) - popcount(p.men(Color::Black))) +
                       w.king * (popcount(p.kings(Color::White)) - popcount(p.kings(Color::Black)));
  const int taken = 2 * rules::kMenPerSide - pieces;
  int score = material + material * w.simplify_percent * taken / (100 * 2 * rules::kMenPerSide);
  ManSteps white_steps;
  ManSteps black_steps;
  score += positional<Color::White>(p, w, pieces, white_steps);
  score -= positional<Color::Black>(p, w, pieces, black_steps);
  // Forced to give material: judged for the side to move only (the other side moves later).
  const Color us = p.side_to_move();
  const ManSteps& mine = us == Color::White ? white_steps : black_steps;
  if (p.men(us) && !p.kings(us) && mine.safe_steps == 0)
    score += us == Color::White ? -w.no_safe_move : w.no_safe_move;
  if (w.lone_king_divisor > 1 &&
      ((score > 0 && lone_king_holds(p, Color::Black)) || (score < 0 && lone_king_holds(p, Color::White))))
    score /= w.lone_king_divisor;
  return static_cast<Score>(score);
}

// ---- Weights by name ----------------------------------------------------------------------

struct NamedWeight {
  std::string_view name;
  Score EvalWeights::*field;
};

constexpr std::array kNamedWeights = {
    NamedWeight{"man", &EvalWeights::man},
    NamedWeight{"king", &EvalWeights::king},
    NamedWeight{"simplify_percent", &EvalWeights::simplify_percent},
    NamedWeight{"advance_opening", &EvalWeights::advance_opening},
    NamedWeight{"advance_endgame", &EvalWeights::advance_endgame},
    NamedWeight{"centre_man", &EvalWeights::centre_man},
    NamedWeight{"centre_king", &EvalWeights::centre_king},
    NamedWeight{"back_row", &EvalWeights::back_row},
    NamedWeight{"runaway", &EvalWeights::runaway},
    NamedWeight{"runaway_per_row", &EvalWeights::runaway_per_row},
    NamedWeight{"king_long_diagonal", &EvalWeights::king_long_diagonal},
    NamedWeight{"blocked_man", &EvalWeights::blocked_man},
    NamedWeight{"trapped_man", &EvalWeights::trapped_man},
    NamedWeight{"safe_mobility", &EvalWeights::safe_mobility},
    NamedWeight{"no_safe_move", &EvalWeights::no_safe_move},
    NamedWeight{"wing_imbalance", &EvalWeights::wing_imbalance},
    NamedWeight{"lone_king_divisor", &EvalWeights::lone_king_divisor},
};

// Weights are bounded so that no combination reaches a mate score.
inline constexpr long kMaxWeight = 1000;
inline constexpr Score kMaxEval = kScoreWinThreshold / 2;

}  // namespace

Score evaluate(const Position& p, const EvalWeights& w) {
  const Score white = white_view(p, w);
  const Score s = p.side_to_move() == Color::White ? white : static_cast<Score>(-white);
  return std::clamp(s, static_cast<Score>(-kMaxEval), kMaxEval);
}

Status set_weight(EvalWeights& w, std::string_view name, long value) {
  for (const NamedWeight& nw : kNamedWeights) {
    if (nw.name != name) continue;
    if (value < -kMaxWeight || value > kMaxWeight)
      return Error{"weight " + std::string(name) + " must be between " + std::to_string(-kMaxWeight) +
                   " and " + std::to_string(kMaxWeight)};
    if (name == "lone_king_divisor" && value < 1) return Error{"weight lone_king_divisor must be at least 1"};
    w.*nw.field = static_cast<Score>(value);
    return Ok{};
  }
  return Error{"unknown weight " + std::string(name)};
}

Expected<EvalWeights> parse_weights(std::string_view text, const std::string& source) {
  EvalWeights w;
  for (const DataLine& line : data_lines(text)) {
    const std::string where = line_location(source, line.number);
    std::istringstream fields{std::string(line.text)};
    std::string name;
    std::string value_text;
    std::string extra;
    fields >> name;
    if (!(fields >> value_text)) return Error{where + "missing value for " + name};
    if (fields >> extra) return Error{where + "unexpected \"" + extra + "\" after the value"};
    long value = 0;
    const auto [end, ec] = std::from_chars(value_text.data(), value_text.data() + value_text.size(), value);
    if (ec != std::errc{} || end != value_text.data() + value_text.size())
      return Error{where + "value of " + name + " must be an integer, not \"" + value_text + "\""};
    if (Status s = set_weight(w, name, value); !s) return Error{where + s.error()};
  }
  return w;
}

Expected<EvalWeights> load_weights(const std::string& path) {
  Expected<std::string> text = read_text_file(path, "weights file");
  if (!text) return Error{text.error()};
  return parse_weights(*text, path);
}

std::string weights_to_text(const EvalWeights& w) {
  std::string out = "# damas evaluation weights (1/100 man unless named otherwise)\n";
  for (const NamedWeight& nw : kNamedWeights)
    out += std::string(nw.name) + " " + std::to_string(w.*nw.field) + "\n";
  return out;
}

}  // namespace damas
