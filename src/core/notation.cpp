#include "damas/core/notation.h"

#include <algorithm>

#include "damas/core/capture_walker.h"
#include "damas/core/input_echo.h"
#include "damas/core/movegen.h"
#include "damas/core/text_lines.h"

namespace damas {
namespace {

std::string quoted(std::string_view s) { return '"' + echo_input(s) + '"'; }

// A counter field of a lidraughts FEN: H (plies counted towards a draw law) or F (move number)
// and a number.
bool is_fen_counter(std::string_view field) {
  return field.size() >= 2 && (field[0] == 'H' || field[0] == 'F') && parse_decimal(field.substr(1), 4) >= 0;
}

// How many of a FEN's ':' fields come before lidraughts' counters (":H0:F1", after both piece
// fields): the side and the pieces.
std::size_t fields_before_counters(const std::vector<std::string_view>& fields) {
  std::size_t n = fields.size();
  while (n > 3 && is_fen_counter(trim(fields[n - 1]))) --n;
  return n;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

// Checks what every parser must refuse; used after a board has been read.
Status check_position(Bitboard white, Bitboard black, Bitboard kings, Variant v) {
  if (popcount(white) > rules::kMaxPiecesPerSide) return Error{"White has more than 12 pieces"};
  if (popcount(black) > rules::kMaxPiecesPerSide) return Error{"Black has more than 12 pieces"};
  if (const Bitboard bad = white & ~kings & kWhitePromotionRow)
    return Error{"white man on square " + std::to_string(game_number(v, lowest_square(bad))) +
                 " would already have been crowned"};
  if (const Bitboard bad = black & ~kings & kBlackPromotionRow)
    return Error{"black man on square " + std::to_string(game_number(v, lowest_square(bad))) +
                 " would already have been crowned"};
  return Ok{};
}

}  // namespace

std::optional<Numbering> parse_numbering(std::string_view name) {
  if (name == "standard") return Numbering::Standard;
  if (name == "a1") return Numbering::A1;
  return std::nullopt;
}

// ---- FEN ----

namespace {

// The FEN inside its optional PDN wrapper: [FEN "..."] or surrounding quotes.
std::string_view unquoted_fen(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
  return text;
}

}  // namespace

Expected<Position> parse_fen(std::string_view text, Variant v) {
  if (trim(text).empty()) return Error{"empty FEN"};
  std::vector<std::string_view> fields = split(unquoted_fen(text), ':');
  // lidraughts ends a FEN with its counters after both piece fields (":H0:F1"): read past here;
  // fen_draw_plies reads H, which seeds the FMJD-64 count.
  fields.resize(fields_before_counters(fields));
  Color side = Color::White;
  const std::string_view side_field = trim(fields[0]);
  if (side_field == "W") side = Color::White;
  else if (side_field == "B") side = Color::Black;
  else return Error{"FEN: unknown side to move " + quoted(side_field) + " (expected W or B)"};
  if (fields.size() > 3) return Error{"FEN: too many ':' fields"};

  Bitboard pieces[2] = {0, 0};
  Bitboard kings = 0;
  bool seen[2] = {false, false};
  for (std::size_t f = 1; f < fields.size(); ++f) {
    std::string_view field = trim(fields[f]);
    if (field.empty()) return Error{"FEN: empty piece field " + std::to_string(f)};
    Color c;
    if (field[0] == 'W') c = Color::White;
    else if (field[0] == 'B') c = Color::Black;
    else return Error{"FEN: piece field " + quoted(field) + " must start with W or B"};
    if (seen[index(c)]) return Error{"FEN: two piece fields for the same colour"};
    seen[index(c)] = true;
    field.remove_prefix(1);
    // Some writers end a field with a dot (move number); tolerate nothing else.
    if (!field.empty() && field.back() == '.') field.remove_suffix(1);
    if (trim(field).empty()) continue;  // a side without pieces
    for (std::string_view item : split(field, ',')) {
      item = trim(item);
      bool king = false;
      if (!item.empty() && item[0] == 'K') {
        king = true;
        item.remove_prefix(1);
      }
      int first = 0, last = 0;
      if (!item.empty() && item[0] >= 'a' && item[0] <= 'z') {
        // Algebraic square (a1..h8), as lidraughts and pydraughts write 8x8 FENs.
        const Expected<Square> sq = parse_square_name(item, v);
        if (!sq) return Error{"FEN: " + sq.error()};
        first = last = game_number(v, *sq);
      } else if (const std::size_t dash = item.find('-'); dash != std::string_view::npos) {
        first = parse_decimal(item.substr(0, dash), 4);
        last = parse_decimal(item.substr(dash + 1), 4);
        if (first < 1 || last < first || last > 32) return Error{"FEN: bad square range " + quoted(item)};
      } else {
        first = last = parse_decimal(item, 4);
        if (first < 1 || first > 32) return Error{"FEN: bad square number " + quoted(item)};
      }
      for (int n = first; n <= last; ++n) {
        const Bitboard b = bb(game_square(v, n));
        if ((pieces[0] | pieces[1]) & b)
          return Error{"FEN: square " + quoted(item) + (first == last ? "" : " (" + std::to_string(n) + ")") +
                       " is used twice"};
        pieces[index(c)] |= b;
        if (king) kings |= b;
      }
    }
  }
  if (Status s = check_position(pieces[0], pieces[1], kings, v); !s) return Error{"FEN: " + s.error()};
  return Position::from_pieces(pieces[0], pieces[1], kings, side).with_variant(v);
}

int fen_draw_plies(std::string_view text) {
  const std::vector<std::string_view> fields = split(unquoted_fen(text), ':');
  for (std::size_t i = fields_before_counters(fields); i < fields.size(); ++i)
    if (const std::string_view field = trim(fields[i]); field[0] == 'H')
      return parse_decimal(field.substr(1), 4);
  return 0;
}

std::string to_fen(const Position& p, FenStyle style) {
  std::string s = p.side_to_move() == Color::White ? "W" : "B";
  for (Color c : {Color::White, Color::Black}) {
    s += c == Color::White ? ":W" : ":B";
    bool first = true;
    for (int n = 1; n <= 32; ++n) {
      const Square sq = game_square(p.variant(), n);
      const Bitboard b = bb(sq);
      if (!(p.pieces(c) & b)) continue;
      if (!first) s += ',';
      first = false;
      if (p.kings() & b) s += 'K';
      s += style == FenStyle::Algebraic ? square_name(sq, p.variant()) : std::to_string(n);
    }
  }
  return s;
}

// ---- Hub position ----

Expected<Position> parse_hub_position(std::string_view text, Variant v) {
  text = trim(text);
  if (text.size() != 33)
    return Error{"position string must have 33 characters (side + 32 squares), not " +
                 std::to_string(text.size())};
  Color side;
  if (text[0] == 'W') side = Color::White;
  else if (text[0] == 'B') side = Color::Black;
  else return Error{"position string: unknown side to move '" + std::string(1, text[0]) + "'"};
  Bitboard white = 0, black = 0, kings = 0;
  for (int n = 1; n <= 32; ++n) {
    const Bitboard b = bb(game_square(v, n));
    switch (text[static_cast<std::size_t>(n)]) {
      case 'w':
        white |= b;
        break;
      case 'b':
        black |= b;
        break;
      case 'W':
        white |= b;
        kings |= b;
        break;
      case 'B':
        black |= b;
        kings |= b;
        break;
      case 'e':
        break;
      default:
        return Error{"position string: bad letter at square " + std::to_string(n) + " (expected w b W B e)"};
    }
  }
  if (Status s = check_position(white, black, kings, v); !s) return Error{"position string: " + s.error()};
  return Position::from_pieces(white, black, kings, side).with_variant(v);
}

std::string to_hub_position(const Position& p) {
  std::string s(1, p.side_to_move() == Color::White ? 'W' : 'B');
  for (int n = 1; n <= 32; ++n) {
    const Bitboard b = bb(game_square(p.variant(), n));
    const bool king = (p.kings() & b) != 0;
    if (p.pieces(Color::White) & b) s += king ? 'W' : 'w';
    else if (p.pieces(Color::Black) & b) s += king ? 'B' : 'b';
    else s += 'e';
  }
  return s;
}

// ---- Hub moves ----

MoveNumbers move_numbers(const Move& m, Numbering n) {
  MoveNumbers numbers{to_numbering(square_number(m.from), n), to_numbering(square_number(m.to), n), {}};
  for (Bitboard c = m.captured; c;) numbers.captured.push_back(to_numbering(square_number(pop_lowest(c)), n));
  std::sort(numbers.captured.begin(), numbers.captured.end());
  return numbers;
}

std::string to_hub_move(const Move& m, Numbering n) {
  const MoveNumbers numbers = move_numbers(m, n);
  std::string s = std::to_string(numbers.from);
  s += m.is_capture() ? 'x' : '-';
  s += std::to_string(numbers.to);
  for (const int c : numbers.captured) s += 'x' + std::to_string(c);
  return s;
}

std::string to_hub_move(const Position& p, const Move& m, Numbering n) {
  return to_hub_move(m, game_numbering(p.variant(), n));
}

Expected<Move> parse_hub_move(const Position& p, std::string_view text, Numbering asked) {
  const Numbering numbering = game_numbering(p.variant(), asked);
  text = trim(text);
  if (text.empty()) return Error{"empty move"};
  if (text.size() > 64) return Error{"move too long: " + quoted(text)};
  const bool has_dash = text.find('-') != std::string_view::npos;
  const bool has_x = text.find('x') != std::string_view::npos;
  if (has_dash == has_x)
    return Error{"bad move " + quoted(text) + " (expected from-to or fromxto[xcaptured...])"};
  const std::vector<std::string_view> parts = split(text, has_dash ? '-' : 'x');
  if (parts.size() < 2 || (has_dash && parts.size() != 2)) return Error{"bad move " + quoted(text)};
  int squares[14];
  if (parts.size() > 14) return Error{"bad move " + quoted(text) + " (too many squares)"};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const int v = parse_decimal(parts[i], 4);
    if (v < 1 || v > 32) return Error{"bad move " + quoted(text) + ": bad square " + quoted(parts[i])};
    squares[i] = from_numbering(v, numbering);
  }
  const Square from = square_from_number(squares[0]);
  const Square to = square_from_number(squares[1]);
  Bitboard captured = 0;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    const Bitboard b = bb(square_from_number(squares[i]));
    if (captured & b) return Error{"bad move " + quoted(text) + ": a captured square is listed twice"};
    captured |= b;
  }
  MoveList legal;
  generate_legal_moves(p, legal);
  if (has_x && parts.size() == 2) {
    // "fromxto" without the captured squares: accept only when it names one legal move.
    const Move* found = nullptr;
    for (const Move& m : legal) {
      if (m.from == from && m.to == to && m.is_capture()) {
        if (found) return Error{"ambiguous move " + quoted(text) + ": list the captured squares"};
        found = &m;
      }
    }
    if (found) return *found;
    return Error{"illegal move " + quoted(text)};
  }
  const Move wanted{captured, from, to};
  if (legal.contains(wanted)) return wanted;
  return Error{"illegal move " + quoted(text)};
}

