#include "views.h"

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"

namespace damas::web {

std::string color_name(Color c) { return c == Color::White ? "white" : "black"; }

namespace {

std::string end_reason_text(const Game& g) {
  if (!g.over()) return "";
  const Position& p = g.current();
  if (g.end_reason() == GameEndReason::NoLegalMove && p.pieces(p.side_to_move()) == 0)
    return "no pieces left";
  if (g.end_reason() == GameEndReason::DrawLaw) return g.end_description();  // names the article
  return to_string(g.end_reason());
}

}  // namespace

Json square_json(Square s, Variant v) { return json_str(square_name(s, v)); }

Json square_list(Bitboard b, Variant v) {
  Json a = Json::array();
  for (; b; b &= b - 1) a.push(square_json(lowest_square(b), v));
  return a;
}

Json last_move_json(const Move& m, Variant v) {
  Json lm = Json::object();
  lm.set("from", square_json(m.from, v));
  lm.set("to", square_json(m.to, v));
  lm.set("captured", square_list(m.captured, v));
  return lm;
}

Json move_json(const Position& p, const Move& m) {
  const Variant v = p.variant();
  Json j = Json::object();
  j.set("text", json_str(to_algebraic(p, m)));
  j.set("id", json_str(to_hub_move(p, m)));  // the game's numbers, as `move` reads them
  j.set("from", square_json(m.from, v));
  j.set("to", square_json(m.to, v));
  j.set("captured", square_list(m.captured, v));
  Json routes = Json::array();
  for (const std::vector<Square>& r : capture_routes(p, m)) {
    Json route = Json::array();
    for (const Square s : r) route.push(square_json(s, v));
    routes.push(std::move(route));
  }
  if (!m.is_capture()) routes.push(Json::array({square_json(m.to, v)}));
  j.set("routes", std::move(routes));
  return j;
}

Json pieces_json(const Position& p) {
  Json a = Json::array();
  for (const Color c : {Color::White, Color::Black})
    for (Bitboard b = p.pieces(c); b; b &= b - 1) {
      const Square s = lowest_square(b);
      Json piece = Json::object();
      piece.set("square", square_json(s, p.variant()));
      piece.set("color", json_str(color_name(c)));
      piece.set("king", json_bool((p.kings() & bb(s)) != 0));
      a.push(std::move(piece));
    }
  return a;
}

Json result_json(const Game& g) {
  Json r = Json::object();
  const GameResult res = g.result();
  r.set("over", json_bool(res != GameResult::Ongoing));
  r.set("score", json_str(to_string(res)));
  r.set("winner", res == GameResult::WhiteWins   ? json_str("white")
                  : res == GameResult::BlackWins ? json_str("black")
                                                 : Json());
  r.set("reason", json_str(end_reason_text(g)));
  std::string text;
  if (res == GameResult::WhiteWins) text = "White wins";
  else if (res == GameResult::BlackWins) text = "Black wins";
  else if (res == GameResult::Draw) text = "Draw";
  if (!text.empty()) text += " (" + end_reason_text(g) + ")";
  r.set("text", json_str(text));
  return r;
}

namespace {
std::string mode_name(Mode m) { return m == Mode::Computer ? "computer" : "two-players"; }
}  // namespace

Json state_json(const std::string& id, const Session& s) {
  const Game g = game_at_cursor(s);
  const Position& p = g.current();
  Json j = Json::object();
  j.set("session", json_str(id));
  j.set("mode", json_str(mode_name(s.mode)));
  j.set("level", json_str(s.level));
  j.set("human", json_str(color_name(s.human)));
  j.set("movetime", json_num(s.movetime));
  const Variant variant = s.line.start().variant();
  j.set("variant", json_str(std::string(to_string(variant))));
  j.set("title", json_str(std::string(rules::of(variant).title)));
  j.set("mirrored_board", json_bool(rules::of(variant).mirrored_board));
  j.set("rules", json_str(std::string(to_string(s.line.draw_rules()))));
  j.set("fen", json_str(to_fen(p)));
  j.set("fen_algebraic", json_str(to_fen(p, FenStyle::Algebraic)));
  j.set("side", json_str(color_name(p.side_to_move())));
  j.set("start_side", json_str(color_name(s.line.start().side_to_move())));
  j.set("pieces", pieces_json(p));
  MoveList legal;
  generate_legal_moves(p, legal);
  Json moves = Json::array();
  Bitboard capturers = 0;
  for (const Move& m : legal) {
    moves.push(move_json(p, m));
    if (m.is_capture()) capturers |= bb(m.from);
  }
  j.set("legal", std::move(moves));
  j.set("must_capture", json_bool(capturers != 0));
  j.set("capturers", square_list(capturers, variant));
  Json list = Json::array();
  const std::vector<Position>& positions = s.line.positions();
  for (std::size_t i = 0; i < s.line.moves().size(); ++i) {
    Json item = Json::object();
    item.set("ply", json_num(static_cast<double>(i + 1)));
    item.set("text", json_str(to_algebraic(positions[i], s.line.moves()[i])));
    list.push(std::move(item));
  }
  j.set("moves", std::move(list));
  j.set("cursor", json_num(static_cast<double>(s.cursor)));
  if (s.cursor > 0) {
    j.set("last_move", last_move_json(s.line.moves()[s.cursor - 1], variant));
  } else {
    j.set("last_move", Json());
  }
  const bool over = g.over();
  j.set("turn", json_str(over                                                      ? "none"
                         : s.mode == Mode::Computer && p.side_to_move() != s.human ? "computer"
                                                                                   : "human"));
  j.set("result", result_json(g));
  j.set("pdn", json_str(g.to_pdn({{"Event", "damas board"}})));
  j.set("analysing", json_bool(s.analysing));
  return j;
}

Json pv_json(Position p, const std::vector<Move>& pv) {
  Json a = Json::array();
  for (const Move& m : legal_prefix(p, pv)) {
    a.push(json_str(to_algebraic(p, m)));
    p = p.after(m);
  }
  return a;
}

Json info_json(const std::string& id, const Position& root, const SearchInfo& info) {
  Json j = Json::object();
  j.set("type", json_str("info"));
  j.set("session", json_str(id));
  j.set("multipv", json_num(info.multipv_index));
  j.set("depth", json_num(info.depth));
  j.set("score", json_num(info.score));
  // White's view, for the evaluation bar.
  const Score white = root.side_to_move() == Color::White ? info.score : -info.score;
  j.set("white_score", json_num(white));
  j.set("white_score_text", json_str(white_score_text(white)));
  j.set("score_text", json_str(score_text(info.score)));
  j.set("nodes", json_num(static_cast<double>(info.nodes)));
  j.set("seconds", json_num(info.seconds));
  j.set("pv", pv_json(root, info.pv));
  return j;
}

}  // namespace damas::web
