#include "damas/match/match_clock.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "damas/hub/wire.h"

namespace damas {

namespace {

std::optional<double> parse_seconds(std::string_view text) {
  // "m:ss" or plain seconds
  double minutes = 0;
  if (const std::size_t colon = text.find(':'); colon != std::string_view::npos) {
    const std::optional<double> m = parse_seconds(text.substr(0, colon));
    if (!m) return std::nullopt;
    minutes = *m;
    text = text.substr(colon + 1);
  }
  const std::string s(text);
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v) || v < 0) return std::nullopt;
  return minutes * 60 + v;
}

}  // namespace

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  std::string s = buffer;
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::string TimeControl::text() const {
  switch (kind) {
    case Kind::MoveTime:
      return "st=" + seconds_text(move_time);
    case Kind::Depth:
      return "depth=" + std::to_string(depth);
    case Kind::Nodes:
      return "nodes=" + std::to_string(nodes);
    case Kind::Clock:
      break;
  }
  return (moves > 0 ? std::to_string(moves) + "/" : "") + seconds_text(base) + "+" + seconds_text(increment);
}

Expected<TimeControl> parse_time_control(std::string_view text) {
  const Error bad{"bad time control \"" + std::string(text) + "\" (expected e.g. 10+0.1, 60, 40/60+0.5)"};
  TimeControl tc;
  if (const std::size_t slash = text.find('/'); slash != std::string_view::npos) {
    const std::optional<double> m = parse_seconds(text.substr(0, slash));
    if (!m || *m < 1 || *m != std::floor(*m) || *m > 10000) return bad;
    tc.moves = static_cast<int>(*m);
    text = text.substr(slash + 1);
  }
  const std::size_t plus = text.find('+');
  const std::optional<double> base = parse_seconds(text.substr(0, plus));
  if (!base || *base <= 0 || *base > 1e6) return bad;
  tc.base = *base;
  if (plus != std::string_view::npos) {
    const std::optional<double> inc = parse_seconds(text.substr(plus + 1));
    if (!inc || *inc > 1e4) return bad;
    tc.increment = *inc;
  }
  return tc;
}

std::string time_control_tag(const TimeControl& white, const TimeControl& black) {
  return white.text() == black.text() ? white.text() : white.text() + " - " + black.text();
}

MatchClock::MatchClock(const TimeControl& tc, double margin, double timeout)
    : tc_(tc), margin_(margin), timeout_(timeout), time_left_(tc.base) {}

MatchClock::Limit MatchClock::next_move() const {
  hub::Message level("level");
  switch (tc_.kind) {
    case TimeControl::Kind::MoveTime:
      return {level.arg("move-time", seconds_text(tc_.move_time)).str(), tc_.move_time + margin_};
    case TimeControl::Kind::Depth:
      return {level.arg("depth", std::to_string(tc_.depth)).str(), timeout_};
    case TimeControl::Kind::Nodes:
      return {level.arg("nodes", std::to_string(tc_.nodes)).str(), timeout_};
    case TimeControl::Kind::Clock:
      break;
  }
  if (tc_.moves > 0) level.arg("moves", std::to_string(tc_.moves - moves_made_ % tc_.moves));
  level.arg("time", seconds_text(time_left_));
  if (tc_.increment > 0) level.arg("inc", seconds_text(tc_.increment));
  return {level.str(), time_left_ + tc_.increment + margin_};
}

void MatchClock::charge(double seconds) {
  ++moves_made_;
  if (tc_.kind != TimeControl::Kind::Clock) return;
  time_left_ = std::max(0.0, time_left_ + tc_.increment - seconds);
  if (tc_.moves > 0 && moves_made_ % tc_.moves == 0) time_left_ += tc_.base;
}

}  // namespace damas
