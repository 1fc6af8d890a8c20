// Matches between two option sets of this engine, played in-process through the Engine
// facade and refereed by Game (Elo in match/elo.h, openings in match/openings.h).
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
#include "damas/match/elo.h"
#include "damas/match/openings.h"

namespace damas {

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
  Variant variant = Variant::Brazilian;    // the referee's game: the openings' and any list's `variant`
};

// One move of a game after its opening, as the engine that played it searched it.
struct PlayedMove {
  Move move;
  bool by_a = true;
  Score score = 0;  // the mover's view
  int depth = 0;
  std::uint64_t nodes = 0;
};

struct GameRecord {
  int index = 0;
  int opening = 0;  // index into MatchConfig::openings
  bool a_is_white = true;
  GameResult result = GameResult::Ongoing;
  GameEndReason reason = GameEndReason::None;
  int plies = 0;  // including the opening
  std::string pdn;
  std::vector<PlayedMove> played;  // the moves after the opening, in order (plies - opening moves)
  double a_points() const;         // 1, 0.5 or 0 for engine A
};

struct MatchResult {
  int wins = 0;  // for A
  int draws = 0;
  int losses = 0;
  std::vector<GameRecord> games;  // in game-index order
  EloEstimate elo() const { return elo_estimate(wins, draws, losses); }
  // Games 2k and 2k+1 share an opening with colours reversed: their pair results (A's view).
  Pentanomial pentanomial() const;
};

// Called after each finished game (from a worker thread, serialised by the runner).
using GameCallback = std::function<void(const GameRecord&, const MatchResult& so_far)>;

// An engine playing in this process under a referee: the referee's game (`options` naming another
// variant are an error), no move overhead (no communication delay to keep time back for), the
// referee's draw laws, then `options` in order (they may override the last two).
Status configure_in_process_engine(Engine& engine, const OptionList& options, DrawRules rules, Variant game);

// Plays the match. An engine that refuses an option or returns an illegal move is an error.
Expected<MatchResult> run_match(const MatchConfig& config, const GameCallback& on_game = {});

}  // namespace damas
