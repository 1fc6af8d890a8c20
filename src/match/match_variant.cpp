#include "damas/match/match_variant.h"

#include "damas/engine/options.h"

namespace damas {

Status check_variant_option(const std::vector<std::pair<std::string, std::string>>& options, Variant game) {
  for (const auto& [name, value] : options)
    if (name == option::kVariant && parse_variant(value) != game)
      return Error{"variant=" + value + " contradicts the game played, " + std::string(to_string(game))};
  return Ok{};
}

Status check_openings_variant(const std::vector<Opening>& openings, Variant game) {
  for (std::size_t i = 0; i < openings.size(); ++i)
    if (openings[i].start.variant() != game)
      return Error{"opening " + std::to_string(i + 1) + " is a position of " +
                   std::string(to_string(openings[i].start.variant())) + ", the match plays " +
                   std::string(to_string(game))};
  return Ok{};
}

}  // namespace damas
