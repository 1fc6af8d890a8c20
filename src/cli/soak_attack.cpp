// tools/soak's attack phases: slow clients, and malformed traffic case by case.
#include <utility>  // before Boost.Asio, whose awaitable.hpp needs std::exchange

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "damas/cli/soak.h"
#include "damas/core/json.h"

namespace damas::cli::soak {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;
using SteadyClock = std::chrono::steady_clock;

constexpr auto kCaseLimit = std::chrono::seconds(5);  // a malformed case is answered or closed by then
constexpr std::size_t kProblemsKept = 20;

tcp::endpoint endpoint_of(const Target& t) { return {asio::ip::make_address(t.host), t.port}; }

// The status of the first answer line, 0 when none (yet).
int status_line(const std::string& answer) {
  if (answer.size() < 12 || answer.rfind("HTTP/1.", 0) != 0) return 0;
  return std::atoi(answer.substr(9, 3).c_str());
}

enum class Outcome { Answered4xx, Closed, WrongAnswer, Hung };

// One exchange with a time limit: send `first`; when `then` is not empty, wait for the answer to
// `first` (a WebSocket handshake) and send `then`; read until a 4xx status, a close or the limit.
class Exchange {
 public:
  Outcome run(const Target& t, const std::string& first, const std::string& then, bool shutdown_after,
              std::string& answer) {
    ioc_.restart();
    tcp::socket socket(ioc_);
    answer.clear();
    bool closed = false;
    bool sent_then = then.empty();
    std::array<char, 4096> chunk{};
    std::function<void()> read_more = [&] {
      socket.async_read_some(asio::buffer(chunk), [&](beast::error_code ec, std::size_t n) {
        answer.append(chunk.data(), n);
        if (ec) {
          closed = true;
          return ioc_.stop();
        }
        const int status = status_line(answer);
        if (status >= 400 && status < 500) return ioc_.stop();
        if (!sent_then && answer.find("\r\n\r\n") != std::string::npos) {
          sent_then = true;
          answer.clear();  // the handshake's answer: what counts is what follows the bad frame
          asio::async_write(socket, asio::buffer(then), [](beast::error_code, std::size_t) {});
        }
        read_more();
      });
    };
    socket.async_connect(endpoint_of(t), [&](beast::error_code ec) {
      if (ec) {
        closed = true;
        return ioc_.stop();
      }
      asio::async_write(socket, asio::buffer(first), [&](beast::error_code wec, std::size_t) {
        if (!wec && shutdown_after) {
          beast::error_code ignored;
          socket.shutdown(tcp::socket::shutdown_send, ignored);
        }
      });
      read_more();
    });
    ioc_.run_for(kCaseLimit);
    const int status = status_line(answer);
    beast::error_code ignored;
    socket.close(ignored);
    ioc_.restart();
    ioc_.poll();  // the handlers cancelled by close
    if (status >= 400 && status < 500) return Outcome::Answered4xx;
    if (status != 0) return Outcome::WrongAnswer;
    return closed ? Outcome::Closed : Outcome::Hung;
  }

 private:
  asio::io_context ioc_;
};

struct Case {
  std::string kind;
  std::string first;
  std::string then;  // WebSocket frames after the handshake
  bool shutdown_after = false;
};

// Malformed traffic, drawn case by case from a seeded generator.
class Generator {
 public:
  Generator(std::uint64_t seed, std::string session) : rng_(seed), session_(std::move(session)) {}

