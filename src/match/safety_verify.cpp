#include "damas/match/safety_verify.h"

#include <algorithm>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"
#include "damas/engine/options.h"

namespace damas {

Status SafetyVerifier::configure(const OptionList& options) {
  for (Engine* engine : {&deep_, &pruning_free_}) {
    if (Status s = configure_in_process_engine(*engine, options, DrawRules::Seed, Variant::Brazilian); !s)
      return s;
    if (Status s = engine->set_option(option::kThreads, "1"); !s) return s;
  }
  for (std::string_view knob : {option::kProbCut, option::kLmr})
    if (Status s = pruning_free_.set_option(knob, "false"); !s) return s;
  return Ok{};
}

SafetyVerifier::Child SafetyVerifier::search_after(Engine& engine, const Position& p, const Move& m,
                                                   Verdict& v) {
  Child child;
  child.line.push_back(m);
  if (!has_legal_move(p.after(m))) {
    child.score = win_in(1);  // the opponent cannot move: m wins
    return child;
  }
  engine.new_game();
  if (!engine.set_position(p, {m})) return child;  // m is legal: cannot happen
  SearchLimits limits;
  limits.nodes = deep_nodes_;
  const SearchResult r = engine.search(limits, GoMode::Analyze);
  ++v.searches;
  v.nodes += r.nodes;
  child.score = static_cast<Score>(-r.score);
  child.line.insert(child.line.end(), r.pv.begin(), r.pv.end());
  return child;
}

namespace {

std::string compared(std::string_view what, const Move& best, Score best_score, const Move& played,
                     Score played_score) {
  return std::string(what) + ": " + to_hub_move(best) + " " + score_text(best_score) + ", played " +
         to_hub_move(played) + " " + score_text(played_score);
}

// Step 4's entry from every root move's score: the best first, the refuted ones after the played move.
SafetyPosition make_entry(const Position& p, const std::vector<MoveScore>& scores, const Move& played,
                          std::vector<Move> line) {
  SafetyPosition entry;
  entry.position = p;
  entry.game_start = p;  // no game: the caller gives it
  entry.best = *std::max_element(scores.begin(), scores.end(),
                                 [](const MoveScore& a, const MoveScore& b) { return a.score < b.score; });
  for (const MoveScore& s : scores)
    if (s.move == played) entry.refuted.push_back(s);
  std::vector<MoveScore> others;
  for (const MoveScore& s : scores)
    if (s.move != played && loses_a_man(entry.best.score, s.score)) others.push_back(s);
  std::stable_sort(others.begin(), others.end(),
                   [](const MoveScore& a, const MoveScore& b) { return a.score > b.score; });
  entry.refuted.insert(entry.refuted.end(), others.begin(), others.end());
  entry.line = std::move(line);
  return entry;
}

}  // namespace

Verdict SafetyVerifier::verify(const Position& p, const Move& played) {
  Verdict v;
  deep_.new_game();
  (void)deep_.set_position(p);
  SearchLimits limits;
  limits.nodes = deep_nodes_;
  const SearchResult root = deep_.search(limits, GoMode::Analyze);
  ++v.searches;
  v.nodes += root.nodes;
  if (root.best == played) {
    v.step = 1;
    v.why = "the deep search plays " + to_hub_move(played) + " too, " + score_text(root.score);
    return v;
  }
  const Child deep_played = search_after(deep_, p, played, v);
  if (!loses_a_man(root.score, deep_played.score)) {
    v.step = 2;
    v.why = compared("deep", root.best, root.score, played, deep_played.score);
    return v;
  }
  const Child free_played = search_after(pruning_free_, p, played, v);
  const Child free_best = search_after(pruning_free_, p, root.best, v);
  if (!loses_a_man(free_best.score, free_played.score)) {
    v.step = 3;
    v.why = compared("pruning-free", root.best, free_best.score, played, free_played.score);
    return v;
  }
  MoveList moves;
  generate_legal_moves(p, moves);
  std::vector<MoveScore> scores;
  for (const Move& m : moves)
    scores.push_back({m, m == played ? deep_played.score : search_after(deep_, p, m, v).score});
  v.entry = make_entry(p, scores, played, deep_played.line);
  if (!loses_a_man(v.entry.best.score, deep_played.score)) {
    v.step = 4;
    v.why = compared("every root move", v.entry.best.move, v.entry.best.score, played, deep_played.score);
    return v;
  }
  v.refuted = true;
  v.why = compared("refuted", v.entry.best.move, v.entry.best.score, played, deep_played.score) +
          "; pruning-free " + score_text(free_best.score) + " against " + score_text(free_played.score);
  return v;
}

}  // namespace damas
