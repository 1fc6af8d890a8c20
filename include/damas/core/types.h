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
enum class Variant : std::uint8_t {
  Brazilian = 0,
  Russian = 1,
  Spanish = 2,
  Portuguese = 3,
  Pool = 4,
  Czech = 5
};
inline constexpr int kVariantCount = 6;
// Every variant once, for the lists derived from it (--variant, the Hub `variant` values).
inline constexpr Variant kVariants[kVariantCount] = {Variant::Brazilian,  Variant::Russian, Variant::Spanish,
                                                     Variant::Portuguese, Variant::Pool,    Variant::Czech};

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
    case Variant::Spanish:
      return f(VariantConstant<Variant::Spanish>{});
    case Variant::Portuguese:
      return f(VariantConstant<Variant::Portuguese>{});
    case Variant::Pool:
      return f(VariantConstant<Variant::Pool>{});
    case Variant::Czech:
      return f(VariantConstant<Variant::Czech>{});
    case Variant::Brazilian:
      break;
  }
  return f(VariantConstant<Variant::Brazilian>{});
}

// The draw laws a game is refereed and searched by (core/draw_rules.h): the seed laws of the board
// the project started from, the FMJD-64 articles, the Portuguese federation's laws.
enum class DrawRules : std::uint8_t { Seed, Fmjd64, Portuguese };

