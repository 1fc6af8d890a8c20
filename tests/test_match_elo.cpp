// The one Elo/SPRT computation (match/elo.h) against values computed by hand.
#include <catch2/catch.hpp>

#include <cmath>

#include "damas/match/elo.h"

using namespace damas;

TEST_CASE("Pentanomial score and variance are those of the pair scores", "[match][elo]") {
  Pentanomial p;
  // Pairs scoring 0, 1/2 x2, 1 x3, 3/2 x2, 2 x2 points (of 2): LL, LD, LD, WL, DD, WL, WD, DW, WW, WW.
  p.add_pair(0, 0);
  p.add_pair(0, 0.5);
  p.add_pair(0.5, 0);
  p.add_pair(1, 0);
  p.add_pair(0.5, 0.5);
  p.add_pair(0, 1);
  p.add_pair(1, 0.5);
  p.add_pair(0.5, 1);
  p.add_pair(1, 1);
  p.add_pair(1, 1);
  CHECK(p.count == std::array<int, 5>{1, 2, 3, 2, 2});
  CHECK(p.pairs() == 10);
  // Mean of k/4: (0.5 + 1.5 + 1.5 + 2) / 10 = 0.55; variance sum n_k (k/4 - 0.55)^2 / 10 = 0.0975.
  CHECK(p.score() == Approx(0.55));
  CHECK(p.variance() == Approx(0.0975));
  const EloEstimate e = p.elo();
  CHECK(e.elo == Approx(34.860).margin(0.001));
  // 0.55 -+ 1.959964 * sqrt(0.0975 / 10)
  CHECK(e.lower == Approx(-102.619).margin(0.001));
  CHECK(e.upper == Approx(184.906).margin(0.001));
}

TEST_CASE("An empty pentanomial knows nothing", "[match][elo]") {
  const Pentanomial p;
  CHECK(p.pairs() == 0);
  CHECK(p.score() == 0.5);
  CHECK(std::isinf(p.elo().lower));
  CHECK(std::isinf(p.elo().upper));
}

TEST_CASE("SPRT log-likelihood ratio on pairs uses the normal approximation", "[match][elo][sprt]") {
  Pentanomial p;
  p.count = {1, 2, 3, 2, 2};
  const SprtConfig c{0, 5, 0.05, 0.05};
  // s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.5071951; LLR = 10 (s1 - s0)(1.1 - s0 - s1) / (2 * 0.0975).
  CHECK(score_from_elo(5) == Approx(0.5071951));
  const SprtState s = sprt_from_pairs(p, c);
  CHECK(s.llr == Approx(0.0342430).margin(1e-6));
  CHECK(s.lower == Approx(-2.944439).margin(1e-6));
  CHECK(s.upper == Approx(2.944439).margin(1e-6));
  CHECK(s.verdict == SprtVerdict::Continue);
}

TEST_CASE("SPRT on single games uses the trinomial variance and decides at the bounds",
          "[match][elo][sprt]") {
  // 60-20-20: mean 0.7, variance 0.16; elo1 = 10: LLR = 100 (s1 - 0.5)(1.4 - 0.5 - s1) / 0.32 = 1.73371.
  const SprtState s = sprt_from_games(60, 20, 20, SprtConfig{0, 10, 0.05, 0.05});
  CHECK(s.llr == Approx(1.733713).margin(1e-5));
  CHECK(s.verdict == SprtVerdict::Continue);
  CHECK(sprt_from_games(600, 200, 200, SprtConfig{0, 10, 0.05, 0.05}).verdict == SprtVerdict::AcceptH1);
  CHECK(sprt_from_games(200, 200, 600, SprtConfig{0, 10, 0.05, 0.05}).verdict == SprtVerdict::AcceptH0);
  CHECK(sprt_from_games(0, 0, 0, SprtConfig{}).llr == 0);
  CHECK(to_string(SprtVerdict::AcceptH1) == "H1 accepted");
}

TEST_CASE("Elo margin is printed as the half width of the interval", "[match][elo]") {
  const EloEstimate e = elo_estimate(60, 20, 20);
  char expected[64];
  std::snprintf(expected, sizeof expected, "+147.2 +- %.1f", (e.upper - e.lower) / 2);
  CHECK(format_elo_margin(e) == expected);
  CHECK(format_elo_margin(elo_estimate(0, 0, 0)) == "+0.0 +- inf");
}
