// `damas soak` (tools/soak): load and attack of a `damas serve` on loopback, bounded in time and
// count. Simulated people play whole games against the computer at random levels over HTTP, with
// a WebSocket each; slow clients trickle headers and bodies; malformed traffic (HTTP lines,
// headers, bodies, JSON, WebSocket frames) is sent case by case. Every computer move is checked
// by the rules core, every malformed case must get a 4xx or a closed connection, and the server
// must serve normally after each phase.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace damas::cli::soak {

struct PlayConfig {
  int people = 200;
  std::chrono::milliseconds duration{60000};
  std::chrono::milliseconds think_min{500};  // a person's pause before each action
  std::chrono::milliseconds think_max{3000};
  std::uint64_t seed = 1;
};

struct Latencies {
  std::vector<double> ms;
  double percentile(double p) const;  // 0 when empty
};

// What the people counted; kBusy and kSessionBusy are the queue's 503 and 429 answers.
enum Count : std::size_t {
  kGamesStarted,
  kGamesFinished,
  kPersonMoves,
  kComputerMoves,
  kHints,
  kAnalyses,
  kWsOpened,
  kWsEvents,
  kBusy,
  kSessionBusy,
  kIllegal,
  kLostSessions,
  kErrors,
  kCounts
};

struct PlayReport {
  std::array<std::uint64_t, kCounts> count{};
  std::vector<std::string> problems;  // the first few, for people
  Latencies state, move, engine_move, hint;
  double seconds = 0;
};

struct SlowConfig {
  int clients = 200;
  std::chrono::milliseconds duration{15000};
  int normal_requests = 20;
};

struct SlowReport {
  int clients = 0, closed_by_server = 0, normal_served = 0, normal_requests = 0;
  Latencies normal;
};

struct MalformedConfig {
  int cases = 10000;
  int concurrency = 8;
  std::uint64_t seed = 1;
};

struct MalformedReport {
  int cases = 0, answered_4xx = 0, closed = 0, failures = 0;
  std::vector<std::string> problems;                 // the first few failing cases
  std::vector<std::pair<std::string, int>> by_kind;  // cases per kind
};

struct Target {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
};

PlayReport play(const Target& target, const PlayConfig& config);
SlowReport slow_clients(const Target& target, const SlowConfig& config);
MalformedReport malformed(const Target& target, const MalformedConfig& config);
// The server answers: a new game opened and closed with 200.
bool serving(const Target& target);
// The server's `stats` answer (queue figures), as JSON text.
std::string stats_text(const Target& target);

}  // namespace damas::cli::soak
