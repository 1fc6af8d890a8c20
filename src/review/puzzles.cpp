#include "damas/review/puzzles.h"

#include <bit>
#include <optional>

#include "damas/core/movegen.h"
#include "damas/engine/engine.h"

namespace damas::review {
namespace {

// Pieces of `side` minus the other side's (a king counts as one: the puzzle wins a piece).
int balance(const Position& p, Color side) {
  return std::popcount(p.pieces(side)) - std::popcount(p.pieces(~side));
}

// The solution: the line up to the first solver move after which the solver is a piece up and
// stays so after the reply (or the opponent has no move). nullopt: the line wins no piece.
std::optional<std::vector<Move>> winning_prefix(const Position& start, const std::vector<Move>& line,
                                                std::size_t max_plies) {
  const Color solver = start.side_to_move();
  const int base = balance(start, solver);
  Position p = start;
  for (std::size_t k = 0; k < line.size() && k < max_plies; ++k) {
    p = p.after(line[k]);
    if (k % 2 != 0 || balance(p, solver) - base < 1) continue;
    if (!has_legal_move(p))
      return std::vector<Move>(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(k + 1));
    if (k + 1 < line.size() && balance(p.after(line[k + 1]), solver) - base >= 1)
      return std::vector<Move>(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(k + 1));
  }
  return std::nullopt;
}

// Whether `expected` is the only move of the position after `history` that keeps the gain: a
// two-line search puts it first and the second line at least `config.min_gain` below.
bool only_winning_move(Engine& engine, const Position& start, const std::vector<Move>& history,
                       const Move& expected, const PuzzleConfig& config) {
  (void)engine.set_position(start, history);
  if (count_legal_moves(engine.position()) < 2) return true;
  SearchInfo lines[2];
  const GoParams two_lines{.limits = config.limits, .mode = GoMode::Analyze, .multipv = 2};
  const SearchResult r = engine.search(two_lines, [&](const SearchInfo& info) {
    if (info.multipv_index >= 1 && info.multipv_index <= 2) lines[info.multipv_index - 1] = info;
  });
  if (!(r.best == expected) || lines[1].pv.empty()) return false;
  return lines[0].score - lines[1].score >= config.min_gain;
}

void copy_tag(const PdnGame& pdn, const char* name, std::vector<std::pair<std::string, std::string>>& tags) {
  if (const std::optional<std::string> v = pdn.tag(name)) tags.emplace_back(name, *v);
}

}  // namespace

std::vector<Puzzle> find_puzzles(Engine& engine, const GameReview& review, const PdnGame& pdn,
                                 const PuzzleConfig& config, const std::string& source_name,
                                 int game_number) {
  std::vector<Puzzle> out;
  const std::vector<Position>& positions = review.game.positions();
  for (std::size_t i = 0; i < review.plies.size(); ++i) {
    const PlyReview& ply = review.plies[i];
    const Position& start = positions[i];
    if (ply.loss < config.min_gain || count_legal_moves(start) < 2) continue;
    const std::optional<std::vector<Move>> solution =
        winning_prefix(start, legal_prefix(start, ply.best_line), config.max_plies);
    if (!solution) continue;
    std::vector<Move> history(review.game.moves().begin(),
                              review.game.moves().begin() + static_cast<std::ptrdiff_t>(i));
    bool unique = true;
    for (std::size_t k = 0; k < solution->size() && unique; k += 2) {
      unique = only_winning_move(engine, review.game.start(), history, (*solution)[k], config);
      history.push_back((*solution)[k]);
      if (k + 1 < solution->size()) history.push_back((*solution)[k + 1]);
    }
    if (!unique) continue;
    Puzzle puzzle{start, *solution, {}, {}, ply.loss};
    for (const char* name : {"Event", "Site", "Date", "Round", "White", "Black", "Result"})
      copy_tag(pdn, name, puzzle.source_tags);
    puzzle.source = source_name + ", game " + std::to_string(game_number) + ": " +
                    move_label(i, review.game.start().side_to_move()) + to_pdn_move(start, ply.played) +
                    std::string(mark_style(ply.mark).nag) + " (best " + to_pdn_move(start, ply.best) + ")";
    out.push_back(std::move(puzzle));
  }
  return out;
}

std::string puzzle_pdn(const Puzzle& puzzle, int number) {
  Game g(puzzle.start);
  for (const Move& m : puzzle.solution) (void)g.play(m);  // legal: find_puzzles checked the line
  std::vector<std::pair<std::string, std::string>> tags = {
      {"Event", "damas puzzle " + std::to_string(number)}};
  for (const auto& [name, value] : puzzle.source_tags)
    if (name == "White" || name == "Black" || name == "Date" || name == "Round")
      tags.emplace_back(name, value);
  tags.emplace_back("PuzzleSource", puzzle.source);
  tags.emplace_back("Result", "*");
  return g.to_pdn(tags);
}

}  // namespace damas::review
