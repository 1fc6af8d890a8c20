#include "review_views.h"

#include <cmath>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"
#include "views.h"

namespace damas::web {
namespace {

Json side_json(const review::SideSummary& s) {
  Json j = Json::object();
  j.set("moves", json_num(s.moves));
  j.set("inaccuracies", json_num(s.inaccuracies));
  j.set("mistakes", json_num(s.mistakes));
  j.set("blunders", json_num(s.blunders));
  j.set("average_loss", json_num(std::round(s.average_loss * 100) / 100));
  return j;
}

Json review_json(const review::GameReview& r) {
  Json j = Json::object();
  j.set("limit", json_num(review::kGraphLimit));
  Json colours = Json::object();
  for (const review::Mark m : {review::Mark::Inaccuracy, review::Mark::Mistake, review::Mark::Blunder})
    colours.set(std::string(review::mark_style(m).name), json_str(review::mark_style(m).colour));
  j.set("colours", std::move(colours));
  Json evals = Json::array();
  for (std::size_t i = 0; i < r.evals.size(); ++i) {
    Json e = Json::object();
    e.set("ply", json_num(static_cast<double>(i)));
    e.set("white_score", json_num(r.evals[i]));
    e.set("value", json_num(review::graph_value(r.evals[i])));
    e.set("text", json_str(white_score_text(r.evals[i])));
    evals.push(std::move(e));
  }
  j.set("evals", std::move(evals));
  Json plies = Json::array();
  for (std::size_t i = 0; i < r.plies.size(); ++i) {
    const review::PlyReview& p = r.plies[i];
    const Position& before = r.game.positions()[i];
    Json e = Json::object();
    e.set("ply", json_num(static_cast<double>(i + 1)));
    e.set("side", json_str(color_name(before.side_to_move())));
    e.set("text", json_str(to_algebraic(before, p.played)));
    e.set("mark", json_str(review::mark_style(p.mark).name));
    e.set("nag", json_str(review::mark_style(p.mark).nag));
    e.set("loss", json_num(p.loss / 100.0));
    e.set("best", json_str(to_algebraic(before, p.best)));
    e.set("best_line", pv_json(before, p.best_line));
    plies.push(std::move(e));
  }
  j.set("plies", std::move(plies));
  j.set("white", side_json(r.white));
  j.set("black", side_json(r.black));
  j.set("pdn", json_str(r.annotated_pdn));
  return j;
}

}  // namespace

bool same_game(const Game& a, const Game& b) { return a.start() == b.start() && a.moves() == b.moves(); }

Json review_progress_json(const std::string& id, const Session& s) {
  Json j = Json::object();
  j.set("session", json_str(id));
  j.set("reviewing", json_bool(s.reviewer != nullptr));
  j.set("done", json_num(s.reviewer ? static_cast<double>(s.reviewer->done()) : 0));
  j.set("total", json_num(s.reviewer ? static_cast<double>(s.reviewer->total()) : 0));
  const bool finished = !s.reviewer && s.reviewed && same_game(s.reviewed->game, s.line);
  j.set("finished", json_bool(finished));
  if (finished) j.set("review", review_json(*s.reviewed));
  return j;
}

Json review_line_json(const std::string& id, const review::GameReview& r, std::size_t ply) {
  const std::size_t i = ply - 1;
  // The position before move `ply`, then each position of the engine's line from there.
  Position p = r.game.positions()[i];
  Json steps = Json::array();
  Json first = Json::object();
  first.set("pieces", pieces_json(p));
  first.set("side", json_str(color_name(p.side_to_move())));
  steps.push(std::move(first));
  for (const Move& m : legal_prefix(p, r.plies[i].best_line)) {
    Json step = Json::object();
    step.set("text", json_str(to_algebraic(p, m)));
    p = p.after(m);
    step.set("pieces", pieces_json(p));
    step.set("side", json_str(color_name(p.side_to_move())));
    step.set("last_move", last_move_json(m, p.variant()));
    steps.push(std::move(step));
  }
  Json j = Json::object();
  j.set("session", json_str(id));
  j.set("ply", json_num(static_cast<double>(ply)));
  j.set("steps", std::move(steps));
  return j;
}

}  // namespace damas::web
