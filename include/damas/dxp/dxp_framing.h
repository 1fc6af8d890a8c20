// DXP layer 1 framing: every message is 1..127 ASCII characters followed by one NUL byte.
// TCP may split a message over several reads or join several messages in one read; the
// Deframer buffers bytes and cuts at each NUL. Pure (no I/O); memory stays bounded whatever
// the peer sends, because an over-long message is dropped up to its NUL.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"

namespace damas::dxp {

class Deframer {
 public:
  // Appends received bytes. Returns, in order, every message completed by these bytes, or an
  // error for each refused one (too long, empty, or containing bytes above 127).
  std::vector<Expected<std::string>> feed(std::string_view bytes);
  // Bytes of an unfinished message (received without its NUL so far).
  std::size_t pending() const { return buffer_.size() + dropped_; }

 private:
  std::string buffer_;
  std::size_t dropped_ = 0;  // bytes of an over-long message being skipped
  bool overflow_ = false;
  bool bad_byte_ = false;
};

// The bytes to send for one message (message + NUL), refused if the message is empty, longer
// than 127 characters or contains a byte outside 1..127.
Expected<std::string> frame(std::string_view message);

}  // namespace damas::dxp
