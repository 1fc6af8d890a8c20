#include "damas/book/book.h"

#include <algorithm>
#include <string>

namespace damas::book {

Expected<std::size_t> Book::add(BookEntry entry) {
  if (entry.position.variant() != variant)
    return Error{"a position of " + std::string(to_string(entry.position.variant())) +
                 " draughts in a book of " + std::string(to_string(variant))};
  const Key key = entry.position.key();
  if (index_.count(key)) return Error{"a position is in the book twice"};
  index_.emplace(key, static_cast<std::uint32_t>(entries_.size()));
  entries_.push_back(std::move(entry));
  return entries_.size() - 1;
}

std::optional<std::size_t> Book::index_of(const Position& p) const {
  const auto it = index_.find(p.key());
  if (it == index_.end() || !(entries_[it->second].position == p)) return std::nullopt;
  return it->second;
}

const BookEntry* Book::find(const Position& p) const {
  const std::optional<std::size_t> i = index_of(p);
  return i ? &entries_[*i] : nullptr;
}

std::size_t Book::move_count() const {
  std::size_t n = 0;
  for (const BookEntry& e : entries_) n += e.moves.size();
  return n;
}

std::vector<Move> main_line(const Book& book, const Position& from) {
  std::vector<Move> line;
  const BookEntry* e = book.find(from);
  while (e && line.size() < 256) {
    const auto best =
        std::max_element(e->moves.begin(), e->moves.end(),
                         [](const BookMove& a, const BookMove& b) { return a.score < b.score; });
    if (best == e->moves.end() || !best->in_book) break;
    line.push_back(best->move);
    e = book.find(e->position.after(best->move));
  }
  return line;
}

std::vector<Move> main_line(const Book& book) { return main_line(book, Position::start(book.variant)); }

Score best_score(const BookEntry& entry) {
  Score best = loss_in(0);
  for (const BookMove& m : entry.moves) best = std::max(best, m.score);
  return best;
}

}  // namespace damas::book
