// `damas serve`: the board page and its JSON API over HTTP, analysis over a WebSocket
// (Boost.Beast on one I/O thread; API calls, which may search, on a small thread pool).
//
//   GET  /, /index.html, /board.css, /board.js   the page, embedded in the binary at build time
//   POST /api/<op>                               web/api.h
//   GET  /ws?session=ID (WebSocket upgrade)      that session's analysis events, one JSON text each
//
// Bounded whatever the clients do: request bodies (413 above the limit), header size, connections
// (at the limit the oldest connection still sending its request is dropped for the new one, so
// slow clients cannot lock others out), the time to send a request header and a body (slowloris),
// WebSocket messages (size and rate) and send queues, sessions (api.max_sessions, idle expiry),
// searches (api: the queue), the threads waiting for them (503 beyond). A bad request gets a JSON
// error and never stops the server.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/web/api.h"

namespace damas::web {

// A file of the page (generated from web/board/ by CMake).
struct PageFile {
  std::string_view path;  // "/board.js"
  std::string_view content_type;
  std::string_view body;
};
const std::vector<PageFile>& page_files();

struct ServerConfig {
  std::string host = "127.0.0.1";
  unsigned short port = 0;  // 0 = a free port
  ApiConfig api;
  std::chrono::milliseconds header_timeout{10000};  // a whole request header, or the wait for the next
  std::chrono::milliseconds body_timeout{30000};    // a whole request body
  std::chrono::milliseconds write_timeout{30000};   // a whole answer
  std::size_t max_connections = 512;                // HTTP and WebSocket together
  int api_threads = 4;                              // API calls that do not search
  std::chrono::milliseconds expiry_period{10000};   // how often idle sessions are dropped
  std::size_t ws_max_message = 4096;                // bytes a client may send in one message
  int ws_max_messages_per_second = 20;              // more, and the WebSocket is closed
};

class Server {
 public:
  explicit Server(ServerConfig config);
  ~Server();  // stop()
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and starts serving; returns the port (the chosen one when config.port is 0).
  Expected<unsigned short> start();
  // Api::set_engine_option, before start().
  Status set_engine_option(std::string_view name, std::string_view value);
  // The endgame databases the games' engine probes.
  EgdbStatus egdb_status() const;
  BookStatus book_status() const;
  // Blocks until SIGINT or SIGTERM (or stop() from another thread), then stops.
  void run_until_signal();
  void stop();  // closes the listener and every connection, joins the threads; idempotent

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace damas::web
