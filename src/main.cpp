// The damas executable: dispatches to a subcommand. Only this file touches argv.
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "damas/cli/cli.h"

namespace {

struct Subcommand {
  std::string_view name;
  std::string_view summary;
  int (*run)(const damas::cli::Args&);
};

constexpr Subcommand kSubcommands[] = {
    {"hub", "speak the Hub protocol on stdin/stdout (also the default without a subcommand)",
     damas::cli::hub_main},
    {"perft", "count the leaves of the legal-move tree (move generator check and speed)",
     damas::cli::perft_main},
    {"selfplay", "match between two option sets of this engine, with the Elo difference",
     damas::cli::selfplay_main},
    {"match", "match or round robin between Hub engines (cutechess-cli style), refereed, with SPRT and PDN",
     damas::cli::match_main},
    {"tactics", "how many positions of the tactical suite the engine solves within a node budget",
     damas::cli::tactics_main},
    {"safety", "the safety set: check how many game-speed moves a budget gets right, or mine it from games",
     damas::cli::safety_main},
    {"analyze", "search a position and show the best move and line", damas::cli::analyze_main},
    {"puzzles", "puzzles from the mistakes of PDN games whose best move wins a piece by force",
     damas::cli::puzzles_main},
    {"bench", "fixed-depth search of the bench positions: node signature and speed", damas::cli::bench_main},
    {"dxp", "play games over DXP (TCP): follower by default, or --initiator of a match",
     damas::cli::dxp_main},
    {"serve", "the web board: play and analyse in a browser (HTTP on 127.0.0.1)", damas::cli::serve_main},
    {"soak", "load and attack of damas serve on loopback: people, slow clients, malformed traffic",
     damas::cli::soak_main},
    {"egdb", "endgame databases: build --pieces N [--mpi], verify, info, probe, convert, count",
     damas::cli::egdb_main},
    {"datagen", "self-play training data for the learned evaluation (positions, scores, results)",
     damas::cli::datagen_main},
    {"book", "the opening book of play: build it from damas's own searches, info, probe a position",
     damas::cli::book_main},
    {"unbalanced", "unbalanced start positions for matches (level material, one side better) from datagen",
     damas::cli::unbalanced_main},
    {"openings", "balanced openings of a game for matches: short lines from the start, searched, near equal",
     damas::cli::openings_main},
};

void print_help() {
  std::cout << "damas " << DAMAS_VERSION << " - a Brazilian draughts engine\n\n"
            << "usage: damas [SUBCOMMAND] [OPTIONS]   (each subcommand has --help)\n"
            << "Without a subcommand damas speaks the Hub protocol (same as `damas hub`).\n\n";
  for (const Subcommand& s : kSubcommands) {
    const std::string name(s.name);
    std::cout << "  " << name << std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') << s.summary
              << "\n";
  }
}

int run(int argc, char** argv) {
  const std::string_view first = argc > 1 ? argv[1] : "";
  if (first == "--help" || first == "-h" || first == "help") {
    print_help();
    return 0;
  }
  if (first == "--version") {
    std::cout << "damas " << DAMAS_VERSION << "\n";
    return 0;
  }
  for (const Subcommand& s : kSubcommands) {
    if (s.name == first) return s.run(damas::cli::Args(argv + 2, argv + argc));
  }
  // No subcommand (possibly engine options such as --threads 2): Hub mode, what GUIs expect.
  if (first.empty() || first.front() == '-')
    return damas::cli::hub_main(damas::cli::Args(argv + 1, argv + argc));
  std::cerr << "damas: unknown subcommand \"" << first << "\" (see damas --help)\n";
  return 2;
}

}  // namespace

// Errors are values everywhere below; an exception reaching here is a defect (such as a library's
// bad_any_cast). It is reported as one, with its text, instead of ending in std::terminate.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "damas: internal error: " << e.what() << " (please report it)\n";
  } catch (...) {
    std::cerr << "damas: internal error: unknown exception (please report it)\n";
  }
  return 70;  // EX_SOFTWARE
}