  Case next() {
    using Make = Case (Generator::*)();
    static constexpr Make kKinds[] = {
        &Generator::garbage,   &Generator::request_line, &Generator::header,   &Generator::truncated,
        &Generator::oversized, &Generator::big_header,   &Generator::bad_json, &Generator::bad_target,
        &Generator::ws_frame,  &Generator::ws_handshake};
    return (this->*kKinds[pick(std::size(kKinds))])();
  }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
  std::string bytes(std::size_t n, int lo = 0, int hi = 255) {
    std::uniform_int_distribution<int> d(lo, hi);
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(d(rng_));
    return s;
  }
  std::string post(const std::string& target, const std::string& body, const std::string& extra = "") {
    return "POST " + target + " HTTP/1.1\r\nHost: x\r\n" + extra +
           "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }

  Case garbage() { return {"random bytes", bytes(1 + pick(2000)) + "\r\n\r\n", "", true}; }

  Case request_line() {
    static const char* kLines[] = {"GET\r\n\r\n",
                                   "GET / HTTP/9.9\r\n\r\n",
                                   "G\x01T / HTTP/1.1\r\n\r\n",
                                   "GET  / HTTP/1.1\r\n\r\n",
                                   "GET / HTTP/1.1 extra\r\n\r\n",
                                   "/ GET HTTP/1.1\r\n\r\n",
                                   "GET /\x7f HTTP/1.1\r\n\r\n",
                                   "\r\n\r\n\r\n",
                                   "HTTP/1.1 200 OK\r\n\r\n"};
    std::string line = kLines[pick(std::size(kLines))];
    if (pick(2)) line = bytes(1 + pick(40), 'A', 'Z') + " /" + bytes(pick(20), 0, 31) + " HTTP/1.1\r\n\r\n";
    return {"bad request line", line, "", true};
  }

  Case header() {
    static const char* kHeaders[] = {"Bad Name: x\r\n",
                                     "NoColon\r\n",
                                     "Content-Length: 1x\r\n",
                                     ": empty\r\n",
                                     "Content-Length: 5\r\nContent-Length: 7\r\n",
                                     "Content-Length: -1\r\n",
                                     "Content-Length: 99999999999999999999999\r\n",
                                     "Transfer-Encoding: chunked\r\n\r\nzz\r\n",
                                     "X\x01Y: z\r\n"};
    std::string h = kHeaders[pick(std::size(kHeaders))];
    if (pick(2))
      h = bytes(1 + pick(30), 'a', 'z') + " " + bytes(1 + pick(30), 'a', 'z') + ":" + bytes(pick(30), 1, 31) +
          "\r\n";
    return {"bad header", "POST /api/new HTTP/1.1\r\nHost: x\r\n" + h + "\r\n{}", "", true};
  }

  Case truncated() {
    const std::string body = R"({"mode":"computer","level":"easy","human":"white"})";
    const std::size_t sent = pick(body.size());
    return {"truncated body",
            "POST /api/new HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
                "\r\n\r\n" + body.substr(0, sent),
            "", true};
  }

  Case oversized() {
    const std::size_t claimed = (std::size_t{1} << 20) + pick(std::size_t{1} << 26);
    return {"oversized body",
            "POST /api/load-pdn HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(claimed) +
                "\r\n\r\n" + std::string(1 + pick(60000), '['),
            "", true};
  }

  Case big_header() {
    return {"oversized header",
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(17000 + pick(100000), 'h') + "\r\n\r\n", "",
            true};
  }

  Case bad_json() {
    static const char* kOps[] = {"new",           "load-pdn", "state",       "move",           "undo",
                                 "goto",          "hint",     "engine-move", "analysis-start", "analysis",
                                 "analysis-stop", "close"};
    const std::string op = kOps[pick(std::size(kOps))];
    const std::string valid = R"({"session":")" + session_ + R"(","move":"c3-d4","ply":1,"multipv":2})";
    std::string body;
    switch (pick(6)) {
      case 0:
        body = valid.substr(0, 1 + pick(valid.size() - 1));
        break;  // cut short
      case 1:
        body = bytes(1 + pick(300));
        break;  // not JSON
      case 2:
        body = std::string(1000 + pick(5000), '[');
        break;  // too deep
      case 3:
        body = R"({"session":)" + std::to_string(pick(100000)) + "}";
        break;  // wrong type
      case 4:
        body = R"({"session":"no-such-session","move":"c3-d4"})";
        break;  // unknown session
      default:
        body = R"({"session":")" + session_ + "\xff\xfe\"}";
        break;  // bad UTF-8
    }
    if (op == "new" || op == "load-pdn")
      body = pick(2) ? R"({"mode":")" + bytes(1 + pick(8), 'a', 'z') + "\"}"
                     : valid.substr(0, 1 + pick(valid.size() - 1));
    return {"bad JSON", post("/api/" + op, body), "", true};
  }

