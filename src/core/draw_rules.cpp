#include "damas/core/draw_rules.h"

#include <algorithm>

namespace damas {
namespace {

// Pieces of each side and where the board stands for the laws.
struct Census {
  int pieces[2];
  int kings[2];
  int total;
};

Census census(const Position& p) {
  Census c{};
  for (Color col : {Color::White, Color::Black}) {
    c.pieces[index(col)] = popcount(p.pieces(col));
    c.kings[index(col)] = popcount(p.kings(col));
  }
  c.total = c.pieces[0] + c.pieces[1];
  return c;
}

// The colour of a lone king facing at least one enemy king, if any (White looked at first).
std::optional<Color> lone_king(const Census& c) {
  for (Color col : {Color::White, Color::Black}) {
    const std::size_t w = index(col);
    const std::size_t s = index(~col);
    if (c.pieces[w] == 1 && c.kings[w] == 1 && c.kings[s] >= 1) return col;
  }
  return std::nullopt;
}

// 7.2.7's configuration: three pieces with a king against the lone king, which is the only piece
// on the long diagonal.
bool lone_king_holds_diagonal(const Position& p, const Census& c, Color weak) {
  return c.pieces[index(~weak)] == 3 && (p.pieces(weak) & fmjd64::kLongDiagonalSquares) &&
         popcount(p.occupied() & fmjd64::kLongDiagonalSquares) == 1;
}

// Three kings and no man against a lone king (3.2.1 b): the colour of the three, if so.
std::optional<Color> forcada_side(const Census& c) {
  for (Color strong : {Color::White, Color::Black}) {
    const std::size_t s = index(strong);
    const std::size_t w = index(~strong);
    if (c.pieces[s] == 3 && c.kings[s] == 3 && c.pieces[w] == 1 && c.kings[w] == 1) return strong;
  }
  return std::nullopt;
}

constexpr DrawRules kAllDrawRules[] = {DrawRules::Seed, DrawRules::Fmjd64, DrawRules::Portuguese};

}  // namespace

std::string_view to_string(DrawRules r) {
  switch (r) {
    case DrawRules::Fmjd64:
      return "fmjd64";
    case DrawRules::Portuguese:
      return "portuguese";
    case DrawRules::Seed:
      break;
  }
  return "seed";
}

std::optional<DrawRules> parse_draw_rules(std::string_view text) {
  for (const DrawRules r : kAllDrawRules)
    if (text == to_string(r)) return r;
  return std::nullopt;
}

std::vector<std::string> draw_rules_names() {
  std::vector<std::string> names{std::string(kGameDrawRules)};
  for (const DrawRules r : kAllDrawRules) names.emplace_back(to_string(r));
  return names;
}

std::optional<DrawRules> parse_draw_rules(std::string_view text, Variant v) {
  if (text == kGameDrawRules) return rules::of(v).draw_rules;
  return parse_draw_rules(text);
}

const DrawLaw* fmjd64_law(const Position& p, const DrawCounters& counters) {
  using namespace fmjd64;
  const Census c = census(p);
  if (const std::optional<Color> weak = lone_king(c)) {
    const int strong = c.pieces[index(~*weak)];
    const int strong_kings = c.kings[index(~*weak)];
    if (strong <= 2) return &kLaws[kTwoVsLoneKing];
    if (lone_king_holds_diagonal(p, c, *weak))
      return counters.lone_king_diagonal[index(*weak)] >= kLongDiagonalPlies ? &kLaws[kLongDiagonal]
                                                                             : &kLaws[kLongDiagonalWaiting];
    if (strong_kings == strong) return &kLaws[kThreeKingsVsLoneKing];
    // Otherwise the general laws for kings on both sides below.
  }
  if (c.kings[0] == 0 || c.kings[1] == 0) return nullptr;
  if (c.total == 6 || c.total == 7) return &kLaws[kSixSevenPieces];
  if (c.total == 4 || c.total == 5) return &kLaws[kFourFivePieces];
  return &kLaws[kOnlyKingsMoved];
}

DrawCounters fmjd64_advance(const DrawCounters& counters, const Position& before, const Position& after) {
  const Color mover = before.side_to_move();
  const Census c = census(after);
  const bool capture = popcount(after.pieces(~mover)) < popcount(before.pieces(~mover));
  const bool man_moved = after.men(mover) != before.men(mover);
  // A man that ends on the far row is crowned: the mover has more kings than before.
  const bool promotion = popcount(after.kings(mover)) > popcount(before.kings(mover));
  const bool first_king = promotion && c.kings[index(mover)] == 1;

  // The law is judged on the position after the ply, with the 7.2.7 counter before it.
  const DrawLaw* law = fmjd64_law(after, counters);
  bool reset = law == nullptr;
  if (law) {
    if (capture) {
      reset = law->capture == CaptureReset::Always || (popcount(before.occupied()) > 3 && c.total <= 3);
    }
    if (promotion) reset = reset || law->promotion == PromotionReset::Always || first_king;
    if (man_moved && law->man_move_resets) reset = true;
  }
  DrawCounters next = counters;
  next.plies = reset ? 0 : static_cast<std::uint16_t>(counters.plies + (counters.plies < 0xFFFF ? 1 : 0));
  if (const std::optional<Color> weak = lone_king(c); weak && lone_king_holds_diagonal(after, c, *weak)) {
    std::uint8_t& n = next.lone_king_diagonal[index(*weak)];
    if (n < 0xFF) ++n;
  }
  return next;
}

namespace {

// The forcada's plies left, or nothing when its count has not started.
std::optional<int> forcada_plies_left(const Position& p, const DrawCounters& c) {
  if (c.rio == 0 || !forcada_side(census(p))) return std::nullopt;
  return portuguese::kLaws[portuguese::kForcada].limit_plies - (c.rio - 1);
}

int king_moves_plies_left(const DrawCounters& c) {
  return portuguese::kLaws[portuguese::kKingMoves].limit_plies - c.plies;
}

}  // namespace

// Of the two laws, the one that ends the game first.
const DrawLaw* portuguese_law(const Position& p, const DrawCounters& c) {
  const std::optional<int> forcada = forcada_plies_left(p, c);
  if (forcada && *forcada <= king_moves_plies_left(c)) return &portuguese::kLaws[portuguese::kForcada];
  return &portuguese::kLaws[portuguese::kKingMoves];
}

DrawCounters portuguese_advance(const DrawCounters& c, const Position& before, const Position& after) {
  const Color mover = before.side_to_move();
  const bool capture = popcount(after.pieces(~mover)) < popcount(before.pieces(~mover));
  const bool man_moved = after.men(mover) != before.men(mover);
  DrawCounters next = c;
  next.plies = capture || man_moved ? 0 : static_cast<std::uint16_t>(c.plies + (c.plies < 0xFFFF ? 1 : 0));
  // 3.2.1 b counts from the ply the three kings stand on the rio, and while the ending lasts.
  const std::optional<Color> strong = forcada_side(census(after));
  if (!strong) next.rio = 0;
  else if (c.rio > 0) next.rio = static_cast<std::uint8_t>(c.rio + (c.rio < 0xFF ? 1 : 0));
  else if (after.kings(*strong) & fmjd64::kLongDiagonalSquares) next.rio = 1;
  return next;
}

bool portuguese_drawn(const Position& p, const DrawCounters& c) {
  const std::optional<int> forcada = forcada_plies_left(p, c);
  return king_moves_plies_left(c) <= 0 || (forcada && *forcada <= 0);
}

bool counts_plies(DrawRules rules) { return rules != DrawRules::Seed; }

const DrawLaw* law_in_force(const Position& p, DrawRules rules, const DrawCounters& c) {
  switch (rules) {
    case DrawRules::Fmjd64:
      return fmjd64_law(p, c);
    case DrawRules::Portuguese:
      return portuguese_law(p, c);
    case DrawRules::Seed:
      break;
  }
  return nullptr;
}

DrawCounters advance_counters(DrawRules rules, const DrawCounters& c, const Position& before,
                              const Position& after) {
  switch (rules) {
    case DrawRules::Fmjd64:
      return fmjd64_advance(c, before, after);
    case DrawRules::Portuguese:
      return portuguese_advance(c, before, after);
    case DrawRules::Seed:
      break;
  }
  return c;
}

DrawCounters start_counters(DrawRules rules, int start_plies) {
  DrawCounters c;
  if (rules == DrawRules::Fmjd64) c.plies = static_cast<std::uint16_t>(std::clamp(start_plies, 0, 0xFFFF));
  return c;
}

DrawCounters counters_of(DrawRules rules, const std::vector<Position>& positions, int start_plies) {
  DrawCounters c = start_counters(rules, start_plies);
  for (std::size_t i = 1; i < positions.size(); ++i)
    c = advance_counters(rules, c, positions[i - 1], positions[i]);
  return c;
}

int fmjd64_plies_left(const Position& p, const DrawCounters& c) {
  const DrawLaw* law = fmjd64_law(p, c);
  return law ? law->limit_plies - c.plies : 1 << 20;
}

int plies_left_by_law(const Position& p, DrawRules rules, const DrawCounters& c) {
  switch (rules) {
    case DrawRules::Fmjd64:
      return fmjd64_plies_left(p, c);
    case DrawRules::Portuguese:
      return std::min(king_moves_plies_left(c), forcada_plies_left(p, c).value_or(1 << 20));
    case DrawRules::Seed:
      break;
  }
  return rules::kNoProgressDrawPlies - p.reversible_plies();
}

bool drawn_by_law(const Position& p, DrawRules rules, const DrawCounters& c) {
  switch (rules) {
    case DrawRules::Fmjd64:
      return fmjd64_drawn(p, c);
    case DrawRules::Portuguese:
      return portuguese_drawn(p, c);
    case DrawRules::Seed:
      break;
  }
  return p.reversible_plies() >= rules::kNoProgressDrawPlies;
}

bool fmjd64_diagonal_law_possible(const Position& p, const DrawCounters& c, int plies) {
  // Three pieces against one or two (one may still be taken, a man crowned).
  for (Color weak : {Color::White, Color::Black})
    if (popcount(p.pieces(weak)) <= 2 && popcount(p.pieces(~weak)) == 3 &&
        c.lone_king_diagonal[index(weak)] + plies >= fmjd64::kLongDiagonalPlies)
      return true;
  return false;
}

bool law_may_cut_short(const Position& p, DrawRules rules, const DrawCounters& c, int plies) {
  if (rules == DrawRules::Fmjd64) return fmjd64_diagonal_law_possible(p, c, plies);
  if (rules != DrawRules::Portuguese) return false;
  // Three kings against one may come of any ending of at most four pieces against one or two.
  for (Color weak : {Color::White, Color::Black})
    if (popcount(p.pieces(weak)) <= 2 && popcount(p.pieces(~weak)) <= 4) return true;
  return false;
}

}  // namespace damas
