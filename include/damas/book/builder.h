// The book builder: best-first ("drop-out") expansion of the tree of the initial position, each
// new position scored by a search, the scores backed up by minimax.
//
// Every position of the book holds its moves in the book and, while one is left, the best move a
// search finds outside the book with its score. One step expands the move outside the book whose
// line costs least, where a line's cost is what its moves give away against the best of their
// positions (so the book grows deep where the good moves are and stays shallow elsewhere) plus
// `ply_cost` per ply. Expanding searches the new position (its best move) and searches the
// position it came from again with its book moves left out (its next best move outside the book):
// two searches per position. Moves more than `margin` below the best of their position are not
// expanded, nor positions at `max_ply` or deeper, nor positions with kings (so the book never
// comes back to a position).
//
// A step depends only on the book and the searches' answers: with searches that depend only on
// the position (one thread, a fixed node budget, a cleared table), the same settings give the
// same book, and a build resumed from its last saved book gives the book of one uninterrupted run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "damas/book/book.h"
#include "damas/core/expected.h"

namespace damas::book {

// A search's answer: the best move and its score (side to move's view) and depth; a null move
// when every legal move was left out or there is none.
struct SearchAnswer {
  Move best = kNullMove;
  Score score = 0;
  int depth = 0;
};
// The best move of the position among its legal moves not in `excluded`.
using LeafSearch = std::function<SearchAnswer(const Position& position, const std::vector<Move>& excluded)>;

// What a step did, for the progress line.
struct StepReport {
  bool expanded = false;  // false: nothing is left to expand within the settings
  int ply = 0;            // of the position added (or reached again)
  Score cost = 0;         // of its line
};

class Builder {
 public:
  // Goes on from `book`, which is empty or holds the initial position, with its settings.
  static Expected<Builder> resume(Book book);

  // Scores the initial position when the book is empty, then expands the cheapest line.
  StepReport step(const LeafSearch& search);
  const Book& book() const { return book_; }

 private:
  struct Candidate {
    std::size_t entry = 0;
    std::size_t move = 0;
    Score cost = 0;
  };
  struct Tree;  // values, costs and paths of one pass over the book

  explicit Builder(Book book) : book_(std::move(book)) {}
  Tree evaluate();
  std::optional<Candidate> cheapest(const Tree& tree) const;
  void expand(const Candidate& c, const Tree& tree, const LeafSearch& search);

  Book book_;
};

// The minimax back-up of a child's value to the move that leads to it: negated, a won or lost
// score one ply further from the end.
Score backed_up(Score child_value);

}  // namespace damas::book