namespace rules {
// The board and the men, the same in every variant.
inline constexpr int kBoardSquares = 32;      // dark squares of the 8x8 board
inline constexpr int kMenPerSide = 12;        // three rows of four at the start
inline constexpr int kMaxPiecesPerSide = 12;  // a side can never have more

// Which captures a player may choose among: the precedence rule, checked in this order.
enum class CaptureChoice : std::uint8_t {
  Free,           // any capture (a sequence once begun is finished)
  Majority,       // the sequences taking the most pieces (a king counts as one)
  MajorityKings,  // those, then among them the ones taking the most kings
  KingsFirst,     // a king must capture when a king can; otherwise free choice
};

constexpr bool is_majority(CaptureChoice c) {
  return c == CaptureChoice::Majority || c == CaptureChoice::MajorityKings;
}

// What a variant decides: one row per variant, read by the capture walker (core/capture_walker.h),
// move generation (src/core/movegen.cpp), Position::after and the notation. Rules the games share
// are rows too, so a new game has to state them; the ones the code cannot vary are checked below.
struct Table {
  std::string_view name;       // as --variant and the Hub `variant` parameter write it
  std::string_view title;      // as a player names the game
  bool men_capture_backward;   // men capture backward as well as forward
  bool flying_kings;           // kings move and capture over any distance
  CaptureChoice choice;        // which of the captures on the board are legal
  bool king_lands_to_go_on;    // a king that can take again from a square beyond its victim lands there
  bool crown_mid_capture;      // a man reaching the far row during a capture goes on as a king
  bool mirrored_board;         // a light square in each player's near-left corner (notation, the board)
  DrawRules draw_rules;        // the laws its games follow unless told otherwise
  int no_progress_draw_plies;  // the seed draw law: plies without a capture or a man move
  int repetition_draw_count;   // the seed draw law: the same position this often
  int pdn_game_type;           // the PDN GameType tag's number (PDN 3.0 standard)
  // The GameType tag damas writes: the number, and where the number alone would name another
  // board or numbering (PDN 3.0: start colour, width, height, notation with the corner of square 1
  // seen by the first player, bottom-left corner not played), the full form of damas' moves.
  std::string_view pdn_game_type_tag;
};

// Brazilian draughts: the FMJD international rules on the 8x8 board (Confederacao Brasileira de Damas).
inline constexpr Table kBrazilian{
    .name = "brazilian",
    .title = "Brazilian draughts",
    .men_capture_backward = true,       // FMJD art. 4.1
    .flying_kings = true,               // FMJD art. 4.3: from a distance, landing on any free square beyond
    .choice = CaptureChoice::Majority,  // FMJD art. 4.13, the quantity rule; equal lines: free choice
    .king_lands_to_go_on = true,        // implied by the quantity rule (the longer line wins)
    .crown_mid_capture = false,         // FMJD: a man is crowned only if its move ends on the far row
    .mirrored_board = false,
    .draw_rules = DrawRules::Seed,  // the laws of the board the project started from
    .no_progress_draw_plies = 80,   // 40 moves each
    .repetition_draw_count = 3,
    .pdn_game_type = 26,
    .pdn_game_type_tag = "26",
};

// Russian draughts (shashki): the rules of the Russian draughts federation and FMJD-64, as
// lidraughts and pydraughts play them. Where not said, as Brazilian.
inline constexpr Table kRussian{
    .name = "russian",
    .title = "Russian draughts",
    .men_capture_backward = true,
    .flying_kings = true,
    .choice = CaptureChoice::Free,  // capture is compulsory, but any sequence may be chosen
    .king_lands_to_go_on = true,    // a sequence is finished: the king must land where it can take again
    .crown_mid_capture = true,      // crowned on reaching the far row, it captures on as a king
    .mirrored_board = false,
    .draw_rules = DrawRules::Fmjd64,  // the FMJD-64 articles its federation and lidraughts apply
    .no_progress_draw_plies = 80,
    .repetition_draw_count = 3,
    .pdn_game_type = 25,
    .pdn_game_type_tag = "25",
};

// Spanish dama (Federacion Espanola de Damas): men move and capture forward only, so a man that
// reaches the far row by a capture is crowned there and its move ends; the longest capture, then
// the one taking the most kings; played on the mirrored board.
inline constexpr Table kSpanish{
    .name = "spanish",
    .title = "Spanish dama",
    .men_capture_backward = false,
    .flying_kings = true,
    .choice = CaptureChoice::MajorityKings,
    .king_lands_to_go_on = true,  // implied by the quantity rule
    .crown_mid_capture = false,   // no man can capture on from the far row: forward only
    .mirrored_board = true,
    .draw_rules = DrawRules::Seed,
    .no_progress_draw_plies = 80,
    .repetition_draw_count = 3,
    .pdn_game_type = 24,
    .pdn_game_type_tag = "24,W,8,8,N1,1",
};

// Portuguese damas (damas classicas of the Federacao Portuguesa de Damas): the Spanish rules on the
// same board; the federation's own draw laws are core/draw_rules.h's `portuguese` set.
inline constexpr Table kPortuguese{
    .name = "portuguese",
    .title = "Portuguese damas",
    .men_capture_backward = false,
    .flying_kings = true,
    .choice = CaptureChoice::MajorityKings,
    .king_lands_to_go_on = true,
    .crown_mid_capture = false,
    .mirrored_board = true,
    .draw_rules = DrawRules::Portuguese,  // the FPD rules 3.2.1: its own two laws
    .no_progress_draw_plies = 80,
    .repetition_draw_count = 3,
    .pdn_game_type = 28,
    .pdn_game_type_tag = "28,W,8,8,N1,1",
};

// Pool checkers (American Pool Checkers Association): men capture both ways, free choice among
// captures, and a man passing the far row during a capture goes on as a man.
inline constexpr Table kPool{
    .name = "pool",
    .title = "Pool checkers",
    .men_capture_backward = true,
    .flying_kings = true,
    .choice = CaptureChoice::Free,
    .king_lands_to_go_on = true,  // a sequence is finished
    .crown_mid_capture = false,   // crowned only if the move ends on the far row
    .mirrored_board = false,
    .draw_rules = DrawRules::Seed,
    .no_progress_draw_plies = 80,
    .repetition_draw_count = 3,
    .pdn_game_type = 23,
    .pdn_game_type_tag = "23,W,8,8,N2,0",
};

// Czech draughts (Ceska federace damy): men capture forward only; a king must capture when a king
// can, otherwise any capture may be chosen.
inline constexpr Table kCzech{
    .name = "czech",
    .title = "Czech draughts",
    .men_capture_backward = false,
    .flying_kings = true,
    .choice = CaptureChoice::KingsFirst,
    .king_lands_to_go_on = true,  // a sequence is finished
    .crown_mid_capture = false,   // no man can capture on from the far row: forward only
    .mirrored_board = false,
    .draw_rules = DrawRules::Seed,
    .no_progress_draw_plies = 80,
    .repetition_draw_count = 3,
    .pdn_game_type = 29,
    .pdn_game_type_tag = "29,W,8,8,N2,0",
};

constexpr const Table& of(Variant v) {
  switch (v) {
    case Variant::Russian:
      return kRussian;
    case Variant::Spanish:
      return kSpanish;
    case Variant::Portuguese:
      return kPortuguese;
    case Variant::Pool:
      return kPool;
    case Variant::Czech:
      return kCzech;
    case Variant::Brazilian:
      break;
  }
  return kBrazilian;
}

// Every game captures with the Turkish strike (pieces removed when the capture ends, none jumped
// twice) and has flying kings that finish a sequence once begun: the walker knows no other way,
// so a row that differs here needs new code.
constexpr bool every_row(bool (*test)(const Table&)) {
  for (int v = 0; v < kVariantCount; ++v)
    if (!test(of(static_cast<Variant>(v)))) return false;
  return true;
}
static_assert(every_row([](const Table& t) { return t.flying_kings && t.king_lands_to_go_on; }));
// A man that captures forward only cannot capture on from the far row: nothing to crown mid-capture.
static_assert(every_row([](const Table& t) { return t.men_capture_backward || !t.crown_mid_capture; }));
// The seed draw laws are one set for every game (core/draw_rules.h), read from these constants.
static_assert(every_row([](const Table& t) {
  return t.no_progress_draw_plies == kBrazilian.no_progress_draw_plies &&
         t.repetition_draw_count == kBrazilian.repetition_draw_count;
}));
// The GameType tag begins with the game's number.
static_assert(every_row([](const Table& t) {
  const std::string_view tag = t.pdn_game_type_tag;
  return tag.size() >= 2 && (tag[0] - '0') * 10 + (tag[1] - '0') == t.pdn_game_type &&
         (tag.size() == 2 || tag[2] == ',');
}));
inline constexpr int kNoProgressDrawPlies = kBrazilian.no_progress_draw_plies;
inline constexpr int kRepetitionDrawCount = kBrazilian.repetition_draw_count;
}  // namespace rules

