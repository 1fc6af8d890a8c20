#include "damas/cli/tactics.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/text_lines.h"

namespace damas {
Expected<std::vector<TacticsPosition>> parse_tactics(std::string_view text, const std::string& source) {
  std::vector<TacticsPosition> out;
  // '#' may stand in a comment ("stage of #2"): only whole lines are comments here.
  for (const DataLine& line : data_lines(text, CommentStyle::WholeLineOnly)) {
    const std::string where = line_location(source, line.number);
    const std::string_view content = line.text;
    const auto bar1 = content.find('|');
    const auto bar2 = bar1 == std::string::npos ? std::string::npos : content.find('|', bar1 + 1);
    if (bar2 == std::string::npos) return Error{where + "expected \"FEN | solution | comment\""};
    TacticsPosition t;
    t.line = line.number;
    t.fen = std::string(trim(content.substr(0, bar1)));
    t.comment = std::string(trim(content.substr(bar2 + 1)));
    Expected<Position> p = parse_fen(t.fen);
    if (!p) return Error{where + p.error()};
    t.position = *p;
    if (!has_legal_move(t.position)) return Error{where + "the side to move has no legal move"};
    std::istringstream solutions(std::string(trim(content.substr(bar1 + 1, bar2 - bar1 - 1))));
    std::string token;
    while (std::getline(solutions, token, ',')) {
      Expected<Move> m = parse_hub_move(t.position, trim(token));
      if (!m) return Error{where + m.error()};
      t.solutions.push_back(*m);
    }
    if (t.solutions.empty()) return Error{where + "no solution move"};
    out.push_back(std::move(t));
  }
  if (out.empty()) return Error{source + ": no positions"};
  return out;
}

Expected<std::vector<TacticsPosition>> load_tactics(const std::string& path) {
  Expected<std::string> text = read_text_file(path, "tactics file");
  if (!text) return Error{text.error()};
  return parse_tactics(*text, path);
}

TacticsAttempt attempt(Engine& engine, const TacticsPosition& t, const SearchLimits& limits) {
  TacticsAttempt a;
  engine.new_game();
  if (!engine.set_position(t.position)) return a;
  a.result = engine.search(limits, GoMode::Analyze);
  a.solved = std::find(t.solutions.begin(), t.solutions.end(), a.result.best) != t.solutions.end();
  return a;
}

std::vector<RootScore> score_root_moves(Engine& engine, const Position& p, int depth) {
  MoveList moves;
  generate_legal_moves(p, moves);
  std::vector<RootScore> out;
  SearchLimits limits;
  limits.depth = std::max(1, depth - 1);
  for (const Move& m : moves) {
    engine.new_game();
    RootScore r{m, 0};
    if (engine.set_position(p, {m})) {
      const Position after = p.after(m);
      r.score = has_legal_move(after) ? static_cast<Score>(-engine.search(limits, GoMode::Analyze).score)
                                      : win_in(1);
    }
    out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const RootScore& x, const RootScore& y) { return x.score > y.score; });
  return out;
}

}  // namespace damas
