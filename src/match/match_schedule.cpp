#include "match_schedule.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "damas/match/match_variant.h"

namespace damas {

namespace {

std::vector<int> opening_order(const HubMatchSpec& spec) {
  std::vector<int> order(spec.openings.size());
  std::iota(order.begin(), order.end(), 0);
  if (spec.random_order) {
    std::mt19937_64 rng(spec.seed);
    std::shuffle(order.begin(), order.end(), rng);
  }
  if (!order.empty()) {
    const std::size_t start = static_cast<std::size_t>(spec.opening_start - 1) % order.size();
    std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(start), order.end());
  }
  return order;
}

int round_count(const HubMatchSpec& spec) {
  if (spec.rounds > 0) return spec.rounds;
  const int n = static_cast<int>(spec.openings.size());
  if (n == 0) return 1;
  return spec.repeat ? n : (n + spec.games - 1) / spec.games;
}

}  // namespace

HubGame ScheduledGame::as_hub_game() const {
  HubGame h;
  h.number = number;
  h.round = round;
  h.white = white;
  h.black = black;
  h.opening = opening;
  return h;
}

std::vector<Job> schedule_match(const HubMatchSpec& spec) {
  const std::vector<int> order = opening_order(spec);
  const int engines = static_cast<int>(spec.engines.size());
  const bool paired = engines == 2 && spec.repeat && spec.games % 2 == 0;
  std::vector<Job> jobs;
  int number = 0;
  for (int r = 0; r < round_count(spec); ++r) {
    for (int a = 0; a < engines; ++a) {
      for (int b = a + 1; b < engines; ++b) {
        Job job;
        for (int i = 0; i < spec.games; ++i) {
          ScheduledGame g;
          g.number = ++number;
          g.round = r + 1;
          const bool a_white = (i + r) % 2 == 0;
          g.white = a_white ? a : b;
          g.black = a_white ? b : a;
          const int key = spec.repeat ? r : r * spec.games + i;
          if (!order.empty()) g.opening = order[static_cast<std::size_t>(key) % order.size()];
          g.closes_pair = paired && i % 2 == 1;
          job.push_back(g);
        }
        jobs.push_back(std::move(job));
      }
    }
  }
  return jobs;
}

Status check_match_spec(const HubMatchSpec& spec) {
  if (spec.engines.size() < 2) return Error{"a match needs at least two engines"};
  if (spec.games < 1) return Error{"games must be at least 1"};
  if (spec.rounds < 0) return Error{"rounds cannot be negative"};
  if (spec.concurrency < 1 || spec.concurrency > 256) return Error{"concurrency must be between 1 and 256"};
  if (spec.opening_start < 1) return Error{"the first opening is number 1"};
  if (spec.resume && spec.pdn_path.empty()) return Error{"-resume needs the -pdnout file of the match"};
  if (spec.resume)
    for (std::size_t i = 0; i < spec.engines.size(); ++i)
      for (std::size_t j = i + 1; j < spec.engines.size(); ++j)
        if (spec.engines[i].spec.name == spec.engines[j].spec.name)
          return Error{"-resume needs distinct engine names (the PDN file names the players)"};
  if (spec.sprt && spec.engines.size() != 2) return Error{"SPRT needs exactly two engines"};
  if (spec.sprt && !(spec.sprt->elo0 < spec.sprt->elo1)) return Error{"SPRT needs elo0 < elo1"};
  if (spec.sprt &&
      !(spec.sprt->alpha > 0 && spec.sprt->alpha < 1 && spec.sprt->beta > 0 && spec.sprt->beta < 1))
    return Error{"SPRT alpha and beta must be between 0 and 1"};
  for (const MatchEngine& e : spec.engines) {
    if (e.spec.process.command.empty()) return Error{"engine " + e.spec.name + " has no cmd"};
    if (e.margin < 0 || e.timeout <= 0) return Error{"engine " + e.spec.name + ": bad margin or timeout"};
  }
  return check_match_variant(spec);
}

Status check_match_variant(const HubMatchSpec& spec) {
  for (const MatchEngine& e : spec.engines)
    if (Status s = check_variant_option(e.spec.options, spec.variant); !s)
      return Error{"engine " + e.spec.name + ": option." + s.error() + " (-variant sets the match's game)"};
  return check_openings_variant(spec.openings, spec.variant);
}

}  // namespace damas
