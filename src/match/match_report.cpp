#include "damas/match/match_report.h"

namespace damas {

std::string to_string(Failure f) {
  switch (f) {
    case Failure::IllegalMove:
      return "illegal move";
    case Failure::TimeLoss:
      return "time forfeit";
    case Failure::Hang:
      return "no done (killed)";
    case Failure::Crash:
      return "crash";
    case Failure::ErrorAnswer:
      return "error answer";
    case Failure::None:
    case Failure::kCount:
      break;
  }
  return "none";
}

double HubGame::points(int engine) const {
  if (result == GameResult::Draw || result == GameResult::Ongoing) return 0.5;
  const bool white_won = result == GameResult::WhiteWins;
  return (engine == white) == white_won ? 1.0 : 0.0;
}

void EngineTotals::add_moves(const EngineTotals& other) {
  moves += other.moves;
  moves_with_depth += other.moves_with_depth;
  depth_sum += other.depth_sum;
  nodes += other.nodes;
  seconds += other.seconds;
}

EloEstimate HubMatchResult::elo() const {
  if (pentanomial.pairs() > 0) return pentanomial.elo();
  return elo_estimate(wins, draws, losses);
}

bool HubMatchResult::count(const HubGame& g, std::optional<double> pair_first_points,
                           const std::optional<SprtConfig>& sprt_config, int games_per_pairing) {
  for (int side = 0; side < 2; ++side) {
    const int i = side == 0 ? g.white : g.black;
    EngineTotals& t = totals[static_cast<std::size_t>(i)];
    ++t.games;
    const double p = g.points(i);
    (p == 1.0 ? t.wins : p == 0.0 ? t.losses : t.draws) += 1;
  }
  if (g.failure != Failure::None)
    ++totals[static_cast<std::size_t>(g.failed_engine)].failures[static_cast<std::size_t>(g.failure)];
  if (names.size() == 2) {
    const double p = g.points(0);
    (p == 1.0 ? wins : p == 0.0 ? losses : draws) += 1;
    if (pair_first_points) pentanomial.add_pair(*pair_first_points, p);
  }
  games.push_back(g);
  if (!sprt_config) return false;
  sprt = pentanomial.pairs() > 0 || games_per_pairing % 2 == 0
             ? sprt_from_pairs(pentanomial, *sprt_config)
             : sprt_from_games(wins, draws, losses, *sprt_config);
  return sprt->verdict != SprtVerdict::Continue;
}

}  // namespace damas
