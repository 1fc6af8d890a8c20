// Strong scalar types and the rules of Brazilian draughts as one table of constants.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace damas {

// ---- The rules, in one place -------------------------------------------------------------
namespace rules {
inline constexpr int kBoardSquares = 32;      // dark squares of the 8x8 board
inline constexpr int kMenPerSide = 12;        // three rows of four at the start
inline constexpr int kMaxPiecesPerSide = 12;  // a side can never have more
inline constexpr bool kMenCaptureBackward = true;
inline constexpr bool kFlyingKings = true;
inline constexpr bool kMaximumCaptureRule = true;  // most pieces, kings count as one
inline constexpr bool kKingsTieBreak = false;      // no preference among equal lines
inline constexpr bool kCrownOnlyAtEnd = true;      // passing the far row mid-capture does not crown
inline constexpr int kNoProgressDrawPlies = 80;    // 40 moves each without capture or man move
inline constexpr int kRepetitionDrawCount = 3;     // threefold repetition
}  // namespace rules

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
