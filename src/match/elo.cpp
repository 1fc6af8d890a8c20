#include "damas/match/elo.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace damas {

namespace {

constexpr double kZ95 = 1.959964;  // two-sided 95% quantile of the normal distribution

EloEstimate estimate(double mean, double variance, int samples) {
  EloEstimate e;
  if (samples <= 0) {
    e.lower = -std::numeric_limits<double>::infinity();
    e.upper = std::numeric_limits<double>::infinity();
    return e;
  }
  const double margin = kZ95 * std::sqrt(variance / samples);
  e.score = mean;
  e.elo = elo_from_score(mean);
  e.lower = elo_from_score(mean - margin);
  e.upper = elo_from_score(mean + margin);
  return e;
}

std::string signed_number(double x) {
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  if (std::fabs(x) < 0.05) x = 0;  // no "-0.0"
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f", x);
  return buffer;
}

struct Sample {
  double mean = 0.5;
  double variance = 0;
  int n = 0;
};

// Single games as samples: points 1, 1/2, 0, the per-game trinomial variance.
Sample trinomial(int wins, int draws, int losses) {
  Sample s;
  s.n = wins + draws + losses;
  if (s.n <= 0) return s;
  const double m = (wins + 0.5 * draws) / s.n;
  s.mean = m;
  s.variance = (wins * (1 - m) * (1 - m) + draws * (0.5 - m) * (0.5 - m) + losses * m * m) / s.n;
  return s;
}

SprtState sprt_state(double llr, const SprtConfig& config) {
  SprtState s;
  s.llr = llr;
  s.lower = std::log(config.beta / (1 - config.alpha));
  s.upper = std::log((1 - config.beta) / config.alpha);
  if (llr >= s.upper) s.verdict = SprtVerdict::AcceptH1;
  else if (llr <= s.lower) s.verdict = SprtVerdict::AcceptH0;
  return s;
}

}  // namespace

double elo_from_score(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return -400.0 * std::log10(1.0 / score - 1.0);
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

EloEstimate elo_estimate(int wins, int draws, int losses) {
  const Sample s = trinomial(wins, draws, losses);
  return estimate(s.mean, s.variance, s.n);
}

std::string format_elo(const EloEstimate& e) {
  return signed_number(e.elo) + " [" + signed_number(e.lower) + ", " + signed_number(e.upper) + "]";
}

std::string format_elo_margin(const EloEstimate& e) {
  if (std::isinf(e.lower) || std::isinf(e.upper)) return signed_number(e.elo) + " +- inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, " +- %.1f", (e.upper - e.lower) / 2);
  return signed_number(e.elo) + buffer;
}

void Pentanomial::add_pair(double first_game_points, double second_game_points) {
  const long k = std::lround(2 * (first_game_points + second_game_points));
  if (k >= 0 && k <= 4) ++count[static_cast<std::size_t>(k)];
}

int Pentanomial::pairs() const { return count[0] + count[1] + count[2] + count[3] + count[4]; }

double Pentanomial::score() const {
  const int n = pairs();
  if (n == 0) return 0.5;
  double sum = 0;
  for (std::size_t k = 0; k < count.size(); ++k) sum += count[k] * (static_cast<double>(k) / 4);
  return sum / n;
}

double Pentanomial::variance() const {
  const int n = pairs();
  if (n == 0) return 0;
  const double m = score();
  double sum = 0;
  for (std::size_t k = 0; k < count.size(); ++k) {
    const double d = static_cast<double>(k) / 4 - m;
    sum += count[k] * d * d;
  }
  return sum / n;
}

EloEstimate Pentanomial::elo() const { return estimate(score(), variance(), pairs()); }

double sprt_llr(int samples, double mean, double variance, const SprtConfig& config) {
  if (samples <= 0 || variance <= 0) return 0;
  const double s0 = score_from_elo(config.elo0);
  const double s1 = score_from_elo(config.elo1);
  return samples * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance);
}

SprtState sprt_from_pairs(const Pentanomial& p, const SprtConfig& config) {
  return sprt_state(sprt_llr(p.pairs(), p.score(), p.variance(), config), config);
}

SprtState sprt_from_games(int wins, int draws, int losses, const SprtConfig& config) {
  const Sample s = trinomial(wins, draws, losses);
  return sprt_state(sprt_llr(s.n, s.mean, s.variance, config), config);
}

std::string to_string(SprtVerdict v) {
  switch (v) {
    case SprtVerdict::AcceptH0:
      return "H0 accepted";
    case SprtVerdict::AcceptH1:
      return "H1 accepted";
    case SprtVerdict::Continue:
      break;
  }
  return "continue";
}

}  // namespace damas