namespace {

bool is_king_of_mover(const Position& p, Square s) { return (p.kings() & bb(s)) != 0; }

// The capture walker's visitor for the routes of one move: only its pieces are taken, and a
// sequence that took them all and ends on its landing square is one of its routes.
class RoutesOf {
 public:
  RoutesOf(const Move& target, std::vector<std::vector<Square>>& routes) : target_(target), routes_(routes) {}

  bool may_take(Bitboard victim) const { return (victim & target_.captured) != 0; }
  void enter(Square landing) { path_.push_back(landing); }
  void leave() { path_.pop_back(); }
  void complete(Square, Bitboard at, Bitboard captured) {
    if (captured == target_.captured && lowest_square(at) == target_.to) routes_.push_back(path_);
  }

 private:
  const Move& target_;
  std::vector<std::vector<Square>>& routes_;
  std::vector<Square> path_;
};

template <Variant V>
void walk_routes(const Position& p, const Move& m, RoutesOf& visitor) {
  const Color us = p.side_to_move();
  CaptureWalker<V, RoutesOf> walker(p.pieces(~us), p.empty(), promotion_row(us), visitor);
  if (is_king_of_mover(p, m.from)) walker.from_king(m.from);
  else walker.from_man(m.from);
}

}  // namespace

std::vector<std::vector<Square>> capture_routes(const Position& p, const Move& m) {
  std::vector<std::vector<Square>> routes;
  if (!m.is_capture()) return routes;
  RoutesOf visitor(m, routes);
  visit_variant(p.variant(), [&](auto v) { walk_routes<decltype(v)::value>(p, m, visitor); });
  return routes;
}

