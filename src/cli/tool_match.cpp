// `damas match`: games between Hub engines (any program speaking Hub), cutechess-cli style.
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/cli/match_args.h"
#include "damas/cli/progress.h"
#include "damas/core/platform.h"
#include "damas/engine/options.h"

namespace po = boost::program_options;

namespace damas::cli {

namespace {

po::options_description match_options() {
  const std::string variant_help =
      "the game of the referee, the openings and the PDN (GameType), sent as set-param variant to every "
      "engine: " +
      find_option(option::kVariant)->values_text() + " (default " +
      std::string(to_string(Variant::Brazilian)) + ")";
  po::options_description desc(
      "damas match -engine cmd=PATH [args=\"...\"] [name=N] [option.NAME=V ...] -engine ... -each tc=10+0.1\n"
      "Options (one dash or two):");
  const auto words = [] { return po::value<std::vector<std::string>>()->multitoken()->zero_tokens(); };
  desc.add_options()("help,h", "show this help")(
      "engine", words(),
      "an engine: cmd=PATH args=\"A B\" name=N dir=D option.NAME=VALUE (set-param) numbering=standard|a1, "
      "and any -each key")(
      "each", words(),
      "for every engine: tc=[M/]S[+I] | st=S | depth=N | nodes=N, timemargin=MS (default "
      "100), timeout=S (hang limit for depth/nodes, default 60), starttimeout=S (default 10)")(
      "rounds", words(), "rounds (default: one per opening)")("games", words(),
                                                              "games per pairing and round (default 2)")(
      "repeat", words(), "the games of a round share their opening, colours reversed (the default)")(
      "norepeat", words(), "every game takes the next opening")(
      "openings", words(),
      "file=F [format=fen|pdn|moves] [order=random|sequential] [start=K] (default: the game's, "
      "bench/openings.txt for Brazilian, fmjd64-150-ballots.txt for Russian, openings-<game>.txt)")(
      "srand", words(), "seed of order=random")("concurrency", words(), "games played at once (default 1)")(
      "pdnout", words(), "write every game to this PDN file")("pgnout", words(), "same as -pdnout")(
      "resume", words(),
      "go on with an interrupted match: the games of its -pdnout file count and are not played again "
      "(same command line)")("sprt", words(),
                             "elo0=E0 elo1=E1 alpha=A beta=B (two engines; stops when decided)")(
      "draw", words(),
      "movenumber=N movecount=M score=S: a draw when both scores stay within S (hundredths of a man) for M "
      "moves")("resign", words(),
               "movecount=M score=S: a loss for a side whose score stays at or below -S for M moves")(
      "maxmoves", words(), "a draw after this many moves")(
      "draw-rules", words(),
      "seed | fmjd64 | portuguese: the referee's draw laws (PDN DrawRules tag), also sent as set-param "
      "draw-rules to engines that declare it (default the game's own: fmjd64 for Russian, portuguese for "
      "Portuguese, seed for the others)")("variant", words(), variant_help.c_str())(
      "recover", words(), "restart a crashed engine and go on (else the match stops)")(
      "log", words(), "file for the engines' stderr (default damas-match.log)")(
      "debug", words(), "also write every protocol line to the log")("event", words(), "PDN Event tag");
  return desc;
}

std::string percent(double x) {
  char b[16];
  std::snprintf(b, sizeof b, "%.1f%%", 100 * x);
  return b;
}

std::string sprt_text(const HubMatchResult& r) {
  if (!r.sprt) return "";
  char b[96];
  std::snprintf(b, sizeof b, "  LLR %.2f [%.2f, %.2f]", r.sprt->llr, r.sprt->lower, r.sprt->upper);
  return b;
}

// W-D-L, score, Elo (two engines) or the leader (round robin), as one line.
std::string standing(const HubMatchResult& r) {
  if (r.names.size() != 2) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < r.totals.size(); ++i)
      if (r.totals[i].wins * 2 + r.totals[i].draws > r.totals[best].wins * 2 + r.totals[best].draws) best = i;
    const EngineTotals& t = r.totals[best];
    return "leader " + r.names[best] + " +" + std::to_string(t.wins) + "=" + std::to_string(t.draws) + "-" +
           std::to_string(t.losses);
  }
  const EloEstimate e = r.elo();
  return r.names[0] + " vs " + r.names[1] + " " + std::to_string(r.wins) + "-" + std::to_string(r.draws) +
         "-" + std::to_string(r.losses) + " " + percent(e.score) + " Elo " + format_elo_margin(e) +
         sprt_text(r);
}

void print_game(const HubGame& g, const HubMatchResult& r, ProgressLine& line, double elapsed) {
  const int done = static_cast<int>(r.games.size());
  if (line.terminal()) {
    if (g.failure != Failure::None)
      line.message("game #" + std::to_string(g.number) + ": " +
                   r.names[static_cast<std::size_t>(g.failed_engine)] + " " + g.termination + " (" +
                   g.detail + ")");
    const int played = done - r.resumed_games;
    const double left = played > 0 ? elapsed / played * (r.total_games - done) : 0;
    line.draw(std::to_string(done) + "/" + std::to_string(r.total_games) + "  " + standing(r) + "  left " +
              clock_text(left));
    return;
  }
  std::printf("game %d/%d (#%d, round %d) %s - %s: %s (%s%s%s, %d plies)  %s\n", done, r.total_games,
              g.number, g.round, r.names[static_cast<std::size_t>(g.white)].c_str(),
              r.names[static_cast<std::size_t>(g.black)].c_str(), to_string(g.result).c_str(),
              g.termination.c_str(), g.detail.empty() ? "" : ": ", g.detail.c_str(), g.plies,
              standing(r).c_str());
  std::fflush(stdout);
}

