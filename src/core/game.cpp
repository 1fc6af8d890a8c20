#include "damas/core/game.h"

#include <algorithm>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"

namespace damas {

Game::Game(const Position& start, DrawRules rules, int start_plies)
    : start_plies_(start_plies), rules_(rules) {
  positions_.push_back(start);
  counters_.push_back(start_counters(rules, start_plies));
}

Status Game::play(const Move& m) {
  if (!is_legal(current(), m)) return Error{"illegal move " + to_hub_move(current(), m)};
  const Position next = current().after(m);
  counters_.push_back(advance_counters(rules_, counters_.back(), current(), next));
  positions_.push_back(next);
  moves_.push_back(m);
  return Ok{};
}

void Game::undo(int plies) {
  const int n = std::clamp(plies, 0, static_cast<int>(moves_.size()));
  for (int i = 0; i < n; ++i) {
    moves_.pop_back();
    positions_.pop_back();
    counters_.pop_back();
  }
}

int Game::repetitions() const {
  const Position& now = current();
  int count = 0;
  // Only positions since the last irreversible move can repeat; they share the side to move
  // every second ply.
  const std::size_t window =
      std::min<std::size_t>(positions_.size() - 1, static_cast<std::size_t>(now.reversible_plies()));
  for (std::size_t back = 0; back <= window; back += 2) {
    const Position& p = positions_[positions_.size() - 1 - back];
    if (p.key() == now.key() && p == now) ++count;
  }
  return count;
}

GameEndReason Game::end_reason() const {
  if (!has_legal_move(current())) return GameEndReason::NoLegalMove;
  if (repetitions() >= rules::kRepetitionDrawCount) return GameEndReason::Repetition;
  if (counts_plies(rules_)) {
    if (drawn_by_law(current(), rules_, draw_counters())) return GameEndReason::DrawLaw;
  } else if (current().reversible_plies() >= rules::kNoProgressDrawPlies) {
    return GameEndReason::NoProgress;
  }
  return GameEndReason::None;
}

const DrawLaw* Game::draw_law() const { return law_in_force(current(), rules_, draw_counters()); }

std::string Game::end_description() const {
  const GameEndReason r = end_reason();
  if (r == GameEndReason::DrawLaw) {
    const DrawLaw* law = draw_law();
    const std::string_view source = rules_ == DrawRules::Portuguese ? "Portuguese rule " : "FMJD-64 ";
    return std::string(source) + std::string(law->article) + ": " + std::string(law->text);
  }
  return to_string(r);
}

GameResult Game::result() const {
  switch (end_reason()) {
    case GameEndReason::NoLegalMove:
      return current().side_to_move() == Color::White ? GameResult::BlackWins : GameResult::WhiteWins;
    case GameEndReason::Repetition:
    case GameEndReason::NoProgress:
    case GameEndReason::DrawLaw:
      return GameResult::Draw;
    case GameEndReason::None:
    case GameEndReason::Adjudication:
      break;
  }
  return GameResult::Ongoing;
}

namespace {

// [Name "value"] with the value escaped as PDN strings are (\" and \\); a tag stays on one line.
std::string tag_pair(const std::string& name, const std::string& value) {
  std::string out = "[" + name + " \"";
  for (const char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += static_cast<unsigned char>(c) < 32 ? ' ' : c;
  }
  return out + "\"]\n";
}

}  // namespace

std::string Game::to_pdn(const std::vector<std::pair<std::string, std::string>>& tags,
                         const std::vector<MoveAnnotation>& annotations, PdnSquares squares) const {
  std::string out;
  // A Result tag (a game ended by adjudication, a claim or a lost connection) overrides the
  // result by the rules, in the tag and at the end of the move text.
  std::string result_text = to_string(result());
  bool has_result = false;
  for (const auto& [name, value] : tags) {
    if (name == "GameType" || name == "DrawRules" || name == "FEN") continue;
    out += tag_pair(name, value);
    if (name == "Result") {
      has_result = true;
      result_text = value;
    }
  }
  out += tag_pair("GameType", std::string(rules::of(start().variant()).pdn_game_type_tag));
  out += tag_pair("DrawRules", std::string(to_string(rules_)));
  if (!(start() == Position::start(start().variant())))
    out += tag_pair(
        "FEN", to_fen(start(), squares == PdnSquares::Algebraic ? FenStyle::Algebraic : FenStyle::Numeric));
  if (!has_result) out += tag_pair("Result", result_text);
  out += "\n";
  int move_number = 1;
  std::size_t line_length = 0;
  auto emit = [&](const std::string& token) {
    if (line_length + token.size() + 1 > 80) {
      out += "\n";
      line_length = 0;
    } else if (line_length > 0) {
      out += " ";
      ++line_length;
    }
    out += token;
    line_length += token.size();
  };
  for (std::size_t i = 0; i < moves_.size(); ++i) {
    const Color mover = positions_[i].side_to_move();
    if (mover == Color::White) emit(std::to_string(move_number) + ".");
    else if (i == 0) emit(std::to_string(move_number) + "...");
    const MoveAnnotation* note = i < annotations.size() ? &annotations[i] : nullptr;
    emit(to_pdn_move(positions_[i], moves_[i], squares) + (note ? note->mark : std::string()));
    if (note && !note->comment.empty()) {
      // Split into words so lines stay short; a brace inside would end the comment early.
      std::vector<std::string> words;
      std::string word;
      for (const char ch : note->comment + " ") {
        if (ch != ' ') {
          word += ch == '{' ? '(' : ch == '}' ? ')' : ch;
        } else if (!word.empty()) {
          words.push_back(word);
          word.clear();
        }
      }
      if (!words.empty()) {
        words.front() = "{" + words.front();
        words.back() += "}";
      }
      for (const std::string& w : words) emit(w);
      // A comment between White's and Black's move: Black's move gets its number again.
      if (mover == Color::White && i + 1 < moves_.size()) emit(std::to_string(move_number) + "...");
    }
    if (mover == Color::Black) ++move_number;
  }
  emit(result_text);
  out += "\n";
  return out;
}

std::string to_string(GameResult r) {
  switch (r) {
    case GameResult::WhiteWins:
      return "2-0";
    case GameResult::BlackWins:
      return "0-2";
    case GameResult::Draw:
      return "1-1";
    case GameResult::Ongoing:
      break;
  }
  return "*";
}

std::string to_string(GameEndReason r) {
  switch (r) {
    case GameEndReason::NoLegalMove:
      return "no legal move";
    case GameEndReason::Repetition:
      return "threefold repetition";
    case GameEndReason::NoProgress:
      return "80 plies without capture or man move";
    case GameEndReason::DrawLaw:
      return "draw law";
    case GameEndReason::Adjudication:
      return "adjudication";
    case GameEndReason::None:
      break;
  }
  return "game in progress";
}

}  // namespace damas
