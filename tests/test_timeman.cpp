// Time budgets: every clock form gives a budget that keeps the overhead back and never exceeds
// what is on the clock.
#include <catch2/catch.hpp>

#include "damas/search/timeman.h"

using namespace damas;

TEST_CASE("timeman: no time limit for depth, nodes, infinite", "[timeman]") {
  SearchLimits l;
  l.depth = 12;
  CHECK(!plan_time(l, 0.03, 24).hard);
  l.infinite = true;
  l.time = 10;
  CHECK(!plan_time(l, 0.03, 24).hard);
}

TEST_CASE("timeman: fixed move time is used in full, minus the overhead", "[timeman]") {
  SearchLimits l;
  l.move_time = 2.0;
  const TimeBudget b = plan_time(l, 0.05, 24);
  REQUIRE(b.hard);
  CHECK(*b.hard == Approx(1.95));
  CHECK(b.fixed);
  CHECK(adjust_soft(b, 0, 10) == Approx(1.95));
}

TEST_CASE("timeman: time-use scales the soft budget of a clock, never past the hard one", "[timeman]") {
  SearchLimits l;
  l.time = 5.0;
  l.increment = 0.05;
  const TimeBudget plain = plan_time(l, 0.03, 24);
  REQUIRE(plain.soft);
  REQUIRE(plain.hard);
  CHECK(*scale_soft(plain, 1.0).soft == Approx(*plain.soft));
  CHECK(*scale_soft(plain, 1.5).soft == Approx(*plain.soft * 1.5));
  CHECK(*scale_soft(plain, 0.5).soft == Approx(*plain.soft * 0.5));
  CHECK(*scale_soft(plain, 100.0).soft == Approx(*plain.hard));
  CHECK(*scale_soft(plain, 1.5).hard == Approx(*plain.hard));
  SearchLimits fixed;
  fixed.move_time = 2.0;
  CHECK(*scale_soft(plan_time(fixed, 0.05, 24), 2.0).soft == Approx(1.95));
  SearchLimits none;
  none.depth = 10;
  CHECK(!scale_soft(plan_time(none, 0.05, 24), 2.0).soft);
}

TEST_CASE("timeman: clocks never hand out more than is left", "[timeman]") {
  struct Case {
    double time, inc;
    int moves_to_go;
  };
  for (const Case c : {Case{60, 0, 0}, Case{60, 1, 0}, Case{120, 0, 40}, Case{5, 0, 1}, Case{0.2, 0, 0},
                       Case{0.01, 0.5, 0}, Case{-1, 0.2, 0}, Case{-3, 0, 0}}) {
    for (int pieces : {24, 12, 3}) {
      SearchLimits l;
      l.time = c.time;
      l.increment = c.inc;
      l.moves_to_go = c.moves_to_go;
      const double overhead = 0.03;
      const TimeBudget b = plan_time(l, overhead, pieces);
      REQUIRE(b.hard);
      REQUIRE(b.soft);
      const double available = c.time + c.inc - overhead;
      CHECK(*b.hard > 0);
      CHECK(*b.soft <= *b.hard);
      if (available > 0.01) CHECK(*b.hard < available);
      CHECK(adjust_soft(b, 3, 0) <= *b.hard);
      CHECK(adjust_soft(b, 0, 6) <= *b.soft);
    }
  }
}

TEST_CASE("timeman: more moves to go means less time per move", "[timeman]") {
  SearchLimits few;
  few.time = 60;
  few.moves_to_go = 5;
  SearchLimits many = few;
  many.moves_to_go = 30;
  CHECK(*plan_time(few, 0.03, 24).soft > *plan_time(many, 0.03, 24).soft);
  SearchLimits with_inc = many;
  with_inc.increment = 2;
  CHECK(*plan_time(with_inc, 0.03, 24).soft > *plan_time(many, 0.03, 24).soft);
}
