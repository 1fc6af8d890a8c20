// DXP over TCP (Boost.Asio): listens or connects, cuts the byte stream into messages, paces
// what it sends, enforces the session's timeouts and feeds a dxp::Session. One connection at a
// time; everything runs on one thread except the search, whose answers are posted back.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/dxp/dxp.h"
#include "damas/dxp/dxp_player.h"

namespace damas::dxp {

inline constexpr std::uint16_t kDefaultPort = 27531;

struct TransportConfig {
  std::string host = "127.0.0.1";                     // listening address, or the peer to connect to
  std::uint16_t port = kDefaultPort;                  // 0 when listening = any free port (tests)
  std::chrono::milliseconds pace{50};                 // minimum gap between two sent messages
  std::chrono::milliseconds connect_timeout{10'000};  // connecting: keep retrying this long
  int max_connections = 0;  // listening: stop after this many connections (0 = never)
  bool trace = false;       // log every message sent and received
};

// What every connection shares: the engine, where finished games go, where logs go.
// Called only from the transport's thread.
struct Services {
  Player* player = nullptr;
  std::function<void(const FinishedGame&)> save_game;
  std::function<void(std::string_view)> log;
};

struct ConnectionReport {
  bool match_complete = false;  // initiator: all games played to a result
  MatchSummary summary;
  std::string end;  // how the connection ended
};

// Follower (or initiator) on a listening socket: serves accepted connections one after the
// other until stop() or max_connections.
class Listener {
 public:
  Listener(TransportConfig transport, SessionConfig session, Services services);
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;

  Expected<std::uint16_t> open();       // binds and listens; returns the port actually bound
  std::vector<ConnectionReport> run();  // after open(); blocks
  void stop();                          // any thread; ends run() (a current game is saved)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Connects (retrying until connect_timeout) and runs one session until the connection ends.
Expected<ConnectionReport> connect_and_run(const TransportConfig& transport, const SessionConfig& session,
                                           const Services& services);

}  // namespace damas::dxp
