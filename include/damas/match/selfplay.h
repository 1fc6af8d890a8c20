// Matches between two option sets of this engine, played in-process through the Engine
// facade and refereed by Game; plus the Elo arithmetic used to read the results.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "damas/core/draw_rules.h"
#include "damas/core/expected.h"
#include "damas/core/game.h"
#include "damas/core/move.h"
#include "damas/engine/engine.h"

namespace damas {

// ---- Elo ------------------------------------------------------------------------------------

struct EloEstimate {
  double score = 0.5;  // points per game, 0..1
  double elo = 0;      // logistic model; +-infinity for a 100% or 0% score
  double lower = 0;    // 95% interval from the trinomial (win/draw/loss) variance
  double upper = 0;
};

double elo_from_score(double score);  // -400 log10(1/score - 1)
EloEstimate elo_estimate(int wins, int draws, int losses);
std::string format_elo(const EloEstimate& e);  // "+35.2 [-10.4, +81.0]"

// ---- Openings -------------------------------------------------------------------------------

struct Opening {
  Position start = Position::start();
  std::vector<Move> moves;  // played from start
  std::string text;         // as written in the file

  Position position() const;  // start with the moves played
};

// One opening per line: moves from the normal start ("22-18 11-15", numeric or algebraic), or a
// PDN FEN in numeric or algebraic squares ("W:W21-32:B1-12", "B:Wa1,c3,...:Bb6,..."), optionally
// followed by "| name". '#' starts a comment; blank lines are skipped. Every move is checked for
// legality. A text starting with '{' is read as pydraughts' JSON ballot file instead ({"name":
// "FEN", ...}). Used by selfplay and by the DXP initiator.
Expected<std::vector<Opening>> parse_openings(std::string_view text, const std::string& source = "openings");
Expected<std::vector<Opening>> load_openings(const std::string& path);

// ---- Matches --------------------------------------------------------------------------------

using OptionList = std::vector<std::pair<std::string, std::string>>;

// "level=hard eval-file=x.txt" or "level=hard,hash=16": name=value pairs, checked against the
// option registry.
Expected<OptionList> parse_option_list(std::string_view text);

struct MatchConfig {
  OptionList options_a;
  OptionList options_b;
  SearchLimits limits;                     // per move, for both engines
  std::vector<Opening> openings;           // each is played twice, A taking White then Black
  int games = 0;                           // 0 = two per opening; otherwise cycles the openings
  int concurrency = 1;                     // games played at once
  int max_plies = 0;                       // adjudicate a draw after this many plies (0 = never)
  DrawRules draw_rules = DrawRules::Seed;  // the referee's, and both engines' unless a list sets it
};

struct GameRecord {
  int index = 0;
  int opening = 0;  // index into MatchConfig::openings
  bool a_is_white = true;
  GameResult result = GameResult::Ongoing;
  GameEndReason reason = GameEndReason::None;
  int plies = 0;  // including the opening
  std::string pdn;
  double a_points() const;  // 1, 0.5 or 0 for engine A
};

struct MatchResult {
  int wins = 0;  // for A
  int draws = 0;
  int losses = 0;
  std::vector<GameRecord> games;  // in game-index order
  EloEstimate elo() const { return elo_estimate(wins, draws, losses); }
};

// Called after each finished game (from a worker thread, serialised by the runner).
using GameCallback = std::function<void(const GameRecord&, const MatchResult& so_far)>;

// Plays the match. An engine that refuses an option or returns an illegal move is an error.
Expected<MatchResult> run_match(const MatchConfig& config, const GameCallback& on_game = {});

}  // namespace damas
