#include "request_fields.h"

#include <algorithm>
#include <cmath>

#include "damas/engine/options.h"

namespace damas::web {
namespace {

ApiError bad_request(std::string message) { return {ErrorKind::BadRequest, std::move(message)}; }

}  // namespace

Result<std::string> string_field(const Json& body, std::string_view key,
                                 std::optional<std::string> fallback) {
  const Json* v = body.find(key);
  if (!v) {
    if (fallback) return *fallback;
    return bad_request("missing field \"" + std::string(key) + "\"");
  }
  if (!v->is_string()) return bad_request("field \"" + std::string(key) + "\" must be a string");
  return v->as_string();
}

Result<double> number_field(const Json& body, std::string_view key, double fallback, double lo, double hi) {
  const Json* v = body.find(key);
  if (!v) return fallback;
  if (!v->is_number() || !(v->as_number() >= lo && v->as_number() <= hi))
    return bad_request("field \"" + std::string(key) + "\" must be a number from " + std::to_string(lo) +
                       " to " + std::to_string(hi));
  return v->as_number();
}

Result<int> whole_field(const Json& body, std::string_view key, int fallback, int lo, int hi) {
  const Result<double> n = number_field(body, key, fallback, lo, hi);
  if (!n || *n < lo || *n > hi || *n != std::floor(*n))
    return bad_request("field \"" + std::string(key) + "\" must be a whole number from " +
                       std::to_string(lo) + " to " + std::to_string(hi));
  return static_cast<int>(*n);
}

Result<GameSettings> game_settings(const Json& body, double default_movetime, Variant variant) {
  GameSettings g;
  const Result<std::string> mode = string_field(body, "mode", "two-players");
  if (!mode) return mode.error();
  if (*mode == "computer") g.mode = Mode::Computer;
  else if (*mode != "two-players") return bad_request("mode must be \"computer\" or \"two-players\"");
  const Result<std::string> level = string_field(body, "level", "medium");
  if (!level) return level.error();
  const OptionSpec* levels = find_option(option::kLevel);
  if (!levels || std::find(levels->values.begin(), levels->values.end(), *level) == levels->values.end())
    return bad_request("level must be beginner, easy, medium, hard or full");
  g.level = *level;
  const Result<std::string> human = string_field(body, "human", "white");
  if (!human) return human.error();
  if (*human == "black") g.human = Color::Black;
  else if (*human != "white") return bad_request("human must be \"white\" or \"black\"");
  const Result<double> movetime = number_field(body, "movetime", default_movetime, 0.01, 60);
  if (!movetime) return movetime.error();
  g.movetime = *movetime;
  const Result<std::string> rules = string_field(body, "rules", std::string(kGameDrawRules));
  if (!rules) return rules.error();
  const std::optional<DrawRules> parsed = parse_draw_rules(*rules, variant);
  if (!parsed) {
    const OptionSpec* laws = find_option(option::kDrawRules);
    return bad_request("rules must be one of: " + (laws ? laws->values_text() : std::string("seed")));
  }
  g.rules = *parsed;
  return g;
}

Result<Variant> variant_field(const Json& body, Variant fallback) {
  const Result<std::string> name = string_field(body, "variant", std::string(to_string(fallback)));
  if (!name) return name.error();
  if (const std::optional<Variant> v = parse_variant(*name)) return *v;
  std::string names;
  for (const Variant v : kVariants) {
    const bool last = v == kVariants[kVariantCount - 1];
    names += std::string(names.empty() ? "\"" : last ? " or \"" : ", \"") + std::string(to_string(v)) + "\"";
  }
  return bad_request("unknown variant \"" + *name + "\": variant must be " + names);
}

Result<SearchLimits> review_limits(const Json& body) {
  SearchLimits limits;
  const Result<double> depth = number_field(body, "depth", 0, 1, 30);
  const Result<double> movetime = number_field(body, "movetime", 0, 0.01, 60);
  if (!depth || *depth != std::floor(*depth))
    return bad_request("field \"depth\" must be a whole number from 1 to 30");
  if (!movetime) return movetime.error();
  if (*depth > 0 && *movetime > 0) return bad_request("give depth or movetime, not both");
  if (*movetime > 0) limits.move_time = *movetime;
  else limits.depth = *depth > 0 ? static_cast<int>(*depth) : 10;
  return limits;
}

}  // namespace damas::web
