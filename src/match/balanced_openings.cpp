#include "damas/match/balanced_openings.h"

#include <cstdlib>
#include <set>
#include <tuple>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/score_text.h"

namespace damas {

namespace {

using PositionId = std::tuple<Bitboard, Bitboard, Bitboard, Color>;

void extend(const Position& p, int plies_left, std::vector<Move>& line, std::set<PositionId>& seen,
            std::vector<OpeningLine>& out) {
  if (plies_left == 0) {
    if (!has_legal_move(p)) return;
    if (!seen.insert({p.pieces(Color::White), p.pieces(Color::Black), p.kings(), p.side_to_move()}).second)
      return;
    out.push_back(OpeningLine{line, p});
    return;
  }
  MoveList moves;
  generate_legal_moves(p, moves);
  for (const Move& m : moves) {
    line.push_back(m);
    extend(p.after(m), plies_left - 1, line, seen, out);
    line.pop_back();
  }
}

}  // namespace

std::vector<OpeningLine> opening_lines(const Position& start, int plies, std::uint64_t seed) {
  std::vector<OpeningLine> out;
  std::set<PositionId> seen;
  std::vector<Move> line;
  extend(start, plies, line, seen, out);
  std::uint64_t state = seed;
  for (std::size_t i = out.size(); i > 1; --i)                   // Fisher-Yates with a fixed generator
    std::swap(out[i - 1], out[zobrist::splitmix64(state) % i]);  // the same on every platform
  return out;
}

bool balanced(Score score, Score margin) { return std::abs(static_cast<int>(score)) <= margin; }

std::vector<BalancedOpening> select_balanced(const std::vector<OpeningLine>& lines,
                                             const PositionScorer& score, Score margin, std::size_t count,
                                             std::size_t* tried,
                                             const std::function<void(std::size_t, std::size_t)>& on_scored) {
  std::vector<BalancedOpening> kept;
  std::size_t n = 0;
  for (const OpeningLine& line : lines) {
    if (count > 0 && kept.size() == count) break;
    const Score s = score(line.position);
    ++n;
    if (balanced(s, margin))
      kept.push_back(BalancedOpening{line, line.position.side_to_move() == Color::White ? s : -s});
    if (on_scored) on_scored(kept.size(), n);
  }
  if (tried) *tried = n;
  return kept;
}

std::string balanced_opening_text(const Position& start, const BalancedOpening& opening) {
  std::string text;
  Position p = start;
  for (const Move& m : opening.line.moves) {
    if (!text.empty()) text += ' ';
    text += to_pdn_move(p, m);
    p = p.after(m);
  }
  if (text.size() < 24) text.append(24 - text.size(), ' ');
  return text + "   # white " + score_text(opening.white);
}

}  // namespace damas
