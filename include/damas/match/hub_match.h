// `damas match`: what a match between Hub engines run as child processes is asked (engines,
// time controls, openings, rounds, adjudication, SPRT, files) and the runner that plays it: its
// games on `concurrency` slots, each game to PDN as it ends, -resume. Its parts: the clocks
// (match_clock.h), one refereed game and the schedule (src/match/), the results (match_report.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "damas/core/draw_rules.h"
#include "damas/core/expected.h"
#include "damas/match/elo.h"
#include "damas/match/hub_engine.h"
#include "damas/match/match_clock.h"
#include "damas/match/match_report.h"
#include "damas/match/openings.h"

namespace damas {

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
  // The referee's, and set-param draw-rules where declared; unset: the game's own (rules table).
  std::optional<DrawRules> draw_rules;
  Variant variant = Variant::Brazilian;  // the referee's game, its openings' and every engine's
  int max_moves = 0;                     // adjudicate a draw after this many moves (0 = never)
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

// Called after each game, serialised, from a game thread.
using HubGameCallback = std::function<void(const HubGame&, const HubMatchResult& so_far)>;

// Every engine's option.variant and every opening are of the match's game (match_variant.h): an
// error naming the engine or the opening. run_hub_match checks it too.
Status check_match_variant(const HubMatchSpec& spec);

// Plays the match. Errors: a bad spec, an engine that cannot start (the match stops at once and
// the message names the engine), an unwritable PDN or log file.
Expected<HubMatchResult> run_hub_match(const HubMatchSpec& spec, const HubGameCallback& on_game = {});

}  // namespace damas