namespace {

// The squares after m.from that a full PDN route names: PDN 3.0 asks for the landing square where
// the route turns and the square just behind the piece taken where it goes straight on. The first
// route of capture_routes is that one: its search tries the nearest landing square first.
std::vector<Square> full_route(const Position& p, const Move& m) {
  std::vector<std::vector<Square>> routes = capture_routes(p, m);
  return routes.empty() ? std::vector<Square>{m.to} : std::move(routes.front());
}

std::string number_name(Square s, Variant v) { return std::to_string(game_number(v, s)); }

// A move in the squares `name` gives: "a-b", or a capture "a<sep>b" with the full route only
// when another legal capture shares its from and to squares.
std::string move_text(const Position& p, const Move& m, char capture_separator,
                      std::string (*game_name)(Square, Variant)) {
  const auto name = [&](Square s) { return game_name(s, p.variant()); };
  if (!m.is_capture()) return name(m.from) + "-" + name(m.to);
  MoveList legal;
  generate_legal_moves(p, legal);
  bool ambiguous = false;
  for (const Move& other : legal)
    if (!(other == m) && other.from == m.from && other.to == m.to) ambiguous = true;
  std::string s = name(m.from);
  for (const Square sq : ambiguous ? full_route(p, m) : std::vector<Square>{m.to}) {
    s += capture_separator;
    s += name(sq);
  }
  return s;
}

}  // namespace