  Case bad_target() {
    static const char* kTargets[] = {
        "GET /../../etc/passwd", "GET /api/new",  "POST /api/", "POST /api/..%2f",
        "DELETE /api/state",     "POST /nothing", "GET /ws",    "PUT /index.html"};
    std::string line = kTargets[pick(std::size(kTargets))];
    if (pick(3) == 0) line = "GET /" + bytes(1 + pick(3000), 'a', 'z');
    return {"bad target", line + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", "", true};
  }

  std::string upgrade(const std::string& session, const std::string& version = "13") {
    return "GET /ws?session=" + session +
           " HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
           "Sec-WebSocket-Version: " +
           version + "\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
  }

  // A client frame with this first byte, length field and masking.
  std::string frame(unsigned char b0, std::uint64_t length, bool masked, std::size_t payload) {
    std::string f(1, static_cast<char>(b0));
    const unsigned char mask = masked ? 0x80 : 0;
    if (length < 126) {
      f += static_cast<char>(mask | length);
    } else if (length < 65536) {
      f += static_cast<char>(mask | 126);
      f += static_cast<char>(length >> 8);
      f += static_cast<char>(length & 0xff);
    } else {
      f += static_cast<char>(mask | 127);
      for (int i = 7; i >= 0; --i) f += static_cast<char>((length >> (8 * i)) & 0xff);
    }
    if (masked) f += bytes(4);
    return f + bytes(payload);
  }

  Case ws_frame() {
    std::string f;
    switch (pick(7)) {
      case 0:
        f = frame(static_cast<unsigned char>(0x80 | (3 + pick(5))), 4, true, 4);
        break;  // opcodes 3-7
      case 1:
        f = frame(static_cast<unsigned char>(0x80 | (0xB + pick(5))), 4, true, 4);
        break;  // opcodes B-F
      case 2:
        f = frame(0x81, 5, false, 5);
        break;  // not masked
      case 3:
        f = frame(static_cast<unsigned char>(0x81 | (0x10 << pick(3))), 3, true, 3);
        break;  // reserved bits
      case 4:
        f = frame(0x82, (std::uint64_t{1} << 62) + pick(1000), true, 100);
        break;  // huge length
      case 5:
        f = frame(0x89, 126 + pick(1000), true, 200);
        break;  // long ping
      default:
        f = frame(0x09, 4, true, 4);
        break;  // fragmented ping
    }
    return {"WebSocket frame", upgrade(session_), f, false};
  }

  Case ws_handshake() {
    switch (pick(3)) {
      case 0:
        return {"WebSocket handshake", upgrade(session_, std::to_string(pick(12))), "", true};
      case 1:
        return {"WebSocket handshake", upgrade("nobody" + std::to_string(pick(1000))), "", true};
      default:
        return {"WebSocket handshake",
                "GET /ws?session=" + session_ +
                    " HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
                "", true};
    }
  }

  std::mt19937_64 rng_;
  std::string session_;
};

std::string printable(const std::string& s) {
  std::string out;
  for (const char c : s.substr(0, 120)) out += c >= 0x20 && c < 0x7f ? c : '.';
  return out;
}

// A session for the cases that need one.
std::string new_session(const Target& t) {
  std::string answer;
  Exchange().run(t, "POST /api/new HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
                 "", false, answer);
  const std::size_t at = answer.find("\r\n\r\n");
  if (at == std::string::npos) return "none";
  const Expected<Json> j = parse_json(answer.substr(at + 4));
  const Json* id = j ? j->find("session") : nullptr;
  return id && id->is_string() ? id->as_string() : "none";
}

}  // namespace

