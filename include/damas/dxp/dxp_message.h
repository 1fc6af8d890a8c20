// DXP (DamExchange Protocol) messages for 8x8 Brazilian draughts: pure parsing and formatting.
// No I/O, no game logic. Texts here are whole messages WITHOUT the NUL terminator (see
// dxp_framing.h). Layouts follow protocol/dxp.md; parsers refuse anything else with a reason.
//
// Squares in MoveMessage are wire numbers (1..32) in whichever numbering the session uses;
// converting to and from a Move is done against a position with an explicit Numbering.
// The GAMEREQ position always lists the squares in standard order (1 = b8, reading order from
// White's side), whatever the move numbering: that is what pydraughts sends.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/notation.h"
#include "damas/core/position.h"
#include "damas/core/types.h"

namespace damas::dxp {

inline constexpr std::size_t kMaxMessageLength = 127;
inline constexpr std::size_t kNameWidth = 32;
inline constexpr int kProtocolVersion = 1;

// GAMEREQ 'R' (initiator -> follower).
struct GameRequest {
  int version = kProtocolVersion;
  std::string initiator_name;  // trailing padding removed
  Color follower_color = Color::White;
  int minutes = 0;                // thinking time per player, 0..999 (0 = not given)
  int moves = 0;                  // moves per time control, 0..999 (0 = whole game)
  std::optional<Position> start;  // nullopt = 'A' (normal start, White to move)
  bool operator==(const GameRequest&) const = default;
};

enum class AcceptCode { Accepted = 0, VersionUnsupported = 1, GameRefused = 2, NeverPlay = 3 };

// GAMEACC 'A' (follower -> initiator).
struct GameAccept {
  std::string follower_name;
  AcceptCode code = AcceptCode::Accepted;
  bool operator==(const GameAccept&) const = default;
};

// MOVE 'M' (both directions). Wire square numbers; captured in ascending order after parsing.
struct MoveMessage {
  int seconds = 0;  // 0..9999, informational
  int from = 0;
  int to = 0;
  std::vector<int> captured;
  bool operator==(const MoveMessage&) const = default;
};

// Reason of a GAMEEND, from the sender's point of view.
enum class EndReason { Unknown = 0, SenderLoses = 1, Draw = 2, SenderWins = 3 };

// GAMEEND 'E' (both directions).
struct GameEnd {
  EndReason reason = EndReason::Unknown;
  bool stop = false;  // stop code 1: no further games
  bool operator==(const GameEnd&) const = default;
};

// CHAT 'C' (both directions).
struct Chat {
  std::string text;
  bool operator==(const Chat&) const = default;
};

// BACKREQ 'B': go back to move `move_number` (1-based) with `side` to move.
struct BackRequest {
  int move_number = 1;  // 1..999
  Color side = Color::White;
  bool operator==(const BackRequest&) const = default;
};

enum class BackCode { Accepted = 0, NotSupported = 1, Refused = 2 };

// BACKACC 'K'.
struct BackAccept {
  BackCode code = BackCode::Accepted;
  bool operator==(const BackAccept&) const = default;
};

using Message = std::variant<GameRequest, GameAccept, MoveMessage, GameEnd, Chat, BackRequest, BackAccept>;

// Parses one message. A GAMEREQ with another protocol version is returned with only `version`
// filled in (the rest of its layout is unknown), so that a follower can answer code 1.
Expected<Message> parse_message(std::string_view text);

// Formats one message. Names are padded/cut to 32 characters, chat text cut to 126; characters
// outside 1..127 become '?', numbers are clamped to their field. The result always parses.
std::string format_message(const Message& m);

// The message type's name for logs ("GAMEREQ", "MOVE", ...).
std::string_view message_name(const Message& m);

// Move <-> MOVE message against the legal moves of p.
MoveMessage to_move_message(const Move& m, int seconds, Numbering n);
Expected<Move> to_move(const Position& p, const MoveMessage& mm, Numbering n);
// The move in Hub notation with the wire numbers, for error messages ("22x13x18").
std::string describe(const MoveMessage& mm);

// 32 position letters in standard square order (e w z W Z), preceded by the side letter (W/Z).
std::string to_dxp_position(const Position& p);
Expected<Position> parse_dxp_position(std::string_view text);

}  // namespace damas::dxp