std::string to_algebraic(const Position& p, const Move& m) { return move_text(p, m, ':', square_name); }

std::string to_pdn_move(const Position& p, const Move& m, PdnSquares squares) {
  return move_text(p, m, 'x', squares == PdnSquares::Algebraic ? square_name : number_name);
}

Expected<Move> parse_algebraic(const Position& p, std::string_view text) {
  text = trim(text);
  if (text.size() < 5 || text.size() > 64) return Error{"bad move " + quoted(text)};
  const bool quiet = text.find('-') != std::string_view::npos;
  std::vector<std::string_view> parts;
  if (quiet) {
    parts = split(text, '-');
    if (parts.size() != 2) return Error{"bad move " + quoted(text)};
  } else {
    std::string normalized(text);
    std::replace(normalized.begin(), normalized.end(), 'x', ':');
    std::size_t start = 0;
    for (const std::string_view piece : split(normalized, ':')) {
      parts.push_back(text.substr(start, piece.size()));
      start += piece.size() + 1;
    }
    if (parts.size() < 2) return Error{"bad move " + quoted(text)};
  }
  std::vector<Square> squares;
  for (std::string_view part : parts) {
    Expected<Square> s = parse_square_name(part, p.variant());
    if (!s) return Error{"bad move " + quoted(text) + ": " + s.error()};
    squares.push_back(*s);
  }
  MoveList legal;
  generate_legal_moves(p, legal);
  std::vector<Move> matches;
  for (const Move& m : legal) {
    if (m.from != squares.front() || m.to != squares.back() || m.is_capture() == quiet) continue;
    if (squares.size() > 2) {
      const std::vector<std::vector<Square>> routes = capture_routes(p, m);
      const std::vector<Square> wanted(squares.begin() + 1, squares.end());
      bool fits = false;
      for (const auto& r : routes) {
        // Intermediate squares given must appear in order along the route.
        std::size_t k = 0;
        for (const Square sq : r)
          if (k < wanted.size() && sq == wanted[k]) ++k;
        if (k == wanted.size()) fits = true;
      }
      if (!fits) continue;
    }
    matches.push_back(m);
  }
  if (matches.empty()) return Error{"illegal move " + quoted(text)};
  if (matches.size() > 1) return Error{"ambiguous move " + quoted(text) + ": add intermediate squares"};
  return matches.front();
}

Expected<Move> parse_any_move(const Position& p, std::string_view text, Numbering n) {
  text = trim(text);
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'h') return parse_algebraic(p, text);
  return parse_hub_move(p, text, n);
}

Expected<std::vector<Move>> parse_move_list(const Position& p, std::string_view text, Numbering n,
                                            std::vector<Move>* played) {
  std::vector<Move> moves;
  Position pos = p;
  std::size_t i = 0;
  std::size_t index_in_list = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == ',')) ++i;
    if (i >= text.size()) break;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != ',') ++j;
    const std::string_view token = text.substr(i, j - i);
    ++index_in_list;
    Expected<Move> m = parse_any_move(pos, token, n);
    if (!m) {
      if (played) *played = moves;
      return Error{"move " + std::to_string(index_in_list) + ": " + m.error()};
    }
    moves.push_back(*m);
    pos = pos.after(*m);
    i = j;
  }
  if (played) *played = moves;
  return moves;
}

std::string to_diagram(const Position& p) {
  std::string s;
  for (int row = 0; row < 8; ++row) {
    s += static_cast<char>('8' - row);
    s += ' ';
    for (int board_file = 0; board_file < 8; ++board_file) {
      // The mirrored board shows damas' squares reflected (core/game_squares.h).
      const int file = rules::of(p.variant()).mirrored_board ? 7 - board_file : board_file;
      if ((row + file) % 2 == 0) {
        s += " .";
        continue;
      }
      const Square sq = square_from_number(row * 4 + file / 2 + 1);
      const Bitboard b = bb(sq);
      const bool king = (p.kings() & b) != 0;
      char c = '-';
      if (p.pieces(Color::White) & b) c = king ? 'W' : 'w';
      else if (p.pieces(Color::Black) & b) c = king ? 'B' : 'b';
      s += ' ';
      s += c;
    }
    s += '\n';
  }
  s += "   a b c d e f g h\n";
  s += p.side_to_move() == Color::White ? "White to move\n" : "Black to move\n";
  return s;
}

int parse_decimal(std::string_view text, std::size_t max_digits) {
  int n = text.empty() || text.size() > max_digits ? -1 : 0;
  for (const char c : text) n = n >= 0 && c >= '0' && c <= '9' ? n * 10 + (c - '0') : -1;
  return n;
}

}  // namespace damas
