// The opening book in memory: positions with their scored moves, looked up by position.
//
// Made by the builder (book/builder.h) from damas's own searches, read and written by
// book/book_file.h, played from by the Engine (book/choice.h). A position is found by its key and
// then compared whole, so a key collision can never give the moves of another position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/move.h"
#include "damas/core/position.h"
#include "damas/core/types.h"

namespace damas::book {

struct BookMove {
  Move move;
  // Side to move's view, 1/100 man: for a move in the book the minimax of the book below it, for
  // one outside it the score of its search.
  Score score = 0;
  // The plies behind the score: those of the book down to the leaf, plus that leaf's search depth.
  int depth = 0;
  // The builder's steps through this move: each added a position below it (or reached one of the
  // book by another order of moves).
  std::uint32_t expansions = 0;
  // Leads to a position of the book; otherwise it is the best move a search found outside the
  // book (at most one per position), not expanded (yet).
  bool in_book = false;

  bool operator==(const BookMove&) const = default;
};

struct BookEntry {
  Position position;
  int ply = 0;  // the fewest plies from the initial position to here through the book
  std::vector<BookMove> moves;

  bool operator==(const BookEntry& o) const {
    return position == o.position && ply == o.ply && moves == o.moves;
  }
};

// What the builder was asked for, kept in the file: a resumed build goes on with the same ones.
struct BuildSettings {
  std::uint64_t nodes = 0;  // node budget of every search
  int max_ply = 0;          // positions at this ply or deeper are not expanded
  Score margin = 0;         // a move more than this below the best of its position is not expanded
  Score ply_cost = 0;       // in the choice of what to expand, one ply counts as this much score lost

  bool operator==(const BuildSettings&) const = default;
};

class Book {
 public:
  BuildSettings settings;
  // The game whose positions and moves the book holds (the file's header names it); its
  // positions carry it, so a position of another game is never found.
  Variant variant = Variant::Brazilian;

  // Adds a position not in the book yet (an error otherwise): its index.
  Expected<std::size_t> add(BookEntry entry);
  const BookEntry* find(const Position& p) const;
  std::optional<std::size_t> index_of(const Position& p) const;

  const std::vector<BookEntry>& entries() const { return entries_; }
  BookEntry& entry(std::size_t i) { return entries_[i]; }
  const BookEntry& entry(std::size_t i) const { return entries_[i]; }
  std::size_t size() const { return entries_.size(); }
  std::size_t move_count() const;

 private:
  std::vector<BookEntry> entries_;
  std::unordered_map<Key, std::uint32_t> index_;
};

// The main line: from `from` the best move of each position, as long as it leads to a position of
// the book (how deep the book goes along its best moves).
std::vector<Move> main_line(const Book& book, const Position& from);
// From the start of the book's game.
std::vector<Move> main_line(const Book& book);

// The best score of a position's moves (the minimax value of the entry); a position without
// moves is lost for the side to move.
Score best_score(const BookEntry& entry);

}  // namespace damas::book
