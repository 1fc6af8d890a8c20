// `damas match`: games between Hub engines run as child processes, refereed by Game (the one
// referee), with the clocks kept here, openings played in colour-reversed pairs, adjudication,
// SPRT, failure accounting and every game to PDN (Game::to_pdn).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/core/game.h"
#include "damas/match/elo.h"
#include "damas/match/hub_engine.h"
#include "damas/match/openings.h"

namespace damas {

// How an engine is limited on every move.
struct TimeControl {
  enum class Kind { Clock, MoveTime, Depth, Nodes };
  Kind kind = Kind::Clock;
  double base = 10;         // Clock: seconds for the game (or for `moves` moves)
  double increment = 0;     // Clock: added before each move (Hub convention)
  int moves = 0;            // Clock: moves per period, 0 = the whole game
  double move_time = 0;     // MoveTime: seconds per move
  int depth = 0;            // Depth
  std::uint64_t nodes = 0;  // Nodes

  std::string text() const;  // PDN TimeControl: "10+0.1", "40/60+0", "st=1", "depth=5", "nodes=1000"
};

// "10+0.1", "60", "40/60+0.5" (seconds); also "0:10+0.1" (minutes:seconds).
Expected<TimeControl> parse_time_control(std::string_view text);

struct MatchEngine {
  EngineSpec spec;
  TimeControl tc;
  double margin = 0.1;  // seconds over the budget before a move is late
  double timeout = 60;  // seconds per move for depth= and nodes= searches (hang detection)
};

struct DrawAdjudication {
  int move_number = 0;  // not before this move number
  int move_count = 0;   // both engines' scores within `score` for this many moves each
  int score = 0;        // hundredths of a man (Hub score x 100)
};
struct ResignAdjudication {
  int move_count = 0;  // the side's own scores at or below -score for this many moves
  int score = 0;
};

struct HubMatchSpec {
  std::vector<MatchEngine> engines;  // two: a match; more: a round robin
  std::vector<Opening> openings;     // empty: the start position
  bool random_order = false;
  int opening_start = 1;  // 1-based, where to begin in the openings
  std::uint64_t seed = 1;
  int rounds = 0;      // 0: one round per opening (at least one)
  int games = 2;       // games per pairing and round
  bool repeat = true;  // the games of a round share their opening (colours alternate)
  int concurrency = 1;
  DrawRules draw_rules = DrawRules::Seed;  // the referee's, and set-param draw-rules where declared
  int max_moves = 0;                       // adjudicate a draw after this many moves (0 = never)
  std::optional<DrawAdjudication> draw;
  std::optional<ResignAdjudication> resign;
  std::optional<SprtConfig> sprt;  // two engines only
  bool recover = false;            // restart a crashed engine and go on; else the match stops
  std::string pdn_path;            // every game appended here; empty = none
  // Go on with the match whose games pdn_path holds (same command line): those games are counted
  // and not played again; a missing file means none were played.
  bool resume = false;
  std::string log_path = "damas-match.log";  // the engines' stderr (and the protocol with debug)
  bool debug = false;
  std::string event = "damas match";
};

enum class Failure { None, IllegalMove, TimeLoss, Hang, Crash, ErrorAnswer, kCount };
std::string to_string(Failure f);  // "illegal move", "time forfeit", "no done (killed)", ...

struct HubGame {
  int number = 0;  // 1-based, in schedule order
  int round = 0;   // 1-based
  int white = 0;   // engine indices
  int black = 1;
  int opening = -1;  // index into the openings; -1 = the start position
  GameResult result = GameResult::Ongoing;
  std::string termination;  // PDN Termination
  Failure failure = Failure::None;
  int failed_engine = -1;  // who failed (and lost), when failure != None
  std::string detail;      // "played \"1-2\" at move 12: ...", exit status, ...
  int plies = 0;
  std::string pdn;

  double points(int engine) const;  // 1, 0.5, 0 for that engine (which must have played)
};

struct EngineTotals {
  int games = 0;
  int wins = 0;
  int draws = 0;
  int losses = 0;
  std::array<int, static_cast<std::size_t>(Failure::kCount)> failures{};
  int moves = 0;  // moves it was asked for and answered in time
  int moves_with_depth = 0;
  long long depth_sum = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;  // wall time from go to done, summed
};

struct HubMatchResult {
  std::vector<std::string> names;
  std::vector<HubGame> games;  // in the order they finished
  std::vector<EngineTotals> totals;
  int total_games = 0;  // scheduled
  // Engine 0 against engine 1 (two-engine matches).
  int wins = 0;
  int draws = 0;
  int losses = 0;
  Pentanomial pentanomial;
  std::optional<SprtState> sprt;
  std::string stopped;  // why the match ended early ("" = played out or SPRT ended it)
  double wall_seconds = 0;
  double runner_cpu_seconds = 0;  // our own user+system CPU (children excluded)
  long long engine_moves = 0;     // all moves asked of engines
  // -resume: games read back from the PDN file (counted in the standing, not in depth or speed),
  // and the first line of a cut-off last game that was dropped.
  int resumed_games = 0;
  std::optional<int> resume_dropped_line;

  EloEstimate elo() const;  // engine 0 vs 1: from pairs when there are any, else from games
};

// Called after each game, serialised, from a game thread.
using HubGameCallback = std::function<void(const HubGame&, const HubMatchResult& so_far)>;

// Plays the match. Errors: a bad spec, an engine that cannot start (the match stops at once and
// the message names the engine), an unwritable PDN or log file.
Expected<HubMatchResult> run_hub_match(const HubMatchSpec& spec, const HubGameCallback& on_game = {});

}  // namespace damas
