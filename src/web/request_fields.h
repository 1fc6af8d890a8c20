// The readers of a request's fields: strings, numbers in a range, the game settings of `new` and
// `load-pdn`, a review's limits; each says what is wrong as a 400 error.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api_error.h"
#include "damas/core/draw_rules.h"
#include "damas/core/json.h"
#include "damas/core/types.h"
#include "damas/engine/engine.h"

namespace damas::web {

enum class Mode { Computer, TwoPlayers };

struct GameSettings {
  Mode mode = Mode::TwoPlayers;
  DrawRules rules = DrawRules::Seed;
  std::string level = "medium";
  Color human = Color::White;
  double movetime = 1.0;
};

// A string field, or `fallback` when it is absent (none: the field is required).
Result<std::string> string_field(const Json& body, std::string_view key, std::optional<std::string> fallback);
// A number from lo to hi, or `fallback` when absent.
Result<double> number_field(const Json& body, std::string_view key, double fallback, double lo, double hi);
// A whole number from lo to hi (required when fallback is out of that range).
Result<int> whole_field(const Json& body, std::string_view key, int fallback, int lo, int hi);

Result<GameSettings> game_settings(const Json& body, double default_movetime, Variant variant);
// The game a new session plays (the rules table's names), or `fallback` when absent.
Result<Variant> variant_field(const Json& body, Variant fallback);
// depth (1..30) or movetime (0.01..60 s) per position; depth 10 by default.
Result<SearchLimits> review_limits(const Json& body);

}  // namespace damas::web
