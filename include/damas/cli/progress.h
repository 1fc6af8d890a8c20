// The one terminal status line of the long-running tools (analyze --pdn, datagen, egdb build,
// match): each tool writes its own text, this draws it in place.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace damas::cli {

// "h:mm:ss" of a duration in seconds (a negative one counts as 0).
std::string clock_text(double seconds);

// "[#####.....]": `done` of `total` in `width` characters (total 0 shows a full bar).
std::string bar_text(std::uint64_t done, std::uint64_t total, int width = 30);

// A status line rewritten in place ("\r", the text, erase to the end of the line) on a terminal;
// on anything else it draws nothing, so logs keep only the lines the tool prints itself.
class ProgressLine {
 public:
  ProgressLine(std::FILE* out, bool terminal) : out_(out), terminal_(terminal) {}
  ~ProgressLine() { finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool terminal() const { return terminal_; }
  void draw(const std::string& text);
  // A line of its own above the status line (the next draw puts the status back).
  void message(const std::string& text);
  // Erases the status line and leaves the cursor at its start.
  void clear();
  // Ends the status line with a newline, so that what follows starts below it.
  void finish();

 private:
  std::FILE* out_;
  bool terminal_;
  bool drawn_ = false;
};

}  // namespace damas::cli
