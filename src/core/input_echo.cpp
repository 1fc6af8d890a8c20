#include "damas/core/input_echo.h"

namespace damas {

std::string echo_input(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  std::string shown;
  for (const char c : text.substr(0, kMaxShown)) {
    const auto u = static_cast<unsigned char>(c);
    shown += u < 0x20 || u > 0x7e ? '?' : c == '"' ? '\'' : c;
  }
  if (text.size() > kMaxShown) shown += "...";
  return shown;
}

}  // namespace damas
