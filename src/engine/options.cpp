#include "damas/engine/options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <type_traits>
#include <utility>

#include "damas/core/types.h"

namespace damas {
namespace {

OptionSpec boolean(std::string_view name, bool value, std::string help) {
  return {std::string(name), OptionType::Bool, value, 0, 0, {}, std::move(help)};
}

OptionSpec integer(std::string_view name, std::int64_t value, std::int64_t min, std::int64_t max,
                   std::string help) {
  return {std::string(name), OptionType::Int, value, min, max, {}, std::move(help)};
}

OptionSpec text(std::string_view name, std::string value, std::string help) {
  return {std::string(name), OptionType::String, std::move(value), 0, 0, {}, std::move(help)};
}

OptionSpec choice(std::string_view name, std::string value, std::vector<std::string> values,
                  std::string help) {
  return {std::string(name), OptionType::Enum, std::move(value), 0, 0, std::move(values), std::move(help)};
}

// A tuning knob: its type and default come from its SearchTuning field.
OptionSpec knob(OptionSpec spec, TuningField field) {
  spec.default_value = field.read(SearchTuning{});
  spec.visibility = Visibility::Tuning;
  spec.tuning = field;
  return spec;
}
OptionSpec knob(std::string_view name, bool SearchTuning::*field, std::string help) {
  return knob(boolean(name, false, std::move(help)), {field});
}
OptionSpec knob(std::string_view name, int SearchTuning::*field, std::int64_t min, std::int64_t max,
                std::string help) {
  return knob(integer(name, 0, min, max, std::move(help)), {field});
}
OptionSpec hundredths_knob(std::string_view name, double SearchTuning::*field, std::int64_t min,
                           std::int64_t max, std::string help) {
  return knob(integer(name, 0, min, max, std::move(help)), {field});
}

// The games of the rules table (core/types.h), as the variant option offers them.
std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const Variant v : kVariants) names.emplace_back(to_string(v));
  return names;
}

// Hub lists them in this order. Front ends read variant, ponder and numbering; the Engine reads
// hash, level, eval-file and egdb-* into its tables, the others into each search.
std::vector<OptionSpec> user_options() {
  return {
      choice(option::kVariant, std::string(to_string(Variant::Brazilian)), variant_names(),
             "rules played (each game has its own endgame databases and opening book)"),
      integer(option::kThreads, 1, 1, 64, "search threads"),
      integer(option::kHash, 64, 1, 16384, "transposition table size in MiB"),
      boolean(option::kPonder, false, "the GUI will let the engine think on the opponent's time"),
      choice(option::kLevel, "full", {"beginner", "easy", "medium", "hard", "full"}, "playing strength"),
      choice(option::kNumbering, "standard", {"standard", "a1"},
             "square numbers of moves: standard (1 = b8) or a1 (1 = a1, pydraughts)"),
      integer(option::kMoveOverhead, 30, 0, 5000,
              "milliseconds kept back on every move for communication delays"),
      choice(option::kEval, "learned", {"classic", "learned"},
             "evaluation: classic (hand-written terms) or learned (the trained network)"),
      text(option::kEvalFile, "",
           "evaluation weights file: classic text weights or a learned-weights file, told apart by content "
           "(empty = built-in weights of both)"),
      integer(option::kMultiPv, 1, 1, 32, "number of best lines searched and reported (analysis)"),
      integer(option::kSeed, 0, 0, 2147483647,
              "random seed of weak levels and of the book's choice (0 = different every game; other values "
              "repeat exactly)"),
      choice(option::kDrawRules, std::string(kGameDrawRules), draw_rules_names(),
             "draw laws: game (the game's own: fmjd64 for russian, portuguese for portuguese, seed for the "
             "others), seed (threefold repetition, 80 plies without capture or man move), fmjd64 (FMJD-64 "
             "articles 7.2.3-7.2.8 as lidraughts applies them) or portuguese (the FPD's rule 3.2.1)"),
      integer(option::kEgdbPieces, 8, 2, 8,
              "endgame databases: probe positions with up to this many pieces (as far as egdb-path holds)"),
      text(option::kEgdbPath, "auto",
           "endgame database directory (damas egdb build); auto (or empty) = the first found of $DAMAS_EGDB, "
           "the user directory ~/.local/share/damas/egdb and the installed <prefix>/share/damas/egdb; none = "
           "no databases"),
      boolean(option::kBook, true, "play from the opening book: its moves are answered at once"),
      text(option::kBookFile, "auto",
           "opening book file (damas book build); auto (or empty) = the game's book, the first found of "
           "$DAMAS_BOOK, ~/.local/share/damas/<game>.book and the installed <prefix>/share/damas/<game>.book "
           "(brazilian.book, russian.book); none = no book"),
      integer(option::kBookPly, 100, 0, 255,
              "follow the book in positions up to this ply from the initial position (weaker levels stop "
              "sooner)"),
      integer(option::kBookMargin, 8, 0, 100,
              "pick at random (by seed) among the book moves within this many hundredths of a man of the "
              "best (twice as many in the first two plies); 0 = always the best"),
  };
}

