// `damas serve`: the board page and its JSON API over HTTP, analysis over a WebSocket
// (Boost.Beast on one I/O thread; API calls, which may search, on a small thread pool).
//
//   GET  /, /index.html, /board.css, /board.js   the page, embedded in the binary at build time
//   POST /api/<op>                               web/api.h
//   GET  /ws?session=ID (WebSocket upgrade)      that session's analysis events, one JSON text each
//
// Bounded: request bodies (413 above the limit), header size, connections, WebSocket send queues;
// every read has a timeout; a bad request gets a JSON error and never stops the server.
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
  std::chrono::seconds read_timeout{30};
  std::size_t max_connections = 128;
  int api_threads = 3;
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
  // Blocks until SIGINT or SIGTERM (or stop() from another thread), then stops.
  void run_until_signal();
  void stop();  // closes the listener and every connection, joins the threads; idempotent

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace damas::web
