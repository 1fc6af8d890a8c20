#include "damas/cli/progress.h"

#include <algorithm>
#include <cmath>

namespace damas::cli {

std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

std::string bar_text(std::uint64_t done, std::uint64_t total, int width) {
  const auto w = static_cast<std::uint64_t>(std::max(width, 0));
  const std::uint64_t filled = total == 0 ? w : std::min(w, done * w / total);
  std::string text;  // appended, not "[" + ...: GCC 12 warns falsely (-Wrestrict) on that
  text.reserve(w + 2);
  text += '[';
  text.append(filled, '#');
  text.append(w - filled, '.');
  text += ']';
  return text;
}

void ProgressLine::draw(const std::string& text) {
  if (!terminal_) return;
  std::fprintf(out_, "\r%s\033[K", text.c_str());
  std::fflush(out_);
  drawn_ = true;
}

void ProgressLine::message(const std::string& text) {
  if (terminal_) std::fprintf(out_, "\r\033[K");
  std::fprintf(out_, "%s\n", text.c_str());
  std::fflush(out_);
  drawn_ = false;
}

void ProgressLine::clear() {
  if (!terminal_ || !drawn_) return;
  std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
  drawn_ = false;
}

void ProgressLine::finish() {
  if (!terminal_ || !drawn_) return;
  std::fprintf(out_, "\n");
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace damas::cli
