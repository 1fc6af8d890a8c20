#include "damas/engine/options.h"

#include <algorithm>
#include <charconv>

namespace damas {

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> kSpecs = {
      {std::string(option::kVariant),
       OptionType::Enum,
       "brazilian",
       0,
       0,
       {"brazilian"},
       "rules played (Brazilian draughts only)"},
      {std::string(option::kThreads), OptionType::Int, "1", 1, 64, {}, "search threads"},
      {std::string(option::kHash), OptionType::Int, "64", 1, 16384, {}, "transposition table size in MiB"},
      {std::string(option::kPonder),
       OptionType::Bool,
       "false",
       0,
       0,
       {},
       "the GUI will let the engine think on the opponent's time"},
      {std::string(option::kLevel),
       OptionType::Enum,
       "full",
       0,
       0,
       {"beginner", "easy", "medium", "hard", "full"},
       "playing strength"},
      {std::string(option::kNumbering),
       OptionType::Enum,
       "standard",
       0,
       0,
       {"standard", "a1"},
       "square numbers of moves: standard (1 = b8) or a1 (1 = a1, pydraughts)"},
      {std::string(option::kMoveOverhead),
       OptionType::Int,
       "30",
       0,
       5000,
       {},
       "milliseconds kept back on every move for communication delays"},
      {std::string(option::kEval),
       OptionType::Enum,
       "learned",
       0,
       0,
       {"classic", "learned"},
       "evaluation: classic (hand-written terms) or learned (the trained network)"},
      {std::string(option::kEvalFile),
       OptionType::String,
       "",
       0,
       0,
       {},
       "evaluation weights file: classic text weights or a learned-weights file, told apart by content "
       "(empty = built-in weights of both)"},
      {std::string(option::kMultiPv),
       OptionType::Int,
       "1",
       1,
       32,
       {},
       "number of best lines searched and reported (analysis)"},
      {std::string(option::kSeed),
       OptionType::Int,
       "0",
       0,
       2147483647,
       {},
       "random seed of weak levels (0 = different every game; other values repeat exactly)"},
      {std::string(option::kDrawRules),
       OptionType::Enum,
       "seed",
       0,
       0,
       {"seed", "fmjd64"},
       "draw laws: seed (threefold repetition, 80 plies without capture or man move) or fmjd64 "
       "(FMJD-64 articles 7.2.3-7.2.8 as lidraughts applies them)"},
      {std::string(option::kEgdbPieces),
       OptionType::Int,
       "8",
       2,
       8,
       {},
       "endgame databases: probe positions with up to this many pieces (as far as egdb-path holds)"},
      {std::string(option::kEgdbPath),
       OptionType::String,
       "auto",
       0,
       0,
       {},
       "endgame database directory (damas egdb build); auto (or empty) = the first found of $DAMAS_EGDB, "
       "the user directory ~/.local/share/damas/egdb and the installed <prefix>/share/damas/egdb; none = "
       "no databases"},
      // Defaults are SearchTuning's (search.h): what the engine plays with.
      {std::string(option::kLmr), OptionType::Bool, "true", 0, 0, {}, "search: late move reductions"},
      {std::string(option::kProbCut),
       OptionType::Bool,
       "true",
       0,
       0,
       {},
       "search: ProbCut (a shallow search far above beta predicts a cut)"},
      {std::string(option::kThreatExtension),
       OptionType::Bool,
       "false",
       0,
       0,
       {},
       "search: one more ply at the horizon when the opponent threatens a capture"},
      {std::string(option::kSmpSkipDepths),
       OptionType::Bool,
       "true",
       0,
       0,
       {},
       "search, threads > 1: helper threads skip some depths, so they search ahead of the main thread"},
      {std::string(option::kSmpDeepestThread),
       OptionType::Bool,
       "true",
       0,
       0,
       {},
       "search, threads > 1: play the move of the thread with the deepest completed iteration"},
      {std::string(option::kLmrDivisor),
       OptionType::Int,
       "180",
       50,
       1000,
       {},
       "search: late move reductions are ln(depth) * ln(move number) / (this / 100); smaller reduces more"},
      {std::string(option::kTimeUse),
       OptionType::Int,
       "100",
       50,
       300,
       {},
       "time: percent of the planned time per move the search may use before it stops deepening"},
      {std::string(option::kAspirationDelta),
       OptionType::Int,
       "25",
       5,
       400,
       {},
       "search: half width of the first aspiration window at the root, in hundredths of a man"},
      {std::string(option::kCountermove),
       OptionType::Bool,
       "false",
       0,
       0,
       {},
       "search: order the move that last refuted the opponent's move right after the killers"},
      {std::string(option::kTimeScoreDrop),
       OptionType::Bool,
       "false",
       0,
       0,
       {},
       "time management: search longer when the score falls as the search goes deeper"},
  };
  return kSpecs;
}

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& s : option_specs())
    if (s.name == name) return &s;
  return nullptr;
}

namespace {

Status validate(const OptionSpec& spec, std::string_view value) {
  switch (spec.type) {
    case OptionType::Bool:
      if (value == "true" || value == "false") return Ok{};
      return Error{"option " + spec.name + " takes true or false, not \"" + std::string(value) + "\""};
    case OptionType::Int: {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc{} || end != value.data() + value.size())
        return Error{"option " + spec.name + " takes an integer, not \"" + std::string(value) + "\""};
      if (v < spec.min || v > spec.max)
        return Error{"option " + spec.name + " must be between " + std::to_string(spec.min) + " and " +
                     std::to_string(spec.max)};
      return Ok{};
    }
    case OptionType::Enum:
      if (std::find(spec.values.begin(), spec.values.end(), value) != spec.values.end()) return Ok{};
      return Error{"unsupported value \"" + std::string(value) + "\" for option " + spec.name};
    case OptionType::Real:
    case OptionType::String:
      return Ok{};
  }
  return Ok{};
}

}  // namespace

Options::Options() {
  for (const OptionSpec& s : option_specs()) values_[s.name] = s.default_value;
}

Status Options::set(std::string_view name, std::string_view value) {
  const OptionSpec* spec = find_option(name);
  if (!spec) return Error{"unknown option \"" + std::string(name) + "\""};
  if (Status s = validate(*spec, value); !s) return s;
  values_.find(name)->second = std::string(value);
  return Ok{};
}

const std::string& Options::get(std::string_view name) const { return values_.find(name)->second; }

std::int64_t Options::get_int(std::string_view name) const {
  std::int64_t v = 0;
  const std::string& s = get(name);
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

bool Options::get_bool(std::string_view name) const { return get(name) == "true"; }

}  // namespace damas
