#include "damas/core/game_field.h"

#include <optional>
#include <string>

#include "damas/core/binary_io.h"

namespace damas {

std::array<unsigned char, kGameFieldBytes> game_field(Variant variant) {
  std::array<unsigned char, kGameFieldBytes> field{};
  put_le(field.data(), static_cast<std::uint32_t>(rules::of(variant).pdn_game_type), 4);
  return field;
}

Expected<Variant> read_game_field(const unsigned char* field) {
  const std::uint64_t game_type = get_le(field, 4);
  const std::optional<Variant> variant =
      game_type > 255 ? std::nullopt : variant_of_game_type(static_cast<int>(game_type));
  if (!variant) return Error{"unknown game (PDN GameType " + std::to_string(game_type) + ")"};
  if (get_le(field + 4, 4) != 0) return Error{"reserved header field is not zero"};
  return *variant;
}

}  // namespace damas
