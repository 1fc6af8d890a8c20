#include "damas/match/safety_set.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

#include "damas/core/file_check.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/text_lines.h"

namespace damas {

bool loses_a_man(Score best, Score other) {
  if (is_win_score(best) && is_win_score(other)) return false;
  if (is_loss_score(best) && is_loss_score(other)) return false;
  return best - other >= kMan;
}

bool SafetyPosition::is_refuted(const Move& m) const {
  return std::any_of(refuted.begin(), refuted.end(), [&](const MoveScore& r) { return r.move == m; });
}

namespace {

std::vector<std::string_view> words(std::string_view text) {
  std::vector<std::string_view> out;
  while (!(text = trim(text)).empty()) {
    const auto end = text.find_first_of(" \t");
    out.push_back(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end);
  }
  return out;
}

// "+35", "-130", "0".
Expected<Score> parse_score(std::string_view text) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  Score value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || value > kScoreInfinite ||
      value < -kScoreInfinite)
    return Error{"bad score \"" + std::string(text) + "\""};
  return value;
}

// "22-18/-130": a legal move of p and its score.
Expected<MoveScore> parse_move_score(const Position& p, std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return Error{"expected move/score, not \"" + std::string(text) + "\""};
  Expected<Move> move = parse_hub_move(p, text.substr(0, slash));
  if (!move) return Error{move.error()};
  Expected<Score> score = parse_score(text.substr(slash + 1));
  if (!score) return Error{score.error()};
  return MoveScore{*move, *score};
}

// The words of a field after its label ("refuted", "best", "line"), which must be there.
Expected<std::vector<std::string_view>> labelled(std::string_view field, std::string_view label) {
  std::vector<std::string_view> w = words(field);
  if (w.empty() || w.front() != label)
    return Error{"expected the field \"" + std::string(label) + " ...\", not \"" + std::string(trim(field)) +
                 "\""};
  w.erase(w.begin());
  if (w.empty()) return Error{"the field \"" + std::string(label) + "\" is empty"};
  return w;
}

Status parse_moves_fields(SafetyPosition& s, std::string_view refuted, std::string_view best) {
  Expected<std::vector<std::string_view>> refuted_words = labelled(refuted, "refuted");
  if (!refuted_words) return Error{refuted_words.error()};
  for (std::string_view w : *refuted_words) {
    Expected<MoveScore> r = parse_move_score(s.position, w);
    if (!r) return Error{r.error()};
    if (s.is_refuted(r->move)) return Error{"the move " + to_hub_move(r->move) + " is listed twice"};
    s.refuted.push_back(*r);
  }
  Expected<std::vector<std::string_view>> best_words = labelled(best, "best");
  if (!best_words) return Error{best_words.error()};
  if (best_words->size() != 1) return Error{"the field \"best\" takes one move/score"};
  Expected<MoveScore> b = parse_move_score(s.position, best_words->front());
  if (!b) return Error{b.error()};
  s.best = *b;
  if (s.is_refuted(s.best.move)) return Error{"the best move " + to_hub_move(s.best.move) + " is refuted"};
  for (const MoveScore& r : s.refuted)
    if (!loses_a_man(s.best.score, r.score))
      return Error{"the refuted move " + to_hub_move(r.move) + " does not lose a man against the best move"};
  return Ok{};
}

Status parse_line_field(SafetyPosition& s, std::string_view field) {
  Expected<std::vector<std::string_view>> line_words = labelled(field, "line");
  if (!line_words) return Error{line_words.error()};
  Position p = s.position;
  for (std::string_view w : *line_words) {
    Expected<Move> m = parse_hub_move(p, w);
    if (!m) return Error{"line, move " + std::to_string(s.line.size() + 1) + ": " + m.error()};
    s.line.push_back(*m);
    p = p.after(*m);
  }
  if (s.line.front() != s.played()) return Error{"the line does not start with the refuted move played"};
  return Ok{};
}

Status parse_game_field(SafetyPosition& s, std::string_view field) {
  Expected<std::vector<std::string_view>> game_words = labelled(field, "game");
  if (!game_words) return Error{game_words.error()};
  Expected<Position> start = parse_fen(game_words->front());
  if (!start) return Error{"game: " + start.error()};
  s.game_start = *start;
  Position p = s.game_start;
  for (std::size_t i = 1; i < game_words->size(); ++i) {
    Expected<Move> m = parse_hub_move(p, (*game_words)[i]);
    if (!m) return Error{"game, move " + std::to_string(i) + ": " + m.error()};
    s.game.push_back(*m);
    p = p.after(*m);
  }
  if (to_fen(p) != to_fen(s.position)) return Error{"the game does not reach the position"};
  return Ok{};
}

