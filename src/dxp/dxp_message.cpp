#include "damas/dxp/dxp_message.h"

#include <algorithm>

#include "damas/core/input_echo.h"
#include "damas/core/movegen.h"

namespace damas::dxp {
namespace {

// Fixed-width decimal field at [pos, pos + width); -1 unless every character is a digit.
int read_number(std::string_view text, std::size_t pos, std::size_t width) {
  if (pos + width > text.size()) return -1;
  int v = 0;
  for (std::size_t i = pos; i < pos + width; ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string write_number(int value, int width) {
  int max = 1;
  for (int i = 0; i < width; ++i) max *= 10;
  value = std::clamp(value, 0, max - 1);
  std::string s(static_cast<std::size_t>(width), '0');
  for (int i = width - 1; i >= 0; --i) {
    s[static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return s;
}

// Only ASCII 1..127 may travel in a message.
std::string sanitize(std::string_view text, std::size_t max_length) {
  std::string s(text.substr(0, max_length));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 1 || static_cast<unsigned char>(c) > 127) c = '?';
  return s;
}

std::string pad_name(std::string_view name) {
  std::string s = sanitize(name, kNameWidth);
  s.resize(kNameWidth, ' ');
  return s;
}

std::string trim_name(std::string_view field) {
  while (!field.empty() && field.back() == ' ') field.remove_suffix(1);
  return std::string(field);
}

std::optional<Color> read_color(char c) {
  if (c == 'W') return Color::White;
  if (c == 'Z') return Color::Black;
  return std::nullopt;
}

char color_letter(Color c) { return c == Color::White ? 'W' : 'Z'; }

Error bad(std::string_view what, std::string_view text) {
  return Error{std::string(what) + " in \"" + echo_input(text) + "\""};
}

Error wrong_length(std::string_view type, std::size_t expected, std::string_view text) {
  return bad(std::string(type) + ": expected " + std::to_string(expected) + " characters, got " +
                 std::to_string(text.size()),
             text);
}

// ---- one parser per message type; `text` starts with its header letter ----

constexpr std::size_t kReqNormalLength = 43;                           // ... 'A'
constexpr std::size_t kReqPositionLength = 44 + rules::kBoardSquares;  // ... 'B' + side + 32

Expected<Message> parse_game_request(std::string_view text) {
  const int version = read_number(text, 1, 2);
  if (version < 0) return bad("GAMEREQ: bad protocol version", text);
  if (version != kProtocolVersion) {
    GameRequest r;
    r.version = version;
    return Message{r};
  }
  if (text.size() < kReqNormalLength) return bad("GAMEREQ: message too short", text);
  GameRequest r;
  r.initiator_name = trim_name(text.substr(3, kNameWidth));
  const std::optional<Color> color = read_color(text[35]);
  if (!color) return bad("GAMEREQ: follower colour must be W or Z", text);
  r.follower_color = *color;
  r.minutes = read_number(text, 36, 3);
  if (r.minutes < 0) return bad("GAMEREQ: bad thinking time", text);
  r.moves = read_number(text, 39, 3);
  if (r.moves < 0) return bad("GAMEREQ: bad number of moves", text);
  const char flag = text[42];
  if (flag == 'A') {
    if (text.size() != kReqNormalLength) return wrong_length("GAMEREQ with A", kReqNormalLength, text);
    return Message{r};
  }
  if (flag != 'B') return bad("GAMEREQ: start-position flag must be A or B", text);
  if (text.size() == 44 + 50)
    return bad("GAMEREQ: 10x10 position (50 squares) is not Brazilian draughts", text);
  if (text.size() != kReqPositionLength) return wrong_length("GAMEREQ with B", kReqPositionLength, text);
  Expected<Position> p = parse_dxp_position(text.substr(43));
  if (!p) return Error{"GAMEREQ: " + p.error()};
  r.start = *p;
  return Message{r};
}

Expected<Message> parse_game_accept(std::string_view text) {
  constexpr std::size_t kLength = 2 + kNameWidth;
  if (text.size() != kLength) return wrong_length("GAMEACC", kLength, text);
  const int code = read_number(text, 1 + kNameWidth, 1);
  if (code < 0 || code > 3) return bad("GAMEACC: acceptance code must be 0..3", text);
  return Message{GameAccept{trim_name(text.substr(1, kNameWidth)), static_cast<AcceptCode>(code)}};
}

Expected<Message> parse_move(std::string_view text) {
  if (text.size() < 11) return bad("MOVE: message too short", text);
  MoveMessage m;
  m.seconds = read_number(text, 1, 4);
  if (m.seconds < 0) return bad("MOVE: bad time field", text);
  m.from = read_number(text, 5, 2);
  m.to = read_number(text, 7, 2);
  if (m.from < 1 || m.from > rules::kBoardSquares || m.to < 1 || m.to > rules::kBoardSquares)
    return bad("MOVE: squares must be 01..32", text);
  const int count = read_number(text, 9, 2);
  if (count < 0 || count > rules::kMaxPiecesPerSide) return bad("MOVE: capture count must be 00..12", text);
  const std::size_t expected = 11 + 2 * static_cast<std::size_t>(count);
  if (text.size() != expected) return wrong_length("MOVE", expected, text);
  for (int i = 0; i < count; ++i) {
    const int sq = read_number(text, 11 + 2 * static_cast<std::size_t>(i), 2);
    if (sq < 1 || sq > rules::kBoardSquares) return bad("MOVE: captured squares must be 01..32", text);
    if (std::find(m.captured.begin(), m.captured.end(), sq) != m.captured.end())
      return bad("MOVE: a captured square is listed twice", text);
    m.captured.push_back(sq);
  }
  std::sort(m.captured.begin(), m.captured.end());
  return Message{m};
}

Expected<Message> parse_game_end(std::string_view text) {
  if (text.size() != 3) return wrong_length("GAMEEND", 3, text);
  const int reason = read_number(text, 1, 1);
  if (reason < 0 || reason > 3) return bad("GAMEEND: reason must be 0..3", text);
  const int stop = read_number(text, 2, 1);
  if (stop < 0 || stop > 1) return bad("GAMEEND: stop code must be 0 or 1", text);
  return Message{GameEnd{static_cast<EndReason>(reason), stop == 1}};
}

Expected<Message> parse_back_request(std::string_view text) {
  if (text.size() != 5) return wrong_length("BACKREQ", 5, text);
  const int number = read_number(text, 1, 3);
  if (number < 1) return bad("BACKREQ: move number must be 001..999", text);
  const std::optional<Color> side = read_color(text[4]);
  if (!side) return bad("BACKREQ: side must be W or Z", text);
  return Message{BackRequest{number, *side}};
}

Expected<Message> parse_back_accept(std::string_view text) {
  if (text.size() != 2) return wrong_length("BACKACC", 2, text);
  const int code = read_number(text, 1, 1);
  if (code < 0 || code > 2) return bad("BACKACC: code must be 0..2", text);
  return Message{BackAccept{static_cast<BackCode>(code)}};
}

// ---- formatters ----

std::string format(const GameRequest& r) {
  std::string s(1, 'R');
  s += write_number(r.version, 2);
  s += pad_name(r.initiator_name);
  s += color_letter(r.follower_color);
  s += write_number(r.minutes, 3);
  s += write_number(r.moves, 3);
  if (!r.start) {
    s += 'A';
    return s;
  }
  s += 'B';
  s += to_dxp_position(*r.start);
  return s;
}

std::string format(const GameAccept& a) {
  std::string s(1, 'A');
  s += pad_name(a.follower_name);
  s += write_number(static_cast<int>(a.code), 1);
  return s;
}

std::string format(const MoveMessage& m) {
  std::string s(1, 'M');
  s += write_number(m.seconds, 4);
  s += write_number(m.from, 2);
  s += write_number(m.to, 2);
  const std::size_t count = std::min<std::size_t>(m.captured.size(), rules::kMaxPiecesPerSide);
  s += write_number(static_cast<int>(count), 2);
  for (std::size_t i = 0; i < count; ++i) s += write_number(m.captured[i], 2);
  return s;
}

std::string format(const GameEnd& e) {
  std::string s(1, 'E');
  s += write_number(static_cast<int>(e.reason), 1);
  s += e.stop ? '1' : '0';
  return s;
}

std::string format(const Chat& c) {
  std::string s(1, 'C');
  s += sanitize(c.text, kMaxMessageLength - 1);
  return s;
}

std::string format(const BackRequest& b) {
  std::string s(1, 'B');
  s += write_number(std::max(b.move_number, 1), 3);
  s += color_letter(b.side);
  return s;
}

std::string format(const BackAccept& k) {
  std::string s(1, 'K');
  s += write_number(static_cast<int>(k.code), 1);
  return s;
}

}  // namespace

Expected<Message> parse_message(std::string_view text) {
  if (text.empty()) return Error{"empty message"};
  if (text.size() > kMaxMessageLength)
    return Error{"message longer than " + std::to_string(kMaxMessageLength) + " characters"};
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 1 || static_cast<unsigned char>(c) > 127)
      return Error{"message contains a character outside ASCII 1..127"};
  switch (text[0]) {
    case 'R':
      return parse_game_request(text);
    case 'A':
      return parse_game_accept(text);
    case 'M':
      return parse_move(text);
    case 'E':
      return parse_game_end(text);
    case 'C':
      return Message{Chat{std::string(text.substr(1))}};
    case 'B':
      return parse_back_request(text);
    case 'K':
      return parse_back_accept(text);
    default:
      return bad("unknown message type", text);
  }
}

std::string format_message(const Message& m) {
  return std::visit([](const auto& x) { return format(x); }, m);
}

std::string_view message_name(const Message& m) {
  constexpr std::string_view kNames[] = {"GAMEREQ", "GAMEACC", "MOVE",   "GAMEEND",
                                         "CHAT",    "BACKREQ", "BACKACC"};
  return kNames[m.index()];
}

MoveMessage to_move_message(const Move& m, int seconds, Numbering n) {
  MoveMessage mm;
  mm.seconds = seconds;
  MoveNumbers numbers = move_numbers(m, n);
  mm.from = numbers.from;
  mm.to = numbers.to;
  mm.captured = std::move(numbers.captured);
  return mm;
}

std::string describe(const MoveMessage& mm) {
  std::string s = std::to_string(mm.from) + (mm.captured.empty() ? "-" : "x") + std::to_string(mm.to);
  for (const int c : mm.captured) {
    s += 'x';
    s += std::to_string(c);
  }
  return s;
}

Expected<Move> to_move(const Position& p, const MoveMessage& mm, Numbering n) {
  const auto valid = [](int sq) { return sq >= 1 && sq <= rules::kBoardSquares; };
  if (!valid(mm.from) || !valid(mm.to)) return Error{"bad square in move " + describe(mm)};
  n = game_numbering(p.variant(), n);
  Move wanted{0, square_from_number(from_numbering(mm.from, n)),
              square_from_number(from_numbering(mm.to, n))};
  for (const int c : mm.captured) {
    if (!valid(c)) return Error{"bad square in move " + describe(mm)};
    wanted.captured |= bb(square_from_number(from_numbering(c, n)));
  }
  if (popcount(wanted.captured) != static_cast<int>(mm.captured.size()))
    return Error{"a captured square is listed twice in move " + describe(mm)};
  if (!is_legal(p, wanted)) return Error{"illegal move " + describe(mm)};
  return wanted;
}

std::string to_dxp_position(const Position& p) {
  std::string s(1, color_letter(p.side_to_move()));
  for (int n = 1; n <= rules::kBoardSquares; ++n) {
    const Bitboard b = bb(square_from_number(n));
    const bool king = (p.kings() & b) != 0;
    if (p.pieces(Color::White) & b) s += king ? 'W' : 'w';
    else if (p.pieces(Color::Black) & b) s += king ? 'Z' : 'z';
    else s += 'e';
  }
  return s;
}

Expected<Position> parse_dxp_position(std::string_view text) {
  if (text.size() != 1 + rules::kBoardSquares)
    return Error{"position must be a side letter and 32 squares, not " + std::to_string(text.size()) +
                 " characters"};
  // Same layout as the Hub position string with z/Z for black: translate, then let the
  // notation layer check the position.
  std::string hub(text);
  if (hub[0] == 'Z') hub[0] = 'B';
  else if (hub[0] == 'B') hub[0] = '?';  // 'B' is not a DXP colour
  for (std::size_t i = 1; i < hub.size(); ++i) {
    if (hub[i] == 'z') hub[i] = 'b';
    else if (hub[i] == 'Z') hub[i] = 'B';
    else if (hub[i] == 'b' || hub[i] == 'B') hub[i] = '?';
  }
  if (hub[0] != 'W' && hub[0] != 'B') return Error{"position: side to move must be W or Z"};
  Expected<Position> p = parse_hub_position(hub);
  if (!p) {
    std::string e = p.error();
    // Report in DXP letters rather than Hub ones.
    const std::string hub_letters = "(expected w b W B e)";
    if (const std::size_t at = e.find(hub_letters); at != std::string::npos)
      e.replace(at, hub_letters.size(), "(expected e w z W Z)");
    return Error{e};
  }
  return *p;
}

}  // namespace damas::dxp
