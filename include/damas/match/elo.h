// The one Elo/SPRT computation of the project (selfplay and the Hub match runner both use it):
// Elo with its 95% interval from game results (trinomial) or from game pairs (pentanomial), and
// the sequential probability ratio test with the normal approximation of the score.
#pragma once

#include <array>
#include <optional>
#include <string>

namespace damas {

struct EloEstimate {
  double score = 0.5;  // points per game, 0..1
  double elo = 0;      // logistic model; +-infinity for a 100% or 0% score
  double lower = 0;    // 95% interval
  double upper = 0;
};

double elo_from_score(double score);  // -400 log10(1/score - 1)
double score_from_elo(double elo);    // 1 / (1 + 10^(-elo/400))

// From single games (win = 1, draw = 1/2, loss = 0), per-game trinomial variance.
EloEstimate elo_estimate(int wins, int draws, int losses);
std::string format_elo(const EloEstimate& e);  // "+35.2 [-10.4, +81.0]"
// "+35.2 +- 23.1": the half width of the interval in Elo, as match runners print it.
std::string format_elo_margin(const EloEstimate& e);

// Results of game pairs (the same opening with colours reversed): count[k] = pairs in which the
// first engine scored k/2 points out of 2 (k = 0 LL, 1 LD, 2 WL or DD, 3 WD, 4 WW).
struct Pentanomial {
  std::array<int, 5> count{};

  void add_pair(double first_game_points, double second_game_points);  // points 0, 0.5 or 1
  int pairs() const;
  double score() const;     // mean points per game, 0..1
  double variance() const;  // variance of the pair score (points per game of the pair, 0..1)
  EloEstimate elo() const;
};

struct SprtConfig {
  double elo0 = 0;  // H0: the Elo difference is elo0
  double elo1 = 5;  // H1: it is elo1
  double alpha = 0.05;
  double beta = 0.05;
};

enum class SprtVerdict { Continue, AcceptH0, AcceptH1 };

struct SprtState {
  double llr = 0;
  double lower = 0;  // log(beta / (1 - alpha)): accept H0 at or below
  double upper = 0;  // log((1 - beta) / alpha): accept H1 at or above
  SprtVerdict verdict = SprtVerdict::Continue;
};

// LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v) for n samples of mean m and variance v, s0/s1 the
// logistic scores of elo0/elo1 (the normal approximation; fishtest and fastchess use its
// refinements). Samples are game pairs with a pentanomial, single games otherwise. Zero while
// the variance is zero (no decisive information yet).
double sprt_llr(int samples, double mean, double variance, const SprtConfig& config);
SprtState sprt_from_pairs(const Pentanomial& p, const SprtConfig& config);
SprtState sprt_from_games(int wins, int draws, int losses, const SprtConfig& config);
std::string to_string(SprtVerdict v);  // "continue", "H0 accepted", "H1 accepted"

}  // namespace damas
