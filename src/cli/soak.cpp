#include "damas/cli/soak.h"

#include <utility>  // before Boost.Asio, whose awaitable.hpp needs std::exchange

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "damas/core/json.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"

namespace damas::cli::soak {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using SteadyClock = std::chrono::steady_clock;

constexpr auto kRequestLimit = std::chrono::seconds(60);  // one answer, queue wait and search included
constexpr std::size_t kProblemsKept = 20;

double ms_since(SteadyClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
}

tcp::endpoint endpoint_of(const Target& t) { return {asio::ip::make_address(t.host), t.port}; }

struct Reply {
  int status = 0;  // 0: no answer (connection failed)
  Json json;
};

// One person's keep-alive HTTP connection (reconnects when the server has closed it).
class HttpClient {
 public:
  explicit HttpClient(const Target& t) : target_(t) {}

  Reply post(const std::string& op, const std::string& body) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!connected_ && !connect()) return {};
      http::request<http::string_body> req{http::verb::post, "/api/" + op, 11};
      req.set(http::field::host, target_.host);
      req.set(http::field::content_type, "application/json");
      req.keep_alive(true);
      req.body() = body;
      req.prepare_payload();
      beast::error_code ec;
      stream_.expires_after(kRequestLimit);
      http::write(stream_, req, ec);
      http::response<http::string_body> res;
      if (!ec) http::read(stream_, buffer_, res, ec);
      if (ec) {
        // A connection the server closed while idle (its header timeout) is opened again once.
        disconnect();
        continue;
      }
      if (!res.keep_alive()) disconnect();
      Reply r;
      r.status = static_cast<int>(res.result_int());
      if (Expected<Json> j = parse_json(res.body())) r.json = *j;
      return r;
    }
    return {};
  }

 private:
  bool connect() {
    beast::error_code ec;
    stream_.expires_after(kRequestLimit);
    stream_.connect(endpoint_of(target_), ec);
    connected_ = !ec;
    return connected_;
  }
  void disconnect() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
    buffer_.clear();
    connected_ = false;
  }

  Target target_;
  asio::io_context ioc_;
  beast::tcp_stream stream_{ioc_};
  beast::flat_buffer buffer_;
  bool connected_ = false;
};

// A person's WebSocket on the session: events are read while the person polls (no thread).
class Watcher {
 public:
  bool open(const Target& t, const std::string& session) {
    beast::error_code ec;
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
    beast::get_lowest_layer(ws_).connect(endpoint_of(t), ec);
    if (!ec) ws_.handshake(t.host, "/ws?session=" + session, ec);
    if (ec) return false;
    beast::get_lowest_layer(ws_).expires_never();
    open_ = true;
    read();
    return true;
  }
  std::uint64_t poll() {
    ioc_.poll();
    ioc_.restart();
    return std::exchange(events_, 0);
  }
  void close() {
    if (!open_) return;
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    ioc_.poll();
    open_ = false;
  }

 private:
  void read() {
    ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
      if (ec) return;
      buffer_.consume(buffer_.size());
      ++events_;
      read();
    });
  }
  asio::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_{ioc_};
  beast::flat_buffer buffer_;
  std::uint64_t events_ = 0;
  bool open_ = false;
};

// The computer's move checked by the rules core: one legal move leads from `before` to `after`.
bool one_legal_move(const std::string& before, const std::string& after) {
  const Expected<Position> p = parse_fen(before);
  const Expected<Position> q = parse_fen(after);
  if (!p || !q) return false;
  MoveList legal;
  generate_legal_moves(*p, legal);
  const std::string target = to_fen(*q);
  for (const Move& m : legal)
    if (to_fen(p->after(m)) == target) return true;
  return false;
}

std::string text_of(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && v->is_string() ? v->as_string() : "";
}

std::string session_body(const std::string& id) { return "{\"session\":\"" + id + "\"}"; }

// The figures of all people, merged under a lock at the end of each person.
class Tally {
 public:
  void merge(const PlayReport& r) {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < kCounts; ++i) total_.count[i] += r.count[i];
    for (const std::string& p : r.problems)
      if (total_.problems.size() < kProblemsKept) total_.problems.push_back(p);
    for (auto [mine, all] :
         {std::pair{&r.state, &total_.state}, std::pair{&r.move, &total_.move},
          std::pair{&r.engine_move, &total_.engine_move}, std::pair{&r.hint, &total_.hint}})
      all->ms.insert(all->ms.end(), mine->ms.begin(), mine->ms.end());
  }
  PlayReport total() {
    std::lock_guard lock(mutex_);
    return total_;
  }

 private:
  std::mutex mutex_;
  PlayReport total_;
};

// One simulated person: games against the computer until the end of the phase.
class Person {
 public:
  Person(const Target& t, const PlayConfig& c, std::uint64_t seed, SteadyClock::time_point end)
      : target_(t), config_(c), rng_(seed), end_(end), http_(t) {}

  PlayReport run() {
    while (SteadyClock::now() < end_) play_game();
    return report_;
  }

 private:
  void think() {
    std::uniform_int_distribution<std::int64_t> d(config_.think_min.count(), config_.think_max.count());
    const auto until = std::min(end_, SteadyClock::now() + std::chrono::milliseconds(d(rng_)));
    std::this_thread::sleep_until(until);
  }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

  void problem(const std::string& what) {
    if (report_.problems.size() < kProblemsKept) report_.problems.push_back(what);
  }

