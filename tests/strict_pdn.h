// A PDN reader for tests that knows only the PDN 3.0 standard (pdn.fmjd.org: the grammar with its
// writing restrictions, the FEN and GameType tags), none of damas's notation code: what damas
// writes must be what another program reads.
//
// Accepted: tag pairs [Name "value"] (\" and \\ escapes), one per line, before the move text;
// a GameType tag of a game damas plays (26 Brazilian, 25 Russian, 24 Spanish, 28 Portuguese, 23
// pool, 29 Czech), whose board and numbering are the standard's: the short forms of 24 and 28 and a
// long form "N1,1" mean the mirrored board numbered from the first player's bottom right, the
// others the FMJD board numbered from b8 ("N2,0", "A0,0" or the short form); a FEN tag with numeric squares
// (K, ranges) or algebraic ones; move numbers "12." before White's move and "12..." before Black's, numbered
// from the start; moves in numeric squares 1-32 (no leading zero) or algebraic a1-h8, "a-b" or a capture
// "axb" with the landing square only, or, where another legal capture shares from and to, the full route:
// every square between, the landing square where the route turns and the square just behind the piece taken
// where it goes straight on. Move strength (! ? !? ...) after the move, NAGs $n, comments {...}, variations
// (...) and %-lines. Every game ends with a result (2-0 0-2 1-1 0-0 * and 1-0 0-1 1/2-1/2) equal to its
// Result tag when there is one. Refused: anything else, such as a Hub-form capture (captured squares after
// the destination), a route where the capture is not ambiguous, or a short route where it is. Legality is
// damas's move generator (tested on its own by perft); the routes are walked here.
#pragma once

#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/movegen.h"
#include "damas/core/position.h"

namespace strict_pdn {

struct Game {
  std::vector<std::pair<std::string, std::string>> tags;
  damas::Position start = damas::Position::start();
  std::vector<damas::Move> moves;
  std::string result;

