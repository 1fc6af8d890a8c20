#include "damas/core/pdn.h"

#include <array>
#include <cctype>

#include "damas/core/notation.h"

namespace damas {

std::optional<std::string> PdnGame::tag(std::string_view name) const {
  for (const auto& [n, v] : tags)
    if (n == name) return v;
  return std::nullopt;
}

namespace {

enum class TokenKind { Tag, Word, Bad };

struct Token {
  TokenKind kind = TokenKind::Word;
  int line = 0;
  std::string text;   // Word: the word; Tag: the name; Bad: what is wrong
  std::string value;  // Tag only
};

// Splits PDN text into tag pairs and words; comments, variations, NAGs and escape lines are
// dropped here, so the game reader only sees what it has to check.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::optional<Token> next() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '%' && (pos_ == 0 || text_[pos_ - 1] == '\n')) {
        skip_line();
      } else if (c == ';') {
        skip_line();
      } else if (c == '{') {
        if (std::optional<Token> bad = skip_comment()) return bad;
      } else if (c == '(') {
        if (std::optional<Token> bad = skip_variation()) return bad;
      } else if (c == ')' || c == '}') {
        ++pos_;
        return Token{TokenKind::Bad, line_, std::string("unmatched '") + c + "'", ""};
      } else if (c == '$') {
        ++pos_;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      } else if (c == '[') {
        return read_tag();
      } else {
        return read_word();
      }
    }
    return std::nullopt;
  }

 private:
  static bool ends_word(char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '{' || c == '}' || c == '(' || c == ')' ||
           c == '[' || c == ';' || c == '$';
  }

  void skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }

  std::optional<Token> skip_comment() {
    const int start = line_;
    for (++pos_; pos_ < text_.size(); ++pos_) {
      if (text_[pos_] == '\n') ++line_;
      if (text_[pos_] == '}') {
        ++pos_;
        return std::nullopt;
      }
    }
    return Token{TokenKind::Bad, start, "comment '{' never closed", ""};
  }

  // Variations nest and may hold comments (which may hold parentheses).
  std::optional<Token> skip_variation() {
    const int start = line_;
    int depth = 0;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '{') {
        if (std::optional<Token> bad = skip_comment()) return bad;
        continue;
      }
      if (c == '\n') ++line_;
      if (c == '(') ++depth;
      if (c == ')') --depth;
      ++pos_;
      if (depth == 0) return std::nullopt;
    }
    return Token{TokenKind::Bad, start, "variation '(' never closed", ""};
  }

  std::optional<Token> read_tag() {
    const int line = line_;
    ++pos_;  // '['
    auto skip_blanks = [this] {
      while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    };
    skip_blanks();
    Token tag{TokenKind::Tag, line, "", ""};
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      tag.text += text_[pos_++];
    skip_blanks();
    if (tag.text.empty() || pos_ >= text_.size() || text_[pos_] != '"') return bad_tag(line);
    for (++pos_; pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n'; ++pos_) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] != '\n') ++pos_;
      tag.value += text_[pos_];
    }
    if (pos_ >= text_.size() || text_[pos_] != '"') return bad_tag(line);
    ++pos_;
    skip_blanks();
    if (pos_ >= text_.size() || text_[pos_] != ']') return bad_tag(line);
    ++pos_;
    return tag;
  }

  Token bad_tag(int line) {
    skip_line();
    return Token{TokenKind::Bad, line, "malformed tag pair (expected [Name \"value\"])", ""};
  }

  Token read_word() {
    Token word{TokenKind::Word, line_, "", ""};
    while (pos_ < text_.size() && !ends_word(text_[pos_])) word.text += text_[pos_++];
    return word;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

bool is_result(std::string_view w) {
  constexpr std::array<std::string_view, 8> kResults = {"2-0", "0-2", "1-1",     "*",
                                                        "1-0", "0-1", "1/2-1/2", "0-0"};
  for (std::string_view r : kResults)
    if (w == r) return true;
  return false;
}

// Drops a leading move number ("12." "12...", or the "..." some writers put before Black's move)
// and trailing strength marks ("!", "?!").
std::string_view strip_move_decorations(std::string_view w) {
  std::size_t digits = 0;
  while (digits < w.size() && std::isdigit(static_cast<unsigned char>(w[digits]))) ++digits;
  if (digits < w.size() && w[digits] == '.') {
    w.remove_prefix(digits);
    while (!w.empty() && w.front() == '.') w.remove_prefix(1);
  }
  while (!w.empty() && (w.back() == '!' || w.back() == '?')) w.remove_suffix(1);
  return w;
}

// Numeric moves: our Hub form lists captured squares ("18x11x15"), PDN's lists landing squares
// ("27x18x9"). The Hub form's third square is a piece taken, the route's a square landed on (empty
// before the move), so at most one reading is legal, in either game.
Expected<Move> parse_pdn_move(const Position& p, std::string_view text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'h') return parse_algebraic(p, text);
  Expected<Move> hub = parse_hub_move(p, text);
  if (hub || text.find('x') == std::string_view::npos) return hub;
  std::string route;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('x', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view part = text.substr(start, end - start);
    const int n = parse_decimal(part, 2);
    if (n < 1 || n > 32) return hub;
    if (!route.empty()) route += ':';
    route += square_name(game_square(p.variant(), n), p.variant());
    start = end + 1;
  }
  Expected<Move> by_route = parse_algebraic(p, route);
  return by_route ? by_route : hub;
}

