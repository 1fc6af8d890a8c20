#include "damas/cli/game_analysis.h"

#include <algorithm>
#include <cstdio>

#include "damas/core/notation.h"
#include "damas/engine/options.h"

namespace damas::cli {
namespace {

// Mate scores compared as one large value: "win in 7" against "win in 9" is no error.
constexpr Score kLossCap = 3000;
Score capped(Score s) { return std::clamp(s, -kLossCap, kLossCap); }

Score white_view(Score s, Color mover) { return mover == Color::White ? s : -s; }

// The score of a finished game for its side to move.
Score score_by_rules(const Game& g) {
  return g.end_reason() == GameEndReason::NoLegalMove ? -kScoreWin : kScoreDraw;
}

std::string loss_text(Score loss) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", loss / 100.0);
  return buf;
}

// "14." or "14..." for ply i of a game whose first mover is `first`.
std::string move_label(std::size_t i, Color first) {
  const std::size_t shifted = i + (first == Color::Black ? 1 : 0);
  return std::to_string(shifted / 2 + 1) + (shifted % 2 == 0 ? ". " : "... ");
}

std::string summarise(const PdnGame& pdn, const GameAnalysis& a) {
  std::string out = "White " + pdn.tag("White").value_or("?") + " - Black " + pdn.tag("Black").value_or("?") +
                    ", " + std::to_string(a.plies.size()) + " plies, result " +
                    pdn.tag("Result").value_or(pdn.result) + "\n";
  const Color first = a.game.start().side_to_move();
  for (Color side : {Color::White, Color::Black}) {
    std::vector<std::size_t> errors;
    for (std::size_t i = 0; i < a.plies.size(); ++i)
      if (a.game.positions()[i].side_to_move() == side && a.plies[i].loss > 0) errors.push_back(i);
    std::stable_sort(errors.begin(), errors.end(),
                     [&](std::size_t x, std::size_t y) { return a.plies[x].loss > a.plies[y].loss; });
    if (errors.size() > 3) errors.resize(3);
    out += side == Color::White ? "  White: " : "  Black: ";
    if (errors.empty()) out += "no move lost against the engine's choice";
    for (std::size_t k = 0; k < errors.size(); ++k) {
      const PlyAnalysis& p = a.plies[errors[k]];
      out += (k ? ", " : "") + move_label(errors[k], first) + to_hub_move(p.played) + p.mark + " loses " +
             loss_text(p.loss) + " (best " + to_hub_move(p.best) + ")";
    }
    out += "\n";
  }
  return out;
}

// The moves of a line from p, each written by `text(position before it, move)`.
template <class MoveText>
std::string join_line(Position p, const std::vector<Move>& line, MoveText text) {
  std::string out;
  for (const Move& m : line) {
    if (!out.empty()) out += ' ';
    out += text(p, m);
    p = p.after(m);
  }
  return out;
}

}  // namespace

std::string line_text(Position p, const std::vector<Move>& line, bool algebraic, Numbering numbering) {
  return join_line(p, line, [&](const Position& at, const Move& m) {
    return algebraic ? to_algebraic(at, m) : to_hub_move(m, numbering);
  });
}

std::string eval_text(Score s) {
  if (is_win_score(s)) return "White wins in " + std::to_string(kScoreWin - s);
  if (is_loss_score(s)) return "Black wins in " + std::to_string(kScoreWin + s);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f", s / 100.0);
  return buf;
}

GameAnalysis analyse_game(Engine& engine, const PdnGame& pdn, const AnalysisConfig& config,
                          const AnalysisProgress& progress) {
  DrawRules rules = config.default_rules;
  if (const std::optional<std::string> tag = pdn.tag("DrawRules"))
    rules = parse_draw_rules(*tag).value_or(rules);
  engine.set_option(option::kDrawRules, to_string(rules));
  engine.new_game();

  GameAnalysis a{Game(pdn.start, rules), {}, {}, {}};
  const std::size_t n = pdn.moves.size();
  // Each position's best move and score for its side to move; by the rules once the game is over.
  std::vector<SearchResult> results(n + 1);
  for (std::size_t i = 0; i <= n; ++i) {
    if (a.game.over()) {
      results[i].score = score_by_rules(a.game);
    } else {
      const std::vector<Move> before(pdn.moves.begin(), pdn.moves.begin() + static_cast<std::ptrdiff_t>(i));
      engine.set_position(pdn.start, before);
      results[i] = engine.search(config.limits, GoMode::Analyze);
    }
    if (progress) progress(i + 1, n + 1);
    if (i < n) a.game.play(pdn.moves[i]);  // legal: the reader checked every move
  }

  std::vector<Game::MoveAnnotation> notes;
  for (std::size_t i = 0; i < n; ++i) {
    const Position& pos = a.game.positions()[i];
    const Color mover = pos.side_to_move();
    PlyAnalysis p;
    p.played = pdn.moves[i];
    const SearchResult& r = results[i];
    p.best = r.best.is_null() ? p.played : r.best;
    p.best_score = r.score;
    p.best_line = r.pv.empty() ? std::vector<Move>{p.best} : r.pv;
    // The played move's score is the next position's, seen from the mover; the engine's own
    // choice keeps its score (two searches of one line differ by noise only).
    const Score played = p.played == p.best ? r.score : -results[i + 1].score;
    p.loss = std::max(0, capped(r.score) - capped(played));
    p.eval_after = white_view(played, mover);
    if (p.loss >= config.blunder_margin) p.mark = "??";
    else if (p.loss >= config.margin) p.mark = "?";
    std::string comment = eval_text(p.eval_after);
    // Moves in the comment as in the move text, so the PDN reads the same throughout.
    const auto pdn_move = [&](const Position& at, const Move& m) {
      return to_pdn_move(at, m, config.squares);
    };
    if (!p.mark.empty())
      comment += "; best " + pdn_move(pos, p.best) + " " + eval_text(white_view(r.score, mover)) + ": " +
                 join_line(pos, p.best_line, pdn_move);
    notes.push_back({p.mark, comment});
    a.plies.push_back(std::move(p));
  }

  std::vector<std::pair<std::string, std::string>> tags;
  for (const auto& [name, value] : pdn.tags)
    if (name != "Annotator") tags.emplace_back(name, value);  // to_pdn writes GameType, FEN, DrawRules
  tags.emplace_back("Annotator", "damas " DAMAS_VERSION);
  const bool has_result =
      std::any_of(tags.begin(), tags.end(), [](const auto& t) { return t.first == "Result"; });
  if (!has_result && !pdn.result.empty()) tags.emplace_back("Result", pdn.result);
  a.annotated_pdn = a.game.to_pdn(tags, notes, config.squares);
  a.summary = summarise(pdn, a);
  return a;
}

}  // namespace damas::cli
