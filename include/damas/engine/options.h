// One typed declaration per engine option (name, type, default, range, help, who sees it, where it
// goes), read by the Hub `param` list and `set-param`, every command line, the web and the Engine.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "damas/core/expected.h"
#include "damas/search/search.h"

namespace damas {

enum class OptionType { Bool, Int, String, Enum };

// User options are what a GUI offers (Hub `param` lines, the web's settings). Tuning knobs are set
// by name only (set-param, the command lines of bench, selfplay and hub, match's option.NAME=V):
// they exist to measure the search, not for the people who play it.
enum class Visibility { User, Tuning };

// A value of its option's type: bool (Bool), integer (Int), text (String, Enum).
using OptionValue = std::variant<bool, std::int64_t, std::string>;

// Where a tuning knob goes: a field of SearchTuning. The option's default is read from
// SearchTuning{}, so the two cannot differ. An Int knob of a real field counts hundredths
// (lmr-divisor 180 is lmr_divisor 1.8).
struct TuningField {
  std::variant<bool SearchTuning::*, int SearchTuning::*, double SearchTuning::*> field;

  OptionValue read(const SearchTuning& tuning) const;
  void write(SearchTuning& tuning, const OptionValue& value) const;  // value of the option's type
};

struct OptionSpec {
  std::string name;
  OptionType type = OptionType::String;
  OptionValue default_value;
  std::int64_t min = 0;             // Int only
  std::int64_t max = 0;             // Int only
  std::vector<std::string> values;  // Enum only
  std::string help;
  Visibility visibility = Visibility::User;
  std::optional<TuningField> tuning = std::nullopt;  // set: a knob of the selective search

  // The value as `param value=`, `set-param` and the command line write it ("true", "180", "auto").
  static std::string text(const OptionValue& value);
  // An Enum's values, separated by spaces, as Hub's `values=` and the error for a bad value list them.
  std::string values_text() const;
};

// Every option, user options first in the order the Hub `param` lines list them, then the knobs.
const std::vector<OptionSpec>& option_specs();
const OptionSpec* find_option(std::string_view name);

// Current values of the options. Invalid values are refused with a message; the old value stays.
class Options {
 public:
  Options();  // every option at its default
  Status set(std::string_view name, std::string_view text);
  // The following take a registered name; get() is the text of any type.
  std::string get(std::string_view name) const;
  std::int64_t get_int(std::string_view name) const;
  bool get_bool(std::string_view name) const;
  // The game the `variant` option names (its values are the rules table's variants).
  Variant variant() const;
  // SearchTuning with every knob at its value here, from the declarations.
  SearchTuning tuning() const;

 private:
  std::map<std::string, OptionValue, std::less<>> values_;
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
inline constexpr std::string_view kBook = "book";                   // play from the opening book
inline constexpr std::string_view kBookFile = "book-file";          // file, auto (search list) or none
inline constexpr std::string_view kBookPly = "book-ply";            // deepest ply of the game followed
inline constexpr std::string_view kBookMargin = "book-margin";      // 1/100 man below the best played
// Tuning knobs (Visibility::Tuning), each a field of SearchTuning.
inline constexpr std::string_view kLmr = "lmr";
inline constexpr std::string_view kProbCut = "probcut";
inline constexpr std::string_view kThreatExtension = "threat-extension";
inline constexpr std::string_view kSmpSkipDepths = "smp-skip-depths";
inline constexpr std::string_view kSmpDeepestThread = "smp-deepest-thread";
inline constexpr std::string_view kLmrDivisor = "lmr-divisor";  // hundredths: 180 = 1.8
inline constexpr std::string_view kTimeUse = "time-use";        // percent: 100 = as planned
inline constexpr std::string_view kAspirationDelta = "aspiration-delta";
}  // namespace option

}  // namespace damas