// Collects one game from the tokens; errors keep the first message and skip to the game's end.
class GameBuilder {
 public:
  GameBuilder(int number, int line, Variant untagged) : number_(number) {
    game_.first_line = line;
    current_ = game_.start = game_.start.with_variant(untagged);
  }

  bool in_movetext() const { return in_movetext_; }

  void add_tag(const Token& t) {
    game_.tags.emplace_back(t.text, t.value);
    if (error_) return;
    if (t.text == "GameType") set_variant(t.value);
    if (t.text != "FEN") return;
    fen_ = Token(t);
    read_fen();
  }

  // Returns true when the word ended the game (a result).
  bool add_word(const Token& t) {
    if (!in_movetext_) check_fen();
    in_movetext_ = true;
    if (is_result(t.text)) {
      game_.result = t.text;
      return true;
    }
    if (error_) return false;
    const std::string_view move = strip_move_decorations(t.text);
    if (move.empty()) return false;
    const Expected<Move> m = parse_pdn_move(current_, move);
    if (!m) {
      fail(t.line, move_label() + " \"" + std::string(move) + "\": " + m.error());
      return false;
    }
    game_.moves.push_back(*m);
    game_.move_lines.push_back(t.line);
    current_ = current_.after(*m);
    return false;
  }

  void fail(int line, const std::string& message) {
    if (!error_)
      error_ = "game " + std::to_string(number_) + ", line " + std::to_string(line) + ": " + message;
  }

  PdnGameOrError finish() {
    check_fen();
    if (error_) return Error{*error_};
    return std::move(game_);
  }

 private:
  // "move 12" for White's move, "move 12..." for Black's, counted from the start position.
  std::string move_label() const {
    const bool black_first = game_.start.side_to_move() == Color::Black;
    const std::size_t ply = game_.moves.size() + (black_first ? 1 : 0);
    return "move " + std::to_string(ply / 2 + 1) + (ply % 2 ? "..." : "");
  }

  // GameType "25" (or "25,W,8,8,A0,0") is Russian, each game's number its own; other types keep
  // Brazilian, as before variants. Tags come before the moves, so the start is all there is to
  // change, and a FEN read before is read again in the game's squares.
  void set_variant(std::string_view game_type) {
    const int n = parse_decimal(game_type.substr(0, game_type.find(',')), 3);
    const Variant v = variant_of_game_type(n).value_or(Variant::Brazilian);
    current_ = game_.start = game_.start.with_variant(v);
    if (fen_) read_fen();
  }

  // A FEN is judged once the tags are read: a GameType after it may change its squares.
  void read_fen() {
    const Expected<Position> start = parse_fen(fen_->value, game_.start.variant());
    if (start) current_ = game_.start = *start;
    game_.start_plies = fen_draw_plies(fen_->value);
    fen_error_ = start ? std::nullopt : std::optional<std::string>("FEN tag: " + start.error());
  }

  void check_fen() {
    if (fen_error_) fail(fen_->line, *fen_error_);
    fen_error_.reset();
  }

  int number_;
  PdnGame game_;
  Position current_ = Position::start();
  std::optional<Token> fen_;
  std::optional<std::string> fen_error_;
  std::optional<std::string> error_;
  bool in_movetext_ = false;
};

}  // namespace

std::vector<PdnGameOrError> read_pdn(std::string_view text, Variant untagged) {
  std::vector<PdnGameOrError> games;
  std::optional<GameBuilder> game;
  auto finish = [&] {
    if (game) games.push_back(game->finish());
    game.reset();
  };
  Lexer lexer(text);
  while (std::optional<Token> t = lexer.next()) {
    if (game && t->kind == TokenKind::Tag && game->in_movetext()) finish();  // tags open the next game
    if (!game) game.emplace(static_cast<int>(games.size()) + 1, t->line, untagged);
    switch (t->kind) {
      case TokenKind::Tag:
        game->add_tag(*t);
        break;
      case TokenKind::Bad:
        game->fail(t->line, t->text);
        break;
      case TokenKind::Word:
        if (game->add_word(*t)) finish();
        break;
    }
  }
  finish();
  return games;
}

}  // namespace damas
