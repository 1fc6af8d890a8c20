// Input quoted back inside an error message: short, and without characters a message line cannot carry.
#pragma once

#include <string>
#include <string_view>

namespace damas {

// The first 40 bytes of `text` ("..." after when it is longer); control characters, tabs and
// bytes outside printable ASCII become '?', a double quote becomes a single one.
std::string echo_input(std::string_view text);

}  // namespace damas
