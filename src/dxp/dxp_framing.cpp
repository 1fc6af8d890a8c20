#include "damas/dxp/dxp_framing.h"

#include "damas/dxp/dxp_message.h"

namespace damas::dxp {

std::vector<Expected<std::string>> Deframer::feed(std::string_view bytes) {
  std::vector<Expected<std::string>> out;
  for (const char c : bytes) {
    if (c != '\0') {
      if (static_cast<unsigned char>(c) > 127) bad_byte_ = true;
      if (overflow_) {
        ++dropped_;
      } else if (buffer_.size() == kMaxMessageLength) {
        overflow_ = true;
        dropped_ = buffer_.size() + 1;
        buffer_.clear();
      } else {
        buffer_.push_back(c);
      }
      continue;
    }
    if (overflow_) {
      out.emplace_back(Error{"message of " + std::to_string(dropped_) + " characters refused (more than " +
                             std::to_string(kMaxMessageLength) + ")"});
    } else if (buffer_.empty()) {
      out.emplace_back(Error{"empty message refused"});
    } else if (bad_byte_) {
      out.emplace_back(Error{"message with a byte outside ASCII 1..127 refused"});
    } else {
      out.emplace_back(std::move(buffer_));
    }
    buffer_.clear();
    dropped_ = 0;
    overflow_ = false;
    bad_byte_ = false;
  }
  return out;
}

Expected<std::string> frame(std::string_view message) {
  if (message.empty()) return Error{"cannot send an empty message"};
  if (message.size() > kMaxMessageLength)
    return Error{"cannot send a message longer than " + std::to_string(kMaxMessageLength) + " characters"};
  for (const char c : message)
    if (c == '\0' || static_cast<unsigned char>(c) > 127)
      return Error{"cannot send a byte outside ASCII 1..127"};
  std::string s(message);
  s.push_back('\0');
  return s;
}

}  // namespace damas::dxp
