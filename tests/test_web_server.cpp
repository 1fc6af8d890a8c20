// `damas serve` over loopback: the page, the API over HTTP, bad requests answered and survived,
// analysis over a WebSocket. Ephemeral port; every client operation has a time limit.
#include <utility>  // before Boost.Asio, whose awaitable.hpp needs std::exchange

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "damas/core/json.h"
#include "damas/web/server.h"

using namespace damas;
using namespace damas::web;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kLimit = std::chrono::seconds(10);

// Sends raw bytes and reads the answer until the server closes (or the time limit).
std::string raw_exchange(unsigned short port, const std::string& raw,
                         std::chrono::steady_clock::duration limit = kLimit) {
  asio::io_context ioc;
  tcp::socket socket(ioc);
  std::string answer;
  std::array<char, 4096> chunk{};
  std::function<void()> read_more = [&] {
    socket.async_read_some(asio::buffer(chunk), [&](beast::error_code ec, std::size_t n) {
      answer.append(chunk.data(), n);
      if (!ec) read_more();
    });
  };
  socket.async_connect({asio::ip::make_address("127.0.0.1"), port}, [&](beast::error_code ec) {
    if (ec) return;
    asio::async_write(socket, asio::buffer(raw), [&](beast::error_code wec, std::size_t) {
      if (!wec) read_more();
    });
  });
  ioc.run_for(limit);
  return answer;
}

std::string post(unsigned short port, const std::string& target, const std::string& body,
                 std::chrono::steady_clock::duration limit = kLimit) {
  return raw_exchange(port,
                      "POST " + target +
                          " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                          "Content-Type: application/json\r\nContent-Length: " +
                          std::to_string(body.size()) + "\r\n\r\n" + body,
                      limit);
}

int status_of(const std::string& response) {
  if (response.rfind("HTTP/1.1 ", 0) != 0) return 0;
  return std::stoi(response.substr(9, 3));
}

Json body_of(const std::string& response) {
  const std::size_t at = response.find("\r\n\r\n");
  REQUIRE(at != std::string::npos);
  const Expected<Json> j = parse_json(response.substr(at + 4));
  INFO(response);
  REQUIRE(j.has_value());
  return *j;
}

ServerConfig test_config() {
  ServerConfig c;
  c.port = 0;
  c.api.hash_mib = 4;
  c.api.max_body = 4096;
  c.api.default_move_seconds = 0.02;
  c.header_timeout = std::chrono::seconds(5);
  c.body_timeout = std::chrono::seconds(5);
  return c;
}

}  // namespace

