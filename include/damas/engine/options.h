// One registry of engine options. It feeds the Hub `param` list, `set-param`, and the command
// line (Boost.Program_options) of every subcommand, so a name means the same thing everywhere.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"

namespace damas {

enum class OptionType { Bool, Int, Real, String, Enum };

struct OptionSpec {
  std::string name;
  OptionType type = OptionType::String;
  std::string default_value;
  std::int64_t min = 0;             // Int only
  std::int64_t max = 0;             // Int only
  std::vector<std::string> values;  // Enum only
  std::string help;
};

// The options every engine instance understands, in the order the Hub `param` lines list them.
const std::vector<OptionSpec>& option_specs();
const OptionSpec* find_option(std::string_view name);

// Current values of the options. Invalid values are refused with a message; the old value stays.
class Options {
 public:
  Options();  // every option at its default
  Status set(std::string_view name, std::string_view value);
  const std::string& get(std::string_view name) const;  // name must be registered
  std::int64_t get_int(std::string_view name) const;
  bool get_bool(std::string_view name) const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

// Names used in code (keeps typos out of string look-ups).
namespace option {
inline constexpr std::string_view kVariant = "variant";
inline constexpr std::string_view kThreads = "threads";
inline constexpr std::string_view kHash = "hash";  // MiB
inline constexpr std::string_view kPonder = "ponder";
inline constexpr std::string_view kLevel = "level";                 // beginner easy medium hard full
inline constexpr std::string_view kNumbering = "numbering";         // standard a1
inline constexpr std::string_view kMoveOverhead = "move-overhead";  // ms kept back per move
inline constexpr std::string_view kEval = "eval";                   // classic learned
inline constexpr std::string_view kEvalFile = "eval-file";          // weights file; empty = built-in
inline constexpr std::string_view kMultiPv = "multipv";             // lines searched and reported
inline constexpr std::string_view kSeed = "seed";                   // 0 = random; else reproducible levels
inline constexpr std::string_view kDrawRules = "draw-rules";        // seed fmjd64 (core/draw_rules.h)
inline constexpr std::string_view kEgdbPieces = "egdb-pieces";      // largest piece count probed
inline constexpr std::string_view kEgdbPath = "egdb-path";          // directory, auto (search list) or none
// Switches of the selective search (SearchTuning), so selfplay can measure each one.
inline constexpr std::string_view kLmr = "lmr";
inline constexpr std::string_view kProbCut = "probcut";
inline constexpr std::string_view kThreatExtension = "threat-extension";
// Move ordering (SearchTuning::countermove): the countermove heuristic.
inline constexpr std::string_view kCountermove = "countermove";
inline constexpr std::array<std::string_view, 4> kSearchSwitches = {kLmr, kProbCut, kThreatExtension,
                                                                    kCountermove};
// Switches of Lazy SMP (SearchTuning; no effect with one thread, so not bench's).
inline constexpr std::string_view kSmpSkipDepths = "smp-skip-depths";
inline constexpr std::string_view kSmpDeepestThread = "smp-deepest-thread";
// Late move reductions: SearchTuning::lmr_divisor in hundredths (180 = 1.8).
inline constexpr std::string_view kLmrDivisor = "lmr-divisor";
// Time management: SearchTuning::time_use in percent (100 = as planned).
inline constexpr std::string_view kTimeUse = "time-use";
// Aspiration windows: SearchTuning::aspiration_delta, in evaluation units (100 = a man).
inline constexpr std::string_view kAspirationDelta = "aspiration-delta";
// Time management (SearchTuning::time_score_drop): more time when the root score falls.
inline constexpr std::string_view kTimeScoreDrop = "time-score-drop";
}  // namespace option

}  // namespace damas
