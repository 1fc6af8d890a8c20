// The opening panel's operation: the book moves of the position on the board, with their scores,
// and how far the book goes along its best moves from there.
#include <algorithm>

#include "damas/core/notation.h"
#include "damas/core/score_text.h"
#include "operations.h"
#include "views.h"

namespace damas::web {
namespace {

Json book_move_json(const Position& p, const book::BookMove& m) {
  const Score white = p.side_to_move() == Color::White ? m.score : -m.score;
  Json j = Json::object();
  j.set("text", json_str(to_algebraic(p, m.move)));
  j.set("id", json_str(to_hub_move(p, m.move)));
  j.set("score", json_num(m.score));
  j.set("white_score", json_num(white));
  j.set("white_score_text", json_str(white_score_text(white)));
  j.set("depth", json_num(m.depth));
  j.set("expansions", json_num(m.expansions));
  j.set("in_book", json_bool(m.in_book));
  return j;
}

// The engines hold the book of the server's game (damas serve --variant): another game's is not
// loaded.
std::string no_book_text(Variant v, Variant served) {
  return "opening book: none for " + std::string(to_string(v)) + " draughts here (this board serves " +
         std::string(to_string(served)) + "; damas serve --variant " + std::string(to_string(v)) +
         " plays with its book)";
}

// Read from the engines the sessions share (they hold the same book); no search.
Json opening_json(const std::string& id, const Position& p, const Engine& engine) {
  Json j = Json::object();
  j.set("session", json_str(id));
  const BookStatus status = engine.book_status();
  const bool its_game = p.variant() == status.variant;  // another game is never looked up
  j.set("book", json_str(its_game ? status.text() : no_book_text(p.variant(), status.variant)));
  j.set("book_loaded", json_bool(its_game && status.positions > 0));
  std::optional<book::BookEntry> entry = its_game ? engine.book_entry(p) : std::nullopt;
  j.set("in_book", json_bool(entry.has_value()));
  Json moves = Json::array();
  Json line = Json::array();
  if (entry) {
    j.set("ply", json_num(entry->ply));
    std::stable_sort(entry->moves.begin(), entry->moves.end(),
                     [](const book::BookMove& a, const book::BookMove& b) { return a.score > b.score; });
    for (const book::BookMove& m : entry->moves) moves.push(book_move_json(p, m));
    Position at = p;
    for (const Move& m : engine.book_line(p)) {
      line.push(json_str(to_algebraic(at, m)));
      at = at.after(m);
    }
  }
  j.set("moves", std::move(moves));
  j.set("line", std::move(line));
  return j;
}

}  // namespace

Answer op_opening(ApiState& state, const Json& body) {
  return with_session(state, body, [&state](const std::string& id, Session& s) -> Answer {
    return opening_json(id, game_at_cursor(s).current(), *state.engines.front());
  });
}

}  // namespace damas::web