Expected<SafetyPosition> parse_position_line(std::string_view text) {
  std::vector<std::string_view> fields;
  for (int i = 0; i < 5; ++i) {
    const auto bar = text.find('|');
    if (bar == std::string_view::npos)
      return Error{"expected \"FEN | refuted M/S ... | best M/S | line M ... | game FEN M ... | source\""};
    fields.push_back(text.substr(0, bar));
    text = text.substr(bar + 1);
  }
  SafetyPosition s;
  Expected<Position> p = parse_fen(trim(fields[0]));
  if (!p) return Error{p.error()};
  s.position = *p;
  if (!has_legal_move(s.position)) return Error{"the side to move has no legal move"};
  if (Status st = parse_moves_fields(s, fields[1], fields[2]); !st) return Error{st.error()};
  if (Status st = parse_line_field(s, fields[3]); !st) return Error{st.error()};
  if (Status st = parse_game_field(s, fields[4]); !st) return Error{st.error()};
  s.source = std::string(trim(text));
  return s;
}

// The comment lines before the first data line.
std::vector<std::string> header_lines(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    const std::string_view line = trim(text.substr(0, eol));
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    if (line.empty()) continue;
    if (line.front() != '#') break;
    out.emplace_back(line);
  }
  return out;
}

}  // namespace

Expected<SafetySet> parse_safety_set(std::string_view text, const std::string& source) {
  SafetySet set;
  set.header = header_lines(text);
  const std::vector<DataLine> lines = data_lines(text, CommentStyle::WholeLineOnly);
  if (lines.empty() || lines.front().text != kSafetySetVersion)
    return Error{line_location(source, lines.empty() ? 1 : lines.front().number) +
                 "expected the version line \"" + std::string(kSafetySetVersion) + "\""};
  std::map<std::string, int> seen;  // FEN -> line
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string where = line_location(source, lines[i].number);
    Expected<SafetyPosition> s = parse_position_line(lines[i].text);
    if (!s) return Error{where + s.error()};
    s->line_number = lines[i].number;
    const auto [it, fresh] = seen.emplace(to_fen(s->position), lines[i].number);
    if (!fresh) return Error{where + "the position of line " + std::to_string(it->second) + " again"};
    set.positions.push_back(std::move(s).value());
  }
  return set;
}

Expected<SafetySet> load_safety_set(const std::string& path) {
  Expected<std::string> text = read_text_file(path, "safety set");
  if (!text) return Error{text.error()};
  return parse_safety_set(*text, path);
}

std::string safety_line(const SafetyPosition& p) {
  auto move_score = [](const MoveScore& m) {
    char score[16];
    std::snprintf(score, sizeof score, "%+d", m.score);
    return to_hub_move(m.move) + "/" + score;
  };
  std::string out = to_fen(p.position);
  out += " | refuted";
  for (const MoveScore& r : p.refuted) out.append(" ").append(move_score(r));
  out.append(" | best ").append(move_score(p.best)).append(" | line");
  for (const Move& m : p.line) out.append(" ").append(to_hub_move(m));
  out.append(" | game ").append(to_fen(p.game_start));
  for (const Move& m : p.game) out.append(" ").append(to_hub_move(m));
  out.append(" | ").append(p.source);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string format_safety_set(const SafetySet& set) {
  std::string out;
  for (const std::string& line : set.header) out += (line.starts_with('#') ? line : "# " + line) + "\n";
  out += std::string(kSafetySetVersion) + "\n";
  for (const SafetyPosition& p : set.positions) out += safety_line(p) + "\n";
  return out;
}

Status write_safety_set(const std::string& path, const SafetySet& set) {
  if (Status s = check_output_file(path, "safety set"); !s) return s;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << format_safety_set(set);
    out.flush();
    if (!out) return Error{"cannot write " + tmp};
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Error{"cannot rename " + tmp + " to " + path + ": " + ec.message()};
  return Ok{};
}

}  // namespace damas