  std::optional<std::string> tag(std::string_view name) const {
    for (const auto& [n, v] : tags)
      if (n == name) return v;
    return std::nullopt;
  }
};

namespace detail {

// Board coordinates: row 0 is rank 8 (Black's side), column 0 is file a. Dark squares have
// row + column odd; the standard number counts them from b8 row by row.
struct Coord {
  int row = 0;
  int col = 0;
  bool operator==(const Coord&) const = default;
};

inline damas::Square to_square(Coord c) { return damas::square_from_number(c.row * 4 + c.col / 2 + 1); }
inline damas::Bitboard bit(Coord c) { return damas::bb(to_square(c)); }
inline bool on_board(Coord c) { return c.row >= 0 && c.row < 8 && c.col >= 0 && c.col < 8; }

// "1".."32" (no leading zero) or "a1".."h8" on a dark square. On the mirrored board (a light square
// at each player's bottom left) the square is read as it stands and given as the coordinates of the
// same square reflected left to right, damas's board.
inline std::optional<Coord> parse_square(std::string_view s, bool mirrored = false) {
  if (s.size() == 2 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8') {
    const Coord c{8 - (s[1] - '0'), s[0] - 'a'};
    if ((c.row + c.col) % 2 == (mirrored ? 0 : 1)) return Coord{c.row, mirrored ? 7 - c.col : c.col};
    return std::nullopt;
  }
  if (s.empty() || s.size() > 2 || s[0] == '0') return std::nullopt;
  int n = 0;
  for (const char ch : s) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
    n = n * 10 + (ch - '0');
  }
  if (n < 1 || n > 32) return std::nullopt;
  if (mirrored) {
    // 1 at the bottom right, right to left along the rank, rank by rank upward.
    const int rank = (n - 1) / 4 + 1;
    const int file = (rank % 2 == 1 ? 7 : 6) - 2 * ((n - 1) % 4);
    return Coord{8 - rank, 7 - file};
  }
  const int row = (n - 1) / 4;
  return Coord{row, 2 * ((n - 1) % 4) + (row % 2 == 0 ? 1 : 0)};
}

inline bool alphabetic(std::string_view s) { return !s.empty() && s[0] >= 'a' && s[0] <= 'h'; }

// The FEN tag value: W or B, then ":W..." and ":B..." with comma-separated squares, K for kings,
// numeric ranges "21-32"; no spaces, no final dot.
inline damas::Expected<damas::Position> parse_fen(std::string_view fen, bool mirrored = false) {
  if (fen.empty() || (fen[0] != 'W' && fen[0] != 'B'))
    return damas::Error{"FEN: side to move must be W or B"};
  const damas::Color side = fen[0] == 'W' ? damas::Color::White : damas::Color::Black;
  damas::Bitboard pieces[2] = {0, 0};
  damas::Bitboard kings = 0;
  bool seen[2] = {false, false};
  std::size_t at = 1;
  while (at < fen.size()) {
    if (fen[at] != ':' || at + 1 >= fen.size() || (fen[at + 1] != 'W' && fen[at + 1] != 'B'))
      return damas::Error{"FEN: expected :W or :B at " + std::to_string(at)};
    const int colour = fen[at + 1] == 'W' ? 0 : 1;
    if (seen[colour]) return damas::Error{"FEN: a colour twice"};
    seen[colour] = true;
    at += 2;
    const std::size_t end = std::min(fen.find(':', at), fen.size());
    const std::string_view field = fen.substr(at, end - at);
    at = end;
    if (field.empty()) continue;
    std::size_t start = 0;
    while (start <= field.size()) {
      const std::size_t comma = std::min(field.find(',', start), field.size());
      std::string_view item = field.substr(start, comma - start);
      start = comma + 1;
      const bool king = !item.empty() && item[0] == 'K';
      if (king) item.remove_prefix(1);
      std::string_view first = item;
      std::string_view last = item;
      if (const std::size_t dash = item.find('-'); dash != std::string_view::npos && !alphabetic(item)) {
        first = item.substr(0, dash);
        last = item.substr(dash + 1);
      }
      if (first != last && alphabetic(first)) return damas::Error{"FEN: an algebraic range"};
      const std::optional<Coord> a = parse_square(first, mirrored);
      const std::optional<Coord> b = parse_square(last, mirrored);
      if (!a || !b) return damas::Error{"FEN: bad square \"" + std::string(item) + "\""};
      const int from = std::stoi(std::string(first == last ? "1" : first));
      const int to = std::stoi(std::string(first == last ? "1" : last));
      if (to < from) return damas::Error{"FEN: bad range \"" + std::string(item) + "\""};
      for (int n = from; n <= to; ++n) {
        const damas::Bitboard s = first == last ? bit(*a) : bit(*parse_square(std::to_string(n), mirrored));
        if ((pieces[0] | pieces[1]) & s) return damas::Error{"FEN: a square twice"};
        pieces[colour] |= s;
        if (king) kings |= s;
      }
    }
  }
  return damas::Position::from_pieces(pieces[0], pieces[1], kings, side);
}

// Direction (drow, dcol) from a to b when both are on one diagonal, else nullopt.
inline std::optional<Coord> direction(Coord a, Coord b) {
  const int dr = b.row - a.row;
  const int dc = b.col - a.col;
  if (dr == 0 || (dr != dc && dr != -dc)) return std::nullopt;
  return Coord{dr > 0 ? 1 : -1, dc > 0 ? 1 : -1};
}

// A capture given as its squares (from, landing squares..., to): walked leg by leg.
inline damas::Expected<damas::Move> walk_route(const damas::Position& p, const std::vector<Coord>& squares) {
  const damas::Color us = p.side_to_move();
  const damas::Bitboard enemy = p.pieces(~us);
  const damas::Bitboard empty = p.empty() | bit(squares[0]);
  const bool king = (p.kings() & bit(squares[0])) != 0;
  damas::Bitboard taken = 0;
  std::optional<Coord> previous_direction;
  std::optional<Coord> previous_behind;  // the square just behind the piece the last leg took
  for (std::size_t i = 1; i < squares.size(); ++i) {
    const Coord a = squares[i - 1];
    const Coord b = squares[i];
    const std::optional<Coord> d = direction(a, b);
    if (!d) return damas::Error{"leg " + std::to_string(i) + " is not on a diagonal"};
    if (previous_direction && *previous_direction == *d && !(a == *previous_behind))
      return damas::Error{"the route goes straight on after leg " + std::to_string(i - 1) +
                          " but does not name the square just behind the piece taken"};
    std::optional<Coord> piece;
    for (Coord c{a.row + d->row, a.col + d->col}; !(c == b); c = Coord{c.row + d->row, c.col + d->col}) {
      if (empty & bit(c)) continue;
      if (piece || !(enemy & bit(c)) || (taken & bit(c)))
        return damas::Error{"leg " + std::to_string(i) + " does not jump exactly one piece it may take"};
      piece = c;
    }
    if (!piece) return damas::Error{"leg " + std::to_string(i) + " takes nothing"};
    if (!(empty & bit(b))) return damas::Error{"leg " + std::to_string(i) + " lands on an occupied square"};
    const Coord behind{piece->row + d->row, piece->col + d->col};
    if (!king && !(b == behind)) return damas::Error{"a man must land just behind the piece it takes"};
    taken |= bit(*piece);
    previous_direction = d;
    previous_behind = behind;
  }
  return damas::Move{taken, to_square(squares.front()), to_square(squares.back())};
}

// One move word (without move number or strength) in position p.
inline damas::Expected<damas::Move> parse_move(const damas::Position& p, std::string_view word,
                                               bool mirrored) {
  const bool quiet = word.find('-') != std::string_view::npos;
  const char separator = quiet ? '-' : 'x';
  std::vector<Coord> squares;
  std::optional<bool> alpha;
  std::size_t start = 0;
  while (start <= word.size()) {
    const std::size_t end = std::min(word.find(separator, start), word.size());
    const std::string_view part = word.substr(start, end - start);
    const std::optional<Coord> c = parse_square(part, mirrored);
    if (!c) return damas::Error{"not a square: \"" + std::string(part) + "\""};
    if (alpha && *alpha != alphabetic(part)) return damas::Error{"numeric and algebraic squares mixed"};
    alpha = alphabetic(part);
    squares.push_back(*c);
    start = end + 1;
  }
  if (squares.size() < 2 || (quiet && squares.size() != 2)) return damas::Error{"not a move"};
  damas::MoveList legal;
  damas::generate_legal_moves(p, legal);
  const damas::Square from = to_square(squares.front());
  const damas::Square to = to_square(squares.back());
  std::vector<damas::Move> same_ends;
  for (const damas::Move& m : legal)
    if (m.from == from && m.to == to && m.is_capture() != quiet) same_ends.push_back(m);
  if (same_ends.empty()) return damas::Error{"illegal move"};
  if (squares.size() == 2) {
    if (same_ends.size() > 1) return damas::Error{"ambiguous capture written without its route"};
    return same_ends.front();
  }
  const damas::Expected<damas::Move> walked = walk_route(p, squares);
  if (!walked) return walked;
  if (!legal.contains(*walked)) return damas::Error{"the route is not a legal capture"};
  if (same_ends.size() == 1) return damas::Error{"route written for a capture that is not ambiguous"};
  return walked;
}

inline bool is_result(std::string_view w) {
  for (std::string_view r : {"2-0", "0-2", "1-1", "0-0", "*", "1-0", "0-1", "1/2-1/2"})
    if (w == r) return true;
  return false;
}

inline bool is_identifier(std::string_view s) {
  if (s.empty() || s[0] < 'A' || s[0] > 'Z') return false;
  for (const char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// Reads one game from `text` at `at`; on return `at` is past its result.
class GameReader {
 public:
  GameReader(std::string_view text, std::size_t& at) : text_(text), at_(at) {}

  damas::Expected<Game> read() {
    Game g;
    skip_space();
    while (at_ < text_.size() && text_[at_] == '[') {
      const damas::Expected<std::pair<std::string, std::string>> tag = read_tag();
      if (!tag) return damas::Error{tag.error()};
      g.tags.push_back(*tag);
      skip_space();
    }
    const std::optional<std::string> type = g.tag("GameType");
    if (!type) return fail("no GameType tag");
    const std::optional<Board> board = board_of(*type);
    if (!board) return fail("GameType \"" + *type + "\" is not a game played here");
    mirrored_ = board->mirrored;
    g.start = damas::Position::start(board->game);
    if (const std::optional<std::string> fen = g.tag("FEN")) {
      const damas::Expected<damas::Position> start = parse_fen(*fen, mirrored_);
      if (!start) return fail(start.error());
      g.start = start->with_variant(board->game);
    }
    damas::Position p = g.start;
    int ply = p.side_to_move() == damas::Color::White ? 0 : 1;
    while (true) {
      skip_space();
      if (at_ >= text_.size()) return fail("the game has no result");
      const char c = text_[at_];
      if (c == '{') {
        const std::size_t close = text_.find('}', at_);
        if (close == std::string_view::npos) return fail("comment not closed");
        at_ = close + 1;
      } else if (c == '(') {
        if (!skip_variation()) return fail("variation not closed");
      } else if (c == '$') {
        ++at_;
        const std::size_t digits = at_;
        while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
        if (at_ == digits) return fail("NAG without a number");
      } else {
        const std::string_view w = word();
        if (is_result(w)) {
          g.result = std::string(w);
          if (const std::optional<std::string> r = g.tag("Result"); r && *r != g.result)
            return fail("the Result tag says " + *r + ", the move text " + g.result);
          return g;
        }
        if (const std::optional<std::string> bad = check_move_number(w, ply)) return fail(*bad);
        if (w.back() == '.') continue;
        std::string_view move = w;
        while (!move.empty() && (move.back() == '!' || move.back() == '?')) move.remove_suffix(1);
        const damas::Expected<damas::Move> m = parse_move(p, move, mirrored_);
        if (!m) return fail("\"" + std::string(w) + "\": " + m.error());
        g.moves.push_back(*m);
        p = p.after(*m);
        ++ply;
      }
    }
  }

 private:
  struct Board {
    damas::Variant game;
    bool mirrored;
  };
  // The game and board a GameType names: its number, and the long form's notation and invert flag.
  static std::optional<Board> board_of(std::string_view type) {
    static constexpr struct {
      int number;
      damas::Variant game;
      bool mirrored;
    } kTypes[] = {{26, damas::Variant::Brazilian, false}, {25, damas::Variant::Russian, false},
                  {24, damas::Variant::Spanish, true},    {28, damas::Variant::Portuguese, true},
                  {23, damas::Variant::Pool, false},      {29, damas::Variant::Czech, false}};
    const std::size_t comma = type.find(',');
    const std::string_view number = type.substr(0, comma);
    for (const auto& t : kTypes) {
      if (number != std::to_string(t.number)) continue;
      if (comma == std::string_view::npos) return Board{t.game, t.mirrored};
      const std::string_view rest = type.substr(comma);  // ",W,8,8,N1,1"
      if (rest.size() < 11 || rest.substr(0, 7) != ",W,8,8," || rest.substr(rest.size() - 2, 1) != ",")
        return std::nullopt;
      const std::string_view notation = rest.substr(7, 2);
      const char invert = rest.back();
      if (notation == "N1" && invert == '1') return Board{t.game, true};
      if ((notation == "N2" || notation == "A0") && invert == '0') return Board{t.game, false};
      return std::nullopt;
    }
    return std::nullopt;
  }

  damas::Error fail(const std::string& message) const {
    return damas::Error{"at byte " + std::to_string(at_) + ": " + message};
  }

  void skip_space() {
    while (at_ < text_.size()) {
      if (text_[at_] == '%' && (at_ == 0 || text_[at_ - 1] == '\n')) {
        while (at_ < text_.size() && text_[at_] != '\n') ++at_;
      } else if (std::isspace(static_cast<unsigned char>(text_[at_]))) {
        ++at_;
      } else {
        return;
      }
    }
  }

  std::string_view word() {
    const std::size_t start = at_;
    while (at_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[at_])) &&
           std::string_view("{}()[]$").find(text_[at_]) == std::string_view::npos)
      ++at_;
    return text_.substr(start, at_ - start);
  }

  // "12." must come before White's 12th move, "12..." before Black's; nothing else ends in a dot.
  static std::optional<std::string> check_move_number(std::string_view w, int ply) {
    if (w.empty()) return "unexpected character";
    if (w.back() != '.') return std::nullopt;
    std::size_t digits = 0;
    while (digits < w.size() && std::isdigit(static_cast<unsigned char>(w[digits]))) ++digits;
    const std::string_view dots = w.substr(digits);
    if (digits == 0 || (dots != "." && dots != "...")) return "bad move number \"" + std::string(w) + "\"";
    const std::string expected = std::to_string(ply / 2 + 1) + (ply % 2 ? "..." : ".");
    if (w != expected) return "move number \"" + std::string(w) + "\" where " + expected + " belongs";
    return std::nullopt;
  }

  bool skip_variation() {
    int depth = 0;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '{') {
        const std::size_t close = text_.find('}', at_);
        if (close == std::string_view::npos) return false;
        at_ = close;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        ++at_;
        return true;
      }
      ++at_;
    }
    return false;
  }

  damas::Expected<std::pair<std::string, std::string>> read_tag() {
    const std::size_t open = at_;
    const std::size_t line_end = std::min(text_.find('\n', at_), text_.size());
    std::size_t i = at_ + 1;
    std::size_t name_end = i;
    while (name_end < line_end && text_[name_end] != ' ') ++name_end;
    const std::string name(text_.substr(i, name_end - i));
    if (!is_identifier(name)) return fail("bad tag name \"" + name + "\"");
    i = name_end + 1;
    if (i >= line_end || text_[i] != '"') return fail("tag " + name + " has no quoted value");
    std::string value;
    for (++i; i < line_end && text_[i] != '"'; ++i) {
      if (text_[i] == '\\') {
        if (i + 1 >= line_end || (text_[i + 1] != '"' && text_[i + 1] != '\\')) return fail("bad escape");
        ++i;
      }
      value += text_[i];
    }
    if (i + 1 >= text_.size() || text_[i] != '"' || text_[i + 1] != ']')
      return fail("tag " + name + " not closed");
    at_ = i + 2;
    while (at_ < line_end && (text_[at_] == ' ' || text_[at_] == '\t')) ++at_;
    if (at_ != line_end) {
      at_ = open;
      return fail("more after tag " + name + " on its line");
    }
    return std::pair{name, value};
  }

  std::string_view text_;
  std::size_t& at_;
  bool mirrored_ = false;
};

}  // namespace detail

// Every game of the text, or the first error (with the game's number).
inline damas::Expected<std::vector<Game>> read(std::string_view text) {
  std::vector<Game> games;
  std::size_t at = 0;
  while (true) {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    if (at >= text.size()) return games;
    const damas::Expected<Game> g = detail::GameReader(text, at).read();
    if (!g) return damas::Error{"game " + std::to_string(games.size() + 1) + ", " + g.error()};
    games.push_back(*g);
  }
}

}  // namespace strict_pdn
