// Small string helpers shared by the DXP tests.
#pragma once

#include <string>
#include <string_view>

namespace damas::testing {

// Appends pieces (avoids GCC 12's false -Wrestrict on "literal" + std::string&&).
inline std::string cat(std::string_view a, std::string_view b) {
  std::string s(a);
  s.append(b);
  return s;
}

// A DXP name field: padded with spaces to 32 characters.
inline std::string pad32(std::string s) {
  s.resize(32, ' ');
  return s;
}

}  // namespace damas::testing
