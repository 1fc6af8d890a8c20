#include "damas/review/review.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "damas/core/score_text.h"
#include "damas/engine/engine.h"

namespace damas::review {
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

DrawRules rules_of(const PdnGame& pdn, DrawRules fallback) {
  if (const std::optional<std::string> tag = pdn.tag("DrawRules"))
    return parse_draw_rules(*tag).value_or(fallback);
  return fallback;
}

Mark mark_of(Score loss, const ReviewConfig& c) {
  if (loss >= c.blunder_margin) return Mark::Blunder;
  if (loss >= c.margin) return Mark::Mistake;
  if (loss >= c.inaccuracy_margin) return Mark::Inaccuracy;
  return Mark::None;
}

std::string summarise(const PdnGame& pdn, const GameReview& a) {
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
      const PlyReview& p = a.plies[errors[k]];
      const Position& before = a.game.positions()[errors[k]];
      out += (k ? ", " : "") + move_label(errors[k], first) + to_hub_move(before, p.played) +
             std::string(mark_style(p.mark).nag) + " loses " + loss_text(p.loss) + " (best " +
             to_hub_move(before, p.best) + ")";
    }
    out += "\n";
  }
  return out;
}

// Counts and average loss of one side's moves.
SideSummary side_summary(const GameReview& a, Color side) {
  SideSummary s;
  Score total = 0;
  for (std::size_t i = 0; i < a.plies.size(); ++i) {
    if (a.game.positions()[i].side_to_move() != side) continue;
    const PlyReview& p = a.plies[i];
    ++s.moves;
    total += p.loss;
    s.inaccuracies += p.mark == Mark::Inaccuracy;
    s.mistakes += p.mark == Mark::Mistake;
    s.blunders += p.mark == Mark::Blunder;
  }
  s.average_loss = s.moves ? total / 100.0 / s.moves : 0.0;
  return s;
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

std::vector<std::pair<std::string, std::string>> annotated_tags(const PdnGame& pdn) {
  std::vector<std::pair<std::string, std::string>> tags;
  for (const auto& [name, value] : pdn.tags)
    if (name != "Annotator") tags.emplace_back(name, value);  // to_pdn writes GameType, FEN, DrawRules
  tags.emplace_back("Annotator", "damas " DAMAS_VERSION);
  const bool has_result =
      std::any_of(tags.begin(), tags.end(), [](const auto& t) { return t.first == "Result"; });
  if (!has_result && !pdn.result.empty()) tags.emplace_back("Result", pdn.result);
  return tags;
}

}  // namespace

Status check_margins(const ReviewConfig& c) {
  if (c.inaccuracy_margin <= 0 || c.margin < c.inaccuracy_margin || c.blunder_margin < c.margin)
    return Error{"the margins must be positive and growing: inaccuracy <= mistake <= blunder"};
  return Ok{};
}

const MarkStyle& mark_style(Mark m) {
  // Indexed by Mark: None, Inaccuracy, Mistake, Blunder.
  static constexpr MarkStyle kStyles[] = {
      {"", "", "#888888"},
      {"?!", "inaccuracy", "#e6b800"},
      {"?", "mistake", "#f07800"},
      {"??", "blunder", "#d01c1c"},
  };
  return kStyles[static_cast<std::size_t>(m)];
}

double graph_value(Score s) {
  if (is_win_score(s)) return kGraphLimit;
  if (is_loss_score(s)) return -kGraphLimit;
  return std::clamp(s / 100.0, -kGraphLimit, kGraphLimit);
}

Reviewer::Reviewer(const PdnGame& pdn, const ReviewConfig& config)
    : pdn_(pdn),
      config_(config),
      game_(pdn.start, rules_of(pdn, config.default_rules)),
      results_(pdn.moves.size() + 1) {
  for (const Move& m : pdn_.moves) (void)game_.play(m);  // legal: the reader checked every move
}

void Reviewer::step(Engine& engine) {
  if (finished()) return;
  const std::size_t i = done_.load();
  const std::vector<Move> before(pdn_.moves.begin(), pdn_.moves.begin() + static_cast<std::ptrdiff_t>(i));
  // The game as it stood at position i: over by the rules there, or searched.
  Game at(game_.start(), game_.draw_rules());
  for (const Move& m : before) (void)at.play(m);
  if (at.over()) {
    results_[i].score = score_by_rules(at);
  } else {
    (void)engine.set_position(pdn_.start, before);
    // One line under the game's draw laws, whatever the engine's options say.
    results_[i] = engine.search(GoParams{
        .limits = config_.limits, .mode = GoMode::Analyze, .multipv = 1, .draw_rules = game_.draw_rules()});
  }
  ++done_;
}

GameReview Reviewer::result() const {
  GameReview a{game_, {}, {}, {}, {}, {}, {}};
  const std::size_t n = pdn_.moves.size();
  a.evals.push_back(white_view(results_[0].score, game_.start().side_to_move()));
  std::vector<Game::MoveAnnotation> notes;
  for (std::size_t i = 0; i < n && i + 1 < results_.size(); ++i) {
    const Position& pos = game_.positions()[i];
    const Color mover = pos.side_to_move();
    PlyReview p;
    p.played = pdn_.moves[i];
    const SearchResult& r = results_[i];
    p.best = r.best.is_null() ? p.played : r.best;
    p.best_score = r.score;
    p.best_line = r.pv.empty() ? std::vector<Move>{p.best} : r.pv;
    // The played move's score is the next position's, seen from the mover; the engine's own
    // choice keeps its score (two searches of one line differ by noise only).
    const Score played = p.played == p.best ? r.score : -results_[i + 1].score;
    p.loss = std::max(0, capped(r.score) - capped(played));
    p.eval_after = white_view(played, mover);
    p.mark = mark_of(p.loss, config_);
    a.evals.push_back(p.eval_after);
    std::string comment = white_score_text(p.eval_after);
    // Moves in the comment as in the move text, so the PDN reads the same throughout.
    const auto pdn_move = [&](const Position& at, const Move& m) {
      return to_pdn_move(at, m, config_.squares);
    };
    if (p.mark != Mark::None)
      comment += "; best " + pdn_move(pos, p.best) + " " + white_score_text(white_view(r.score, mover)) +
                 ": " + join_line(pos, p.best_line, pdn_move);
    notes.push_back({std::string(mark_style(p.mark).nag), comment});
    a.plies.push_back(std::move(p));
  }
  a.white = side_summary(a, Color::White);
  a.black = side_summary(a, Color::Black);
  a.annotated_pdn = a.game.to_pdn(annotated_tags(pdn_), notes, config_.squares);
  a.summary = summarise(pdn_, a);
  return a;
}

GameReview review_game(Engine& engine, const PdnGame& pdn, const ReviewConfig& config,
                       const ReviewProgress& progress) {
  engine.new_game();
  Reviewer reviewer(pdn, config);
  while (!reviewer.finished()) {
    reviewer.step(engine);
    if (progress) progress(reviewer.done(), reviewer.total());
  }
  return reviewer.result();
}

std::string line_text(Position p, const std::vector<Move>& line, bool algebraic, Numbering numbering) {
  return join_line(p, line, [&](const Position& at, const Move& m) {
    return algebraic ? to_algebraic(at, m) : to_hub_move(at, m, numbering);
  });
}

std::string move_label(std::size_t i, Color first) {
  const std::size_t shifted = i + (first == Color::Black ? 1 : 0);
  return std::to_string(shifted / 2 + 1) + (shifted % 2 == 0 ? ". " : "... ");
}

}  // namespace damas::review