TEST_CASE("web server: the page, the API and bad requests over loopback", "[web][loopback]") {
  Server server(test_config());
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  REQUIRE(*port != 0);

  const std::string page = raw_exchange(*port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  CHECK(status_of(page) == 200);
  CHECK(page.find("text/html") != std::string::npos);
  CHECK(page.find("board.js") != std::string::npos);
  CHECK(status_of(raw_exchange(*port, "GET /board.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) ==
        200);
  CHECK(status_of(raw_exchange(
            *port, "GET /../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) == 404);

  const std::string created = post(*port, "/api/new", R"({"mode":"computer","level":"beginner"})");
  REQUIRE(status_of(created) == 200);
  const std::string id = body_of(created).find("session")->as_string();

  // Bad requests, each answered with a JSON error; the server keeps serving.
  const std::string malformed = post(*port, "/api/move", "{\"session\":");
  CHECK(status_of(malformed) == 400);
  CHECK(body_of(malformed).find("error"));
  CHECK(status_of(post(*port, "/api/move", R"({"session":")" + id + R"(","move":"a1-h8"})")) == 422);
  CHECK(status_of(post(*port, "/api/state", R"({"session":"nobody"})")) == 404);
  const std::string big = post(*port, "/api/new", std::string(10000, ' ') + "{}");
  CHECK(status_of(big) == 413);
  CHECK(body_of(big).find("error"));
  CHECK(status_of(raw_exchange(*port, "GARBAGE\r\n\r\n")) == 400);
  CHECK(status_of(raw_exchange(*port, "POST /api/new HTTP/1.1\r\nContent-Length: zz\r\n\r\n")) == 400);

  const std::string moved = post(*port, "/api/move", R"({"session":")" + id + R"(","move":"c3-d4"})");
  REQUIRE(status_of(moved) == 200);
  CHECK(body_of(moved).find("turn")->as_string() == "computer");
  const std::string answered = post(*port, "/api/engine-move", R"({"session":")" + id + R"("})");
  REQUIRE(status_of(answered) == 200);
  CHECK(body_of(answered).find("moves")->as_array().size() == 2);
  server.stop();
}

TEST_CASE("web server: engines.json tells the page that the engine answers on the server",
          "[web][loopback]") {
  // The page asks this instead of probing the API with a request that fails (issue 19).
  Server server(test_config());
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  const std::string answer =
      raw_exchange(*port, "GET /engines.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  REQUIRE(status_of(answer) == 200);
  CHECK(answer.find("application/json") != std::string::npos);
  CHECK(body_of(answer).find("server")->as_bool());
  CHECK_FALSE(body_of(answer).find("browser")->as_bool());
}

TEST_CASE("web server: a WebSocket streams the session's analysis as JSON", "[web][loopback]") {
  Server server(test_config());
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  const std::string id = body_of(post(*port, "/api/new", "{}")).find("session")->as_string();

  asio::io_context ioc;
  websocket::stream<beast::tcp_stream> ws(ioc);
  beast::flat_buffer buffer;
  std::vector<std::string> received;
  bool handshaken = false;
  std::function<void()> read_next = [&] {
    ws.async_read(buffer, [&](beast::error_code ec, std::size_t) {
      if (ec) return;
      received.push_back(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      if (received.size() < 3) read_next();
      else ioc.stop();
    });
  };
  beast::get_lowest_layer(ws).async_connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), *port), [&](beast::error_code ec) {
        if (ec) return;
        ws.async_handshake("127.0.0.1", "/ws?session=" + id, [&](beast::error_code hec) {
          if (hec) return;
          handshaken = true;
          ioc.stop();
        });
      });
  ioc.run_for(kLimit);
  REQUIRE(handshaken);
  REQUIRE(status_of(post(*port, "/api/analysis-start", R"({"session":")" + id + R"(","multipv":2})")) == 200);
  ioc.restart();
  read_next();
  ioc.run_for(kLimit);
  REQUIRE(received.size() == 3);
  for (const std::string& text : received) {
    const Expected<Json> j = parse_json(text);
    REQUIRE(j.has_value());
    CHECK(j->find("type")->as_string() == "info");
    CHECK(j->find("session")->as_string() == id);
  }
  CHECK(status_of(post(*port, "/api/analysis-stop", R"({"session":")" + id + R"("})")) == 200);
  // A WebSocket for an unknown session is refused.
  CHECK(status_of(raw_exchange(*port,
                               "GET /ws?session=nobody HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n"
                               "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")) == 404);
  server.stop();
}

namespace {

// Connections that send the start of a request header and then nothing (slowloris).
std::vector<std::unique_ptr<tcp::socket>> slow_clients(asio::io_context& ioc, unsigned short port, int n) {
  std::vector<std::unique_ptr<tcp::socket>> sockets;
  for (int i = 0; i < n; ++i) {
    auto s = std::make_unique<tcp::socket>(ioc);
    beast::error_code ec;
    s->connect({asio::ip::make_address("127.0.0.1"), port}, ec);
    if (ec) continue;
    asio::write(*s, asio::buffer(std::string("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a")), ec);
    sockets.push_back(std::move(s));
  }
  return sockets;
}

// True when the server closes the connection (end of stream or reset) within the test's limit.
bool closed_by_server(asio::io_context& ioc, tcp::socket& socket) {
  bool closed = false;
  std::array<char, 4096> chunk{};
  std::function<void()> read_more = [&] {
    socket.async_read_some(asio::buffer(chunk), [&](beast::error_code ec, std::size_t) {
      if (ec) closed = true;
      else read_more();
    });
  };
  read_more();
  ioc.restart();
  ioc.run_for(kLimit);
  return closed;
}

}  // namespace

TEST_CASE("web server: 200 slow clients trickling headers do not stop a normal request", "[web][loopback]") {
  Server server(test_config());
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  asio::io_context ioc;
  const auto slow = slow_clients(ioc, *port, 200);
  CHECK(slow.size() == 200);
  int served = 0;
  for (int i = 0; i < 20; ++i)
    served += status_of(raw_exchange(*port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) == 200;
  CHECK(served == 20);
}

TEST_CASE("web server: at the connection limit the slowest request gives way to a new client",
          "[web][loopback]") {
  ServerConfig c = test_config();
  c.max_connections = 16;
  Server server(c);
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  asio::io_context ioc;
  const auto slow = slow_clients(ioc, *port, 40);
  int served = 0;
  for (int i = 0; i < 10; ++i)
    served += status_of(raw_exchange(*port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) == 200;
  CHECK(served == 10);
  CHECK(closed_by_server(ioc, *slow.front()));  // the oldest slow client was dropped
}

TEST_CASE("web server: a header or body not sent in time closes the connection", "[web][loopback]") {
  ServerConfig c = test_config();
  c.header_timeout = std::chrono::milliseconds(100);
  c.body_timeout = std::chrono::milliseconds(100);
  Server server(c);
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  asio::io_context ioc;
  auto header = slow_clients(ioc, *port, 1);
  REQUIRE(header.size() == 1);
  CHECK(closed_by_server(ioc, *header.front()));
  tcp::socket body(ioc);
  body.connect({asio::ip::make_address("127.0.0.1"), *port});
  asio::write(body,
              asio::buffer(std::string("POST /api/new HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")));
  CHECK(closed_by_server(ioc, body));
  CHECK(status_of(post(*port, "/api/new", "{}")) == 200);  // still serving
}

namespace {

// A WebSocket client for the session, connected and handshaken (or not, within the time limit).
struct WsClient {
  asio::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  bool open = false;
  WsClient(unsigned short port, const std::string& id) {
    beast::get_lowest_layer(ws).async_connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), [this, id](beast::error_code ec) {
          if (ec) return;
          ws.async_handshake("127.0.0.1", "/ws?session=" + id,
                             [this](beast::error_code hec) { open = !hec; });
        });
    ioc.run_for(kLimit);
  }
  // Reads until the server closes the WebSocket (true) or the time limit (false).
  bool closed_by_server() {
    bool closed = false;
    beast::flat_buffer buffer;
    std::function<void()> read_more = [&] {
      ws.async_read(buffer, [&](beast::error_code ec, std::size_t) {
        buffer.consume(buffer.size());
        if (ec) {
          closed = true;
          ioc.stop();
        } else {
          read_more();
        }
      });
    };
    read_more();
    ioc.restart();
    ioc.run_for(kLimit);
    return closed;
  }
};

}  // namespace

TEST_CASE("web server: a WebSocket message over the size or rate limit closes it", "[web][loopback]") {
  ServerConfig c = test_config();
  c.ws_max_message = 64;
  c.ws_max_messages_per_second = 5;
  Server server(c);
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  const std::string id = body_of(post(*port, "/api/new", "{}")).find("session")->as_string();
  {
    WsClient big(*port, id);
    REQUIRE(big.open);
    beast::error_code ec;
    big.ws.write(asio::buffer(std::string(1000, 'x')), ec);
    CHECK(big.closed_by_server());
  }
  {
    WsClient flood(*port, id);
    REQUIRE(flood.open);
    beast::error_code ec;
    for (int i = 0; i < 50 && !ec; ++i) flood.ws.write(asio::buffer(std::string("hi")), ec);
    CHECK(flood.closed_by_server());
  }
  CHECK(status_of(post(*port, "/api/state", R"({"session":")" + id + R"("})")) == 200);
}

TEST_CASE("web server: an analysis stops when its WebSocket closes", "[web][loopback]") {
  Server server(test_config());
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  const std::string id = body_of(post(*port, "/api/new", "{}")).find("session")->as_string();
  const std::string state = R"({"session":")" + id + R"("})";
  {
    WsClient watcher(*port, id);
    REQUIRE(watcher.open);
    REQUIRE(status_of(post(*port, "/api/analysis-start", state)) == 200);
    CHECK(body_of(post(*port, "/api/state", state)).find("analysing")->as_bool());
    beast::error_code ec;
    watcher.ws.close(websocket::close_code::normal, ec);
  }
  bool stopped = false;
  for (int i = 0; i < 1000 && !stopped; ++i) {
    stopped = !body_of(post(*port, "/api/state", state)).find("analysing")->as_bool();
    if (!stopped) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(stopped);
}

TEST_CASE("web server: searches beyond the engines and the waiting bound are answered 503 busy at once",
          "[web][loopback]") {
  ServerConfig c = test_config();
  c.api.search_slots = 1;
  c.api.max_waiting = 1;  // one search and one waiting: the third is refused at once
  Server server(c);
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  const auto id_of = [&](const std::string& body) {
    return body_of(post(*port, "/api/new", body)).find("session")->as_string();
  };
  const std::string thinking = id_of(R"({"mode":"computer","level":"full","human":"black","movetime":1.5})");
  const std::string waiting = id_of("{}");
  const std::string third = id_of("{}");
  std::thread first([&] { post(*port, "/api/engine-move", R"({"session":")" + thinking + R"("})"); });
  std::thread second([&] { post(*port, "/api/hint", R"({"session":")" + waiting + R"("})"); });
  bool queued = false;
  for (int i = 0; i < 5000 && !queued; ++i) {
    const Json stats = body_of(post(*port, "/api/stats", "{}"));
    queued =
        stats.find("searches_running")->as_number() == 1 && stats.find("searches_waiting")->as_number() == 1;
    if (!queued) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  REQUIRE(queued);
  const std::string refused = post(*port, "/api/hint", R"({"session":")" + third + R"("})");
  CHECK(status_of(refused) == 503);
  CHECK(body_of(refused).find("busy")->as_bool());
  CHECK(status_of(post(*port, "/api/state", R"({"session":")" + third + R"("})")) == 200);
  first.join();
  second.join();
  CHECK(body_of(post(*port, "/api/stats", "{}")).find("searches_refused")->as_number() == 1);
}

namespace {

// A session of two players with `plies` moves played from the start, each a legal move of its state.
std::string long_game(unsigned short port, int plies) {
  Json state = body_of(post(port, "/api/new", "{}"));
  const std::string id = state.find("session")->as_string();
  for (int ply = 0; ply < plies && !state.find("result")->find("over")->as_bool(); ++ply) {
    const Json::Array& legal = state.find("legal")->as_array();
    REQUIRE_FALSE(legal.empty());
    const std::string move =
        legal[static_cast<std::size_t>(ply * 7) % legal.size()].find("text")->as_string();
    const std::string answer =
        post(port, "/api/move", R"({"session":")" + id + R"(","move":")" + move + R"("})");
    REQUIRE(status_of(answer) == 200);
    state = body_of(answer);
  }
  return id;
}

}  // namespace

TEST_CASE("web server: while deep review steps hold every engine, other sessions' requests are answered",
          "[web][loopback][queue]") {
  ServerConfig c = test_config();
  c.api.search_slots = 2;
  c.api_threads = 2;  // as many as the review steps: had they run on this pool, nothing else would
  c.api.max_waiting = 1;
  c.api.queue_wait = std::chrono::milliseconds(300);
  Server server(c);
  const Expected<unsigned short> port = server.start();
  REQUIRE(port.has_value());
  const std::string reviewed[2] = {long_game(*port, 30), long_game(*port, 30)};
  const std::string other = long_game(*port, 0);
  for (const std::string& id : reviewed)
    REQUIRE(status_of(post(*port, "/api/review-start", R"({"session":")" + id + R"(","movetime":60})")) ==
            200);
  std::atomic<bool> answered[2] = {false, false};
  std::string steps[2];
  std::vector<std::thread> stepping;
  for (int i = 0; i < 2; ++i)
    stepping.emplace_back([&, i] {
      // A search of 60 s (the longest a review allows): far longer than the test, until review-cancel.
      steps[i] = post(*port, "/api/review-step", R"({"session":")" + reviewed[i] + R"("})",
                      std::chrono::minutes(10));
      answered[i] = true;
    });
  bool held = false;
  for (int i = 0; i < 5000 && !held; ++i) {
    const std::string stats = post(*port, "/api/stats", "{}");
    if (status_of(stats) != 200) break;  // not answered while the steps search
    held = body_of(stats).find("searches_running")->as_number() == 2;
    if (!held) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(held);

  const std::string state = post(*port, "/api/state", R"({"session":")" + other + R"("})");
  const std::string moved = post(*port, "/api/move", R"({"session":")" + other + R"(","move":"c3-d4"})");
  const std::string created = post(*port, "/api/new", "{}");
  const std::string hint = post(*port, "/api/hint", R"({"session":")" + other + R"("})");
  // Every answer came while both review steps were still searching.
  const bool steps_running = !answered[0] && !answered[1];
  CHECK(status_of(state) == 200);
  CHECK(status_of(moved) == 200);
  CHECK(status_of(created) == 200);
  CHECK(status_of(hint) == 503);  // it waited its turn in the queue, and no engine came free
  CHECK(body_of(hint).find("busy")->as_bool());
  CHECK(steps_running);

  for (const std::string& id : reviewed)
    CHECK(status_of(post(*port, "/api/review-cancel", R"({"session":")" + id + R"("})")) == 200);
  for (std::thread& t : stepping) t.join();
  for (const std::string& step : steps) CHECK(status_of(step) == 200);  // stopped, the result dropped
  server.stop();
}