// Set by name, never listed; each goes into its SearchTuning field.
std::vector<OptionSpec> tuning_knobs() {
  using T = SearchTuning;
  return {
      knob(option::kLmr, &T::lmr, "search: late move reductions"),
      knob(option::kProbCut, &T::probcut, "search: ProbCut (a shallow search far above beta predicts a cut)"),
      knob(option::kThreatExtension, &T::threat_extension,
           "search: one more ply at the horizon when the opponent threatens a capture"),
      knob(option::kSmpSkipDepths, &T::smp_skip_depths,
           "search, threads > 1: helper threads skip some depths, so they search ahead of the main thread"),
      knob(option::kSmpDeepestThread, &T::smp_deepest_thread,
           "search, threads > 1: play the move of the thread with the deepest completed iteration"),
      hundredths_knob(option::kLmrDivisor, &T::lmr_divisor, 50, 1000,
                      "search: late move reductions are ln(depth) * ln(move number) / (this / 100); smaller "
                      "reduces more"),
      hundredths_knob(
          option::kTimeUse, &T::time_use, 50, 300,
          "time: percent of the planned time per move the search may use before it stops deepening"),
      knob(option::kAspirationDelta, &T::aspiration_delta, 5, 400,
           "search: half width of the first aspiration window at the root, in hundredths of a man"),
  };
}

Expected<OptionValue> parse(const OptionSpec& spec, std::string_view value) {
  switch (spec.type) {
    case OptionType::Bool:
      if (value == "true" || value == "false") return OptionValue{value == "true"};
      return Error{"option " + spec.name + " takes true or false, not \"" + std::string(value) + "\""};
    case OptionType::Int: {
      std::int64_t v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc{} || end != value.data() + value.size())
        return Error{"option " + spec.name + " takes an integer, not \"" + std::string(value) + "\""};
      if (v < spec.min || v > spec.max)
        return Error{"option " + spec.name + " must be between " + std::to_string(spec.min) + " and " +
                     std::to_string(spec.max)};
      return OptionValue{v};
    }
    case OptionType::Enum:
      if (std::find(spec.values.begin(), spec.values.end(), value) != spec.values.end())
        return OptionValue{std::string(value)};
      return Error{"unsupported value \"" + std::string(value) + "\" for option " + spec.name +
                   " (one of: " + spec.values_text() + ")"};
    case OptionType::String:
      break;
  }
  return OptionValue{std::string(value)};
}

}  // namespace

OptionValue TuningField::read(const SearchTuning& tuning) const {
  return std::visit(
      [&tuning](auto member) -> OptionValue {
        const auto v = tuning.*member;
        if constexpr (std::is_same_v<decltype(v), const bool>) return v;
        else if constexpr (std::is_same_v<decltype(v), const double>) return std::llround(v * 100.0);
        else return std::int64_t{v};
      },
      field);
}

void TuningField::write(SearchTuning& tuning, const OptionValue& value) const {
  std::visit(
      [&tuning, &value](auto member) {
        auto& v = tuning.*member;
        if constexpr (std::is_same_v<decltype(v), bool&>) v = std::get<bool>(value);
        else if constexpr (std::is_same_v<decltype(v), double&>)
          v = static_cast<double>(std::get<std::int64_t>(value)) / 100.0;
        else v = static_cast<int>(std::get<std::int64_t>(value));
      },
      field);
}

Variant Options::variant() const { return parse_variant(get(option::kVariant)).value_or(Variant::Brazilian); }

std::string OptionSpec::values_text() const {
  std::string text;
  for (const std::string& v : values) text += (text.empty() ? "" : " ") + v;
  return text;
}

std::string OptionSpec::text(const OptionValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const std::int64_t* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  return std::get<std::string>(value);
}

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> kSpecs = [] {
    std::vector<OptionSpec> specs = user_options();
    for (OptionSpec& knob : tuning_knobs()) specs.push_back(std::move(knob));
    return specs;
  }();
  return kSpecs;
}

const OptionSpec* find_option(std::string_view name) {
  for (const OptionSpec& s : option_specs())
    if (s.name == name) return &s;
  return nullptr;
}

Options::Options() {
  for (const OptionSpec& s : option_specs()) values_[s.name] = s.default_value;
}

Status Options::set(std::string_view name, std::string_view text) {
  const OptionSpec* spec = find_option(name);
  if (!spec) return Error{"unknown option \"" + std::string(name) + "\""};
  Expected<OptionValue> value = parse(*spec, text);
  if (!value) return Error{value.error()};
  values_.find(name)->second = std::move(*value);
  return Ok{};
}

std::string Options::get(std::string_view name) const { return OptionSpec::text(values_.find(name)->second); }

std::int64_t Options::get_int(std::string_view name) const {
  return std::get<std::int64_t>(values_.find(name)->second);
}

bool Options::get_bool(std::string_view name) const { return std::get<bool>(values_.find(name)->second); }

SearchTuning Options::tuning() const {
  SearchTuning tuning;
  for (const OptionSpec& spec : option_specs())
    if (spec.tuning) spec.tuning->write(tuning, values_.find(spec.name)->second);
  return tuning;
}

}  // namespace damas
