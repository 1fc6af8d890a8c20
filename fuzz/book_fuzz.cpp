// libFuzzer target: the opening book reader (book/book_file.h) on arbitrary bytes.
// The checksum is set right before parsing, so the fuzzer reaches the checks behind it.
// Invariants checked (a violation traps):
//   * a refusal names the file and says why (a non-empty message after "fuzz.book: ");
//   * a book that is read writes back to the very same bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "damas/book/book_file.h"
#include "damas/core/binary_io.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace damas;
  std::vector<unsigned char> bytes(data, data + size);
  if (bytes.size() >= book::kBookHeaderBytes) {
    const std::uint64_t head = fnv1a64(bytes.data(), 56);
    put_le(&bytes[56], fnv1a64(bytes.data() + 64, bytes.size() - 64, head), 8);
  }
  const Expected<book::Book> read = book::parse_book(bytes, "fuzz.book");
  if (!read) {
    const std::string prefix = "fuzz.book: ";
    check(read.error().size() > prefix.size() && read.error().compare(0, prefix.size(), prefix) == 0);
    return 0;
  }
  check(book::serialize_book(*read) == bytes);
  return 0;
}