constexpr std::string_view to_string(Variant v) { return rules::of(v).name; }
constexpr std::optional<Variant> parse_variant(std::string_view text) {
  for (const Variant v : kVariants)
    if (text == to_string(v)) return v;
  return std::nullopt;
}
static_assert(parse_variant("russian") == Variant::Russian && parse_variant("pool") == Variant::Pool &&
              !parse_variant("italian"));
// Each enumerator is its own row, in kVariants' order.
static_assert([] {
  for (int i = 0; i < kVariantCount; ++i)
    if (static_cast<int>(kVariants[i]) != i || parse_variant(to_string(kVariants[i])) != kVariants[i])
      return false;
  return true;
}());
// The variant of a PDN GameType number; nullopt for the games damas does not play.
constexpr std::optional<Variant> variant_of_game_type(int game_type) {
  for (const Variant v : kVariants)
    if (rules::of(v).pdn_game_type == game_type) return v;
  return std::nullopt;
}
static_assert(variant_of_game_type(25) == Variant::Russian &&
              variant_of_game_type(26) == Variant::Brazilian &&
              variant_of_game_type(24) == Variant::Spanish &&
              variant_of_game_type(28) == Variant::Portuguese && variant_of_game_type(23) == Variant::Pool &&
              variant_of_game_type(29) == Variant::Czech && !variant_of_game_type(20));

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