  // A timed request; 503 and 429 are the queue's answers, anything else not 200 is counted.
  Reply call(const std::string& op, const std::string& body, Latencies* latency) {
    const auto t0 = SteadyClock::now();
    Reply r = http_.post(op, body);
    if (latency && r.status == 200) latency->ms.push_back(ms_since(t0));
    if (r.status == 503) ++report_.count[kBusy];
    else if (r.status == 429) ++report_.count[kSessionBusy];
    else if (r.status == 404 && op != "new") {
      ++report_.count[kLostSessions];
      problem(op + ": session lost: " + text_of(r.json, "error"));
    } else if (r.status != 200 && r.status != 409) {
      ++report_.count[kErrors];
      problem(op + ": HTTP " + std::to_string(r.status) + " " + text_of(r.json, "error"));
    }
    return r;
  }

  void play_game() {
    static constexpr const char* kLevels[] = {"beginner", "easy", "medium", "hard", "full"};
    const std::string level = kLevels[std::uniform_int_distribution<int>(0, 4)(rng_)];
    const std::string human = chance(0.5) ? "white" : "black";
    const double movetime = std::uniform_real_distribution<double>(0.02, 0.2)(rng_);
    const Reply created = call("new",
                               R"({"mode":"computer","level":")" + level + R"(","human":")" + human +
                                   R"(","movetime":)" + std::to_string(movetime) + "}",
                               nullptr);
    if (created.status != 200) return think();
    ++report_.count[kGamesStarted];
    Json state = created.json;
    const std::string id = text_of(state, "session");
    Watcher watcher;
    if (watcher.open(target_, id)) ++report_.count[kWsOpened];
    bool analysing = false;
    while (SteadyClock::now() < end_) {
      report_.count[kWsEvents] += watcher.poll();
      const std::string turn = text_of(state, "turn");
      if (turn == "none") {
        ++report_.count[kGamesFinished];
        break;
      }
      think();
      if (analysing) {
        call("analysis-stop", session_body(id), nullptr);
        analysing = false;
      }
      if (chance(0.1)) {
        const Reply s = call("state", session_body(id), &report_.state);
        if (s.status != 200) break;
        state = s.json;
      }
      if (turn == "computer") {
        if (!computer_move(id, state)) break;
      } else if (!person_move(id, state, analysing)) {
        break;
      }
    }
    report_.count[kWsEvents] += watcher.poll();
    watcher.close();
    call("close", session_body(id), nullptr);
  }

  // False when the game cannot go on (session lost, unexpected answer).
  bool computer_move(const std::string& id, Json& state) {
    const Reply r = call("engine-move", session_body(id), &report_.engine_move);
    if (r.status == 503 || r.status == 429) return true;  // busy: think and ask again
    if (r.status != 200) return false;
    ++report_.count[kComputerMoves];
    if (!one_legal_move(text_of(state, "fen"), text_of(r.json, "fen"))) {
      ++report_.count[kIllegal];
      problem("illegal computer move: " + text_of(state, "fen") + " -> " + text_of(r.json, "fen"));
    }
    state = r.json;
    return true;
  }

  bool person_move(const std::string& id, Json& state, bool& analysing) {
    if (chance(0.08)) {
      const Reply h = call("hint", session_body(id), &report_.hint);
      report_.count[kHints] += h.status == 200;
    }
    if (chance(0.05) && call("analysis-start", session_body(id), nullptr).status == 200) {
      ++report_.count[kAnalyses];
      analysing = true;
      return true;
    }
    const Json* legal = state.find("legal");
    if (!legal || !legal->is_array() || legal->as_array().empty()) return false;
    const Json::Array& moves = legal->as_array();
    const Json& pick = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng_)];
    const Reply r = call("move", "{\"session\":\"" + id + "\",\"move\":\"" + text_of(pick, "text") + "\"}",
                         &report_.move);
    if (r.status != 200) {
      if (r.status == 409 || r.status == 422) {
        ++report_.count[kErrors];
        problem("a legal move refused: " + text_of(pick, "text") + ": " + text_of(r.json, "error"));
      }
      return false;
    }
    ++report_.count[kPersonMoves];
    state = r.json;
    return true;
  }

  Target target_;
  PlayConfig config_;
  std::mt19937_64 rng_;
  SteadyClock::time_point end_;
  HttpClient http_;
  PlayReport report_;
};

}  // namespace

double Latencies::percentile(double p) const {
  if (ms.empty()) return 0;
  std::vector<double> sorted = ms;
  const auto k = static_cast<std::size_t>(p / 100.0 * static_cast<double>(sorted.size() - 1));
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(k), sorted.end());
  return sorted[k];
}

PlayReport play(const Target& target, const PlayConfig& config) {
  const auto t0 = SteadyClock::now();
  const auto end = t0 + config.duration;
  Tally tally;
  std::vector<std::thread> people;
  for (int i = 0; i < config.people; ++i)
    people.emplace_back([&, i] {
      Person person(target, config, config.seed * 1000003 + static_cast<std::uint64_t>(i), end);
      tally.merge(person.run());
    });
  for (std::thread& p : people) p.join();
  PlayReport r = tally.total();
  r.seconds = std::chrono::duration<double>(SteadyClock::now() - t0).count();
  return r;
}

std::string stats_text(const Target& target) {
  HttpClient client(target);
  return client.post("stats", "{}").json.dump();
}

bool serving(const Target& target) {
  HttpClient client(target);
  const Reply created = client.post("new", "{}");
  if (created.status != 200) return false;
  return client.post("close", session_body(text_of(created.json, "session"))).status == 200;
}

}  // namespace damas::cli::soak