MalformedReport malformed(const Target& target, const MalformedConfig& config) {
  const std::string session = new_session(target);
  std::mutex mutex;
  MalformedReport report;
  std::map<std::string, int> kinds;
  std::atomic<int> next{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < config.concurrency; ++w)
    workers.emplace_back([&, w] {
      Generator gen(config.seed * 7919 + static_cast<std::uint64_t>(w), session);
      Exchange exchange;
      std::string answer;
      while (next++ < config.cases) {
        const Case c = gen.next();
        const Outcome o = exchange.run(target, c.first, c.then, c.shutdown_after, answer);
        std::lock_guard lock(mutex);
        ++report.cases;
        ++kinds[c.kind];
        if (o == Outcome::Answered4xx) ++report.answered_4xx;
        else if (o == Outcome::Closed) ++report.closed;
        else {
          ++report.failures;
          if (report.problems.size() < kProblemsKept)
            report.problems.push_back(
                c.kind + ": " +
                (o == Outcome::Hung ? "no answer and not closed" : "answered \"" + printable(answer) + "\"") +
                " to \"" + printable(c.first + c.then) + "\"");
        }
      }
    });
  for (std::thread& w : workers) w.join();
  report.by_kind.assign(kinds.begin(), kinds.end());
  return report;
}

namespace {

// Slow clients: half trickle a header, half a body, one byte a second each.
struct Slow {
  tcp::socket socket;
  std::string script;
  std::size_t sent = 0;
  bool closed = false;
};

void trickle(Slow& s) {
  if (s.closed) return;
  beast::error_code ec;
  std::array<char, 512> sink{};
  s.socket.read_some(asio::buffer(sink), ec);  // non-blocking: an answer or the close
  if (ec != asio::error::would_block && ec != asio::error::try_again) {
    s.closed = true;
    return;
  }
  if (s.sent < s.script.size()) {
    s.socket.write_some(asio::buffer(s.script.data() + s.sent, 1), ec);
    if (ec && ec != asio::error::would_block) s.closed = true;
    else if (!ec) ++s.sent;
  }
}

}  // namespace

SlowReport slow_clients(const Target& target, const SlowConfig& config) {
  SlowReport report;
  asio::io_context ioc;
  std::vector<std::unique_ptr<Slow>> clients;
  const std::string header = "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + std::string(4000, 's') + "\r\n\r\n";
  const std::string body =
      "POST /api/new HTTP/1.1\r\nHost: x\r\nContent-Length: 3000\r\n\r\n" + std::string(3000, ' ');
  for (int i = 0; i < config.clients; ++i) {
    auto s = std::make_unique<Slow>(Slow{tcp::socket(ioc), i % 2 ? body : header});
    beast::error_code ec;
    s->socket.connect(endpoint_of(target), ec);
    if (ec) continue;
    if (i % 2) {  // the header at once, then the body byte by byte
      const std::size_t head = body.find("\r\n\r\n") + 4;
      asio::write(s->socket, asio::buffer(body.data(), head), ec);
      s->sent = head;
    }
    s->socket.non_blocking(true, ec);
    clients.push_back(std::move(s));
  }
  report.clients = static_cast<int>(clients.size());
  const auto end = SteadyClock::now() + config.duration;
  std::thread normal([&] {
    const auto gap = config.duration / std::max(1, config.normal_requests + 1);
    for (int i = 0; i < config.normal_requests; ++i) {
      std::this_thread::sleep_for(gap);
      const auto t0 = SteadyClock::now();
      std::string answer;
      Exchange().run(target, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "", false, answer);
      ++report.normal_requests;
      if (status_line(answer) == 200) {
        ++report.normal_served;
        report.normal.ms.push_back(
            std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count());
      }
    }
  });
  while (SteadyClock::now() < end) {
    for (auto& c : clients) trickle(*c);
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  normal.join();
  for (auto& c : clients) {
    trickle(*c);
    report.closed_by_server += c->closed;
  }
  return report;
}

}  // namespace damas::cli::soak
