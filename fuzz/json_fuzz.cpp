// libFuzzer target: the strict JSON reader (core/json.h: web API, JSON ballot files).
// Invariants (a violation traps): a refused text comes with a message naming the byte; an accepted
// one dumps to text that reads back to the same dump (a fixed point after one round).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "damas/core/json.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const damas::Expected<damas::Json> j = damas::parse_json(text, {4096, 16});
  if (!j) {
    check(!j.error().empty());
    return 0;
  }
  const std::string once = j->dump();
  const damas::Expected<damas::Json> again = damas::parse_json(once, {1 << 20, 16});
  check(again.has_value() && again->dump() == once);
  return 0;
}