void print_engines(const HubMatchResult& r) {
  std::printf("\n%-16s %6s %5s %5s %5s %7s %5s %5s %5s %5s %7s %9s %9s\n", "engine", "games", "W", "D", "L",
              "illegal", "time", "hang", "crash", "error", "depth", "knps", "ms/move");
  for (std::size_t i = 0; i < r.names.size(); ++i) {
    const EngineTotals& t = r.totals[i];
    const auto f = [&](Failure k) { return t.failures[static_cast<std::size_t>(k)]; };
    const double depth = t.moves_with_depth ? static_cast<double>(t.depth_sum) / t.moves_with_depth : 0;
    const double knps = t.seconds > 0 ? static_cast<double>(t.nodes) / t.seconds / 1000 : 0;
    const double ms = t.moves ? 1000 * t.seconds / t.moves : 0;
    std::printf("%-16s %6d %5d %5d %5d %7d %5d %5d %5d %5d %7.1f %9.0f %9.2f\n", r.names[i].c_str(), t.games,
                t.wins, t.draws, t.losses, f(Failure::IllegalMove), f(Failure::TimeLoss), f(Failure::Hang),
                f(Failure::Crash), f(Failure::ErrorAnswer), depth, knps, ms);
  }
}

void print_summary(const HubMatchSpec& spec, const HubMatchResult& r) {
  std::printf("\n");
  if (r.names.size() == 2) {
    const EloEstimate e = r.elo();
    std::printf("%s vs %s: %zu games, W-D-L %d-%d-%d, score %s\n", r.names[0].c_str(), r.names[1].c_str(),
                r.games.size(), r.wins, r.draws, r.losses, percent(e.score).c_str());
    std::printf("Elo %s, 95%% interval %s (%s)\n", format_elo_margin(e).c_str(), format_elo(e).c_str(),
                r.pentanomial.pairs() ? "pentanomial, game pairs" : "trinomial, single games");
    const auto& p = r.pentanomial.count;
    if (r.pentanomial.pairs())
      std::printf("Pentanomial [0, 0.5, 1, 1.5, 2] points per pair: [%d, %d, %d, %d, %d] (%d pairs)\n", p[0],
                  p[1], p[2], p[3], p[4], r.pentanomial.pairs());
    if (r.sprt && spec.sprt)
      std::printf("SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f [%.2f, %.2f] -> %s\n", spec.sprt->elo0,
                  spec.sprt->elo1, spec.sprt->alpha, spec.sprt->beta, r.sprt->llr, r.sprt->lower,
                  r.sprt->upper, to_string(r.sprt->verdict).c_str());
  } else {
    std::printf("Round robin of %zu engines, %zu games\n", r.names.size(), r.games.size());
  }
  print_engines(r);
  const double per_move =
      r.engine_moves ? 1000 * r.runner_cpu_seconds / static_cast<double>(r.engine_moves) : 0;
  std::printf("\nrunner CPU %.3f s for %lld moves (%.4f ms per move), wall %s\n", r.runner_cpu_seconds,
              r.engine_moves, per_move, clock_text(r.wall_seconds).c_str());
  if (!r.stopped.empty()) std::printf("match stopped: %s\n", r.stopped.c_str());
}

void print_resume(const HubMatchSpec& spec, const HubMatchResult& r) {
  std::printf("resumed: %d games read from %s (their depth and speed are not in the engine table)\n",
              r.resumed_games, spec.pdn_path.c_str());
  if (r.resume_dropped_line)
    std::printf("resumed: the cut-off last game (line %d) was dropped and is played again\n",
                *r.resume_dropped_line);
  std::fflush(stdout);
}

}  // namespace

int match_main(const Args& args) {
  const po::options_description desc = match_options();
  std::vector<OptionGroup> groups;
  if (const std::optional<int> exit_code = parse_grouped_command_line("match", args, desc, groups))
    return *exit_code;
  Expected<HubMatchSpec> spec = match_spec_from_groups(groups);
  if (!spec) {
    std::cerr << "damas match: " << spec.error() << " (see damas match --help)\n";
    return 2;
  }
  ProgressLine line(stdout, platform::is_terminal(stdout));
  const auto t0 = std::chrono::steady_clock::now();
  bool resume_told = !spec->resume;
  const Expected<HubMatchResult> result =
      run_hub_match(*spec, [&](const HubGame& g, const HubMatchResult& r) {
        if (!resume_told) print_resume(*spec, r);
        resume_told = true;
        print_game(g, r, line, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      });
  line.finish();
  if (result && !resume_told) print_resume(*spec, *result);
  if (!result) {
    std::fflush(stdout);
    std::cerr << "damas match: " << result.error() << "\n";
    return 1;
  }
  print_summary(*spec, *result);
  return result->stopped.empty() ? 0 : 1;
}

}  // namespace damas::cli
