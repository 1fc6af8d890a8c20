// What the child process of both systems shares: its stdout split into lines.
#include "damas/match/child_process.h"

namespace damas {

void ChildProcess::forget_output() {
  eof_ = false;
  lines_.clear();
  splitter_ = hub::LineSplitter(hub::kMaxLineBytes);
  exit_description_.clear();
}

void ChildProcess::take(std::string_view bytes) {
  splitter_.feed(bytes, [this](std::string_view text, bool) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    lines_.emplace_back(text);
  });
}

void ChildProcess::take_end() {
  eof_ = true;
  splitter_.finish([this](std::string_view text, bool) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    lines_.emplace_back(text);
  });
}

}  // namespace damas
