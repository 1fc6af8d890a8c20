// Strong scalar types and the rules of each variant as one table of constants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

namespace damas {

// ---- The rules, in one place -------------------------------------------------------------
// The games damas plays. Brazilian is the default everywhere; the variant travels with the
// position (Position::variant), so every rule below is read from the position's row.
enum class Variant : std::uint8_t { Brazilian = 0, Russian = 1 };
inline constexpr int kVariantCount = 2;
// Every variant once, for the lists derived from it (--variant, the Hub `variant` values).
inline constexpr Variant kVariants[kVariantCount] = {Variant::Brazilian, Variant::Russian};

// A variant as a compile-time constant, for the code that makes its rules template arguments.
template <Variant V>
using VariantConstant = std::integral_constant<Variant, V>;
// Calls f(VariantConstant<v>{}): the one place a variant read at run time becomes a template
// argument (a variant missing from the switch is a -Wswitch warning).
template <typename F>
constexpr decltype(auto) visit_variant(Variant v, F&& f) {
  switch (v) {
    case Variant::Russian:
      return f(VariantConstant<Variant::Russian>{});
    case Variant::Brazilian:
      break;
  }
  return f(VariantConstant<Variant::Brazilian>{});
}

namespace rules {
// The board and the men, the same in every variant.
inline constexpr int kBoardSquares = 32;      // dark squares of the 8x8 board
inline constexpr int kMenPerSide = 12;        // three rows of four at the start
inline constexpr int kMaxPiecesPerSide = 12;  // a side can never have more

// What a variant decides: one row per variant, read by the capture walker (core/capture_walker.h),
// move generation (src/core/movegen.cpp) and Position::after. Rules both games share are rows too,
// so a third variant has to state them; the ones the code cannot vary are checked below.
struct Table {
  std::string_view name;       // as --variant and the Hub `variant` parameter write it
  bool men_capture_backward;   // men capture backward as well as forward
  bool flying_kings;           // kings move and capture over any distance
  bool majority_capture;       // only the sequences taking the most pieces are legal
  bool kings_tie_break;        // among those, the ones taking the most kings
  bool king_lands_to_go_on;    // a king that can take again from a square beyond its victim lands there
  bool crown_mid_capture;      // a man reaching the far row during a capture goes on as a king
  int no_progress_draw_plies;  // the seed draw law: plies without a capture or a man move
  int repetition_draw_count;   // the seed draw law: the same position this often
  int pdn_game_type;           // the PDN GameType tag's number (PDN 3.0 standard)
};

// Brazilian draughts: the FMJD international rules on the 8x8 board (Confederacao Brasileira de Damas).
inline constexpr Table kBrazilian{
    .name = "brazilian",
    .men_capture_backward = true,  // FMJD art. 4.1
    .flying_kings = true,          // FMJD art. 4.3: from a distance, landing on any free square beyond
    .majority_capture = true,      // FMJD art. 4.13, the quantity rule: a king counts as one piece
    .kings_tie_break = false,      // equal lines: the player chooses freely
    .king_lands_to_go_on = true,   // implied by the quantity rule (the longer line wins)
    .crown_mid_capture = false,    // FMJD: a man is crowned only if its move ends on the far row
    .no_progress_draw_plies = 80,  // 40 moves each
    .repetition_draw_count = 3,
    .pdn_game_type = 26,
};

// Russian draughts (shashki): the rules of the Russian draughts federation and FMJD-64, as
// lidraughts and pydraughts play them. Where not said, as Brazilian.
inline constexpr Table kRussian{
    .name = "russian",
    .men_capture_backward = true,
    .flying_kings = true,
    .majority_capture = false,  // capture is compulsory, but any sequence may be chosen
    .kings_tie_break = false,
    .king_lands_to_go_on = true,  // a sequence is finished: the king must land where it can take again
    .crown_mid_capture = true,    // crowned on reaching the far row, it captures on as a king
    .no_progress_draw_plies = 80,
    .repetition_draw_count = 3,
    .pdn_game_type = 25,
};

constexpr const Table& of(Variant v) { return v == Variant::Russian ? kRussian : kBrazilian; }

// Both games capture with the Turkish strike (pieces removed when the capture ends, none jumped
// twice), by men that capture both ways and flying kings, and the walker knows
// no other way: a row that differs here needs new code.
static_assert(kBrazilian.men_capture_backward && kRussian.men_capture_backward);
static_assert(kBrazilian.flying_kings && kRussian.flying_kings);
static_assert(!kBrazilian.kings_tie_break && !kRussian.kings_tie_break);
static_assert(kBrazilian.king_lands_to_go_on && kRussian.king_lands_to_go_on);
// The draw laws are one set for both games (core/draw_rules.h), read from these constants.
static_assert(kBrazilian.no_progress_draw_plies == kRussian.no_progress_draw_plies);
static_assert(kBrazilian.repetition_draw_count == kRussian.repetition_draw_count);
inline constexpr int kNoProgressDrawPlies = kBrazilian.no_progress_draw_plies;
inline constexpr int kRepetitionDrawCount = kBrazilian.repetition_draw_count;
}  // namespace rules

constexpr std::string_view to_string(Variant v) { return rules::of(v).name; }
constexpr std::optional<Variant> parse_variant(std::string_view text) {
  for (const Variant v : kVariants)
    if (text == to_string(v)) return v;
  return std::nullopt;
}
static_assert(parse_variant("russian") == Variant::Russian && !parse_variant("pool"));
// The variant of a PDN GameType number; nullopt for the games damas does not play.
constexpr std::optional<Variant> variant_of_game_type(int game_type) {
  for (const Variant v : kVariants)
    if (rules::of(v).pdn_game_type == game_type) return v;
  return std::nullopt;
}
static_assert(variant_of_game_type(25) == Variant::Russian && variant_of_game_type(26) == Variant::Brazilian);

enum class Color : std::uint8_t { White = 0, Black = 1 };
constexpr Color operator~(Color c) { return c == Color::White ? Color::Black : Color::White; }
constexpr std::size_t index(Color c) { return static_cast<std::size_t>(c); }

// Search depth in plies.
struct Depth {
  int value = 0;
  constexpr auto operator<=>(const Depth&) const = default;
};

// Evaluation score in 1/100 man, from the side to move's point of view.
// Wins are kWin - plies to the win, losses the negation.
using Score = std::int32_t;
inline constexpr Score kScoreZero = 0;
inline constexpr Score kScoreDraw = 0;
inline constexpr Score kScoreWin = 10000;
inline constexpr Score kScoreInfinite = 10001;
inline constexpr Score kScoreWinThreshold = kScoreWin - 1000;  // any |score| above is a mate score
inline constexpr Score kMan = 100;

constexpr bool is_win_score(Score s) { return s > kScoreWinThreshold; }
constexpr bool is_loss_score(Score s) { return s < -kScoreWinThreshold; }
constexpr Score win_in(int plies) { return kScoreWin - plies; }
constexpr Score loss_in(int plies) { return -kScoreWin + plies; }

}  // namespace damas
