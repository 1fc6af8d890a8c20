#include "damas/book/choice.h"

#include <algorithm>

namespace damas::book {

std::vector<BookMove> playable_moves(const Book& book, const Position& position, int max_ply, Score margin) {
  const BookEntry* e = book.find(position);
  if (!e || e->ply >= max_ply || e->moves.empty()) return {};
  const Score best = best_score(*e);
  const Score allowed = e->ply < kVarietyPlies ? 2 * margin : margin;
  std::vector<BookMove> moves;
  for (const BookMove& m : e->moves)
    if (best - m.score <= allowed) moves.push_back(m);
  std::stable_sort(moves.begin(), moves.end(),
                   [](const BookMove& a, const BookMove& b) { return a.score > b.score; });
  return moves;
}

std::optional<BookMove> choose_move(const Book& book, const Position& position, const BookPlay& play) {
  const std::vector<BookMove> moves = playable_moves(book, position, play.max_ply, play.margin);
  if (moves.empty()) return std::nullopt;
  std::uint64_t state = play.seed ^ position.key();
  const std::uint64_t r = zobrist::splitmix64(state);
  return moves[static_cast<std::size_t>(r % moves.size())];
}

Move expected_reply(const Book& book, const Position& position, const Move& move) {
  const BookEntry* next = book.find(position.after(move));
  if (!next || next->moves.empty()) return kNullMove;
  const auto best = std::max_element(next->moves.begin(), next->moves.end(),
                                     [](const BookMove& a, const BookMove& b) { return a.score < b.score; });
  return best->move;
}

}  // namespace damas::book
