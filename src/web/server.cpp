#include "damas/web/server.h"

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace damas::web {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

constexpr std::size_t kHeaderLimit = 16 * 1024;
constexpr std::size_t kWebSocketQueue = 256;  // events waiting for a slow client; older ones dropped

std::string json_error(int status, std::string_view message) {
  std::string text;
  for (const char c : message) {
    if (c == '"' || c == '\\') text += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) text += c;
  }
  return "{\"error\":\"" + text + "\",\"status\":" + std::to_string(status) + "}";
}

std::string_view path_of(std::string_view target) { return target.substr(0, target.find('?')); }

// The value of `name` in the query string of target ("" when absent).
std::string query_value(std::string_view target, std::string_view name) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return "";
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    if (pair.size() > name.size() && pair.substr(0, name.size()) == name && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  return "";
}

class WsSession;

// WebSocket subscribers by game session.
class WsHub {
 public:
  void add(const std::string& id, const std::shared_ptr<WsSession>& ws) {
    std::lock_guard lock(mutex_);
    subscribers_.emplace(id, ws);
  }
  // True when no other WebSocket follows the session `id` any more.
  bool remove(const WsSession* ws, const std::string& id) {
    std::lock_guard lock(mutex_);
    for (auto it = subscribers_.begin(); it != subscribers_.end();) {
      const std::shared_ptr<WsSession> p = it->second.lock();
      if (!p || p.get() == ws) it = subscribers_.erase(it);
      else ++it;
    }
    return subscribers_.count(id) == 0;
  }
  void publish(const std::string& id, const std::string& text);

 private:
  std::mutex mutex_;
  std::multimap<std::string, std::weak_ptr<WsSession>> subscribers_;
};

// What every connection shares.
struct Shared {
  const ServerConfig& config;
  Api& api;
  WsHub& hub;
  asio::thread_pool& quick_pool;   // API calls that do not search
  asio::thread_pool& search_pool;  // Api::may_search: the operations that take a search slot
  std::size_t search_capacity;     // threads of search_pool: more searches at once get 503 at once
  std::atomic<std::size_t>& searches_in_flight;
  std::atomic<std::size_t>& connections;
};

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket socket, Shared shared, std::string id)
      : ws_(std::move(socket)), shared_(shared), id_(std::move(id)) {
    ++shared_.connections;
  }
  ~WsSession() { --shared_.connections; }
  WsSession(const WsSession&) = delete;
  WsSession& operator=(const WsSession&) = delete;

  void run(http::request<http::string_body> request) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(shared_.config.ws_max_message);
    ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->shared_.hub.add(self->id_, self);
      self->window_start_ = std::chrono::steady_clock::now();
      self->read();
    });
  }

  // Thread-safe: the text is queued on the I/O thread.
  void send(std::string text) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
      if (self->closed_) return;
      if (self->queue_.size() >= kWebSocketQueue) self->queue_.pop_front();
      self->queue_.push_back(std::move(text));
      if (self->queue_.size() == 1 && !self->writing_) self->write();
    });
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->closed();
      self->buffer_.consume(self->buffer_.size());  // the client has nothing to say
      if (self->over_rate()) {
        self->ws_.async_close(
            websocket::close_reason(websocket::close_code::policy_error, "too many messages"),
            [self](beast::error_code) { self->closed(); });
        return;
      }
      self->read();
    });
  }

  // More messages in one second than the limit.
  bool over_rate() {
    const auto now = std::chrono::steady_clock::now();
    if (now - window_start_ >= std::chrono::seconds(1)) {
      window_start_ = now;
      messages_ = 0;
    }
    return ++messages_ > shared_.config.ws_max_messages_per_second;
  }

  // The last WebSocket of a session going away stops its analysis: nobody watches it.
  void closed() {
    if (closed_) return;
    closed_ = true;
    queue_.clear();
    if (!shared_.hub.remove(this, id_)) return;
    asio::post(shared_.quick_pool, [api = &shared_.api, id = id_] { api->stop_analysis(id); });
  }

  void write() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(asio::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      self->writing_ = false;
                      if (ec) return self->closed();
                      self->queue_.pop_front();
                      if (!self->queue_.empty()) self->write();
                    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  Shared shared_;
  std::string id_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool closed_ = false;
  std::chrono::steady_clock::time_point window_start_;
  int messages_ = 0;
};

void WsHub::publish(const std::string& id, const std::string& text) {
  std::vector<std::shared_ptr<WsSession>> targets;
  {
    std::lock_guard lock(mutex_);
    const auto [first, last] = subscribers_.equal_range(id);
    for (auto it = first; it != last; ++it)
      if (std::shared_ptr<WsSession> p = it->second.lock()) targets.push_back(std::move(p));
  }
  for (const auto& t : targets) t->send(text);
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, Shared shared) : stream_(std::move(socket)), shared_(shared) {
    ++shared_.connections;
  }
  ~HttpSession() { --shared_.connections; }

  // Waiting for (part of) a request since then; nullopt while the server works on one.
  std::optional<std::chrono::steady_clock::time_point> reading_since() const { return reading_since_; }
  void drop() {  // I/O thread: make room for a new connection
    beast::error_code ignored;
    stream_.socket().close(ignored);
  }

  // The header within header_timeout, then the body within body_timeout: a client trickling
  // bytes cannot hold a connection for longer.
  void read() {
    parser_.emplace();
    parser_->body_limit(shared_.config.api.max_body);
    parser_->header_limit(kHeaderLimit);
    reading_since_ = std::chrono::steady_clock::now();
    stream_.expires_after(shared_.config.header_timeout);
    http::async_read_header(
        stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
          if (ec) return self->on_read(ec);
          self->stream_.expires_after(self->shared_.config.body_timeout);
          http::async_read(self->stream_, self->buffer_, *self->parser_,
                           [self](beast::error_code body_ec, std::size_t) { self->on_read(body_ec); });
        });
  }

 private:
  void on_read(beast::error_code ec) {
    reading_since_.reset();
    if (ec == http::error::end_of_stream) return close();
    if (ec == http::error::body_limit)
      return reply_error(
          413, "request body over the limit of " + std::to_string(shared_.config.api.max_body) + " bytes");
    if (ec == http::error::header_limit) return reply_error(431, "request header too large");
    if (ec && ec.category() == beast::error_code(http::error::bad_target).category())  // a parse error
      return reply_error(400, "bad HTTP request: " + ec.message());
    if (ec) return close();  // timeout, reset: nobody to answer
    http::request<http::string_body> request = parser_->release();
    const std::string target(request.target());
    const std::string_view path = path_of(target);
    if (websocket::is_upgrade(request)) return upgrade(std::move(request), target);
    keep_alive_ = request.keep_alive();
    if (path.rfind("/api/", 0) == 0) return call_api(std::move(request), std::string(path));
    if (request.method() == http::verb::get) {
      const std::string_view file = path == "/" ? "/index.html" : path;
      for (const PageFile& f : page_files())
        if (f.path == file) return reply(200, f.content_type, std::string(f.body));
    }
    reply_error(404, "no such page: " + std::string(path));
  }

  void upgrade(http::request<http::string_body> request, const std::string& target) {
    const std::string id = query_value(target, "session");
    if (path_of(target) != "/ws") return reply_error(404, "WebSockets are at /ws?session=ID");
    if (!shared_.api.has_session(id)) return reply_error(404, "unknown session \"" + id + "\"");
    stream_.expires_never();
    std::make_shared<WsSession>(stream_.release_socket(), shared_, id)->run(std::move(request));
  }

  void call_api(http::request<http::string_body> request, std::string path) {
    ApiRequest r{std::string(request.method_string()), std::move(path), std::move(request.body())};
    // The API may search for a while: off the I/O thread, then back to it to answer.
    stream_.expires_never();
    const bool searches = Api::may_search(r.target);
    if (searches && ++shared_.searches_in_flight > shared_.search_capacity) {
      --shared_.searches_in_flight;
      const ApiResponse busy =
          shared_.api.refuse_busy("the engine is busy: too many searches are waiting; try again in a moment");
      return reply(busy.status, "application/json", busy.body);
    }
    asio::post(searches ? shared_.search_pool : shared_.quick_pool,
               [self = shared_from_this(), r = std::move(r), searches] {
                 ApiResponse answer = self->shared_.api.handle(r);
                 if (searches) --self->shared_.searches_in_flight;
                 asio::post(self->stream_.get_executor(), [self, answer = std::move(answer)]() mutable {
                   self->reply(answer.status, "application/json", std::move(answer.body));
                 });
               });
  }

  void reply_error(int status, const std::string& message) {
    keep_alive_ = false;
    reply(status, "application/json", json_error(status, message));
  }

  void reply(int status, std::string_view content_type, std::string body) {
    auto res = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(status), 11);
    res->set(http::field::server, "damas");
    res->set(http::field::content_type, beast::string_view(content_type.data(), content_type.size()));
    res->set(http::field::cache_control, "no-store");
    res->set("X-Content-Type-Options", "nosniff");
    // Cross-origin isolation, which the WebAssembly engine's threads need in the page.
    res->set("Cross-Origin-Opener-Policy", "same-origin");
    res->set("Cross-Origin-Embedder-Policy", "require-corp");
    res->keep_alive(keep_alive_);
    res->body() = std::move(body);
    res->prepare_payload();
    stream_.expires_after(shared_.config.write_timeout);
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
      if (ec || !self->keep_alive_) return self->close();
      self->read();
    });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.close();
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  Shared shared_;
  bool keep_alive_ = false;
  std::optional<std::chrono::steady_clock::time_point> reading_since_;
};

}  // namespace

struct Server::Impl {
  explicit Impl(ServerConfig c)
      : config(std::move(c)),
        api(config.api),
        quick_pool(static_cast<std::size_t>(std::max(1, config.api_threads))),
        search_pool(api.search_capacity()) {
    api.set_analysis_sink([this](const std::string& id, const std::string& json) { hub.publish(id, json); });
  }

  Shared shared() {
    return Shared{config,     api, hub, quick_pool, search_pool, api.search_capacity(), searches_in_flight,
                  connections};
  }

  void accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
      if (!ec) {
        if (connections >= config.max_connections && !drop_slowest()) {
          beast::error_code ignored;
          socket.close(ignored);
        } else {
          auto session = std::make_shared<HttpSession>(std::move(socket), shared());
          if (readers.size() >= 2 * config.max_connections)
            std::erase_if(readers, [](const std::weak_ptr<HttpSession>& w) { return w.expired(); });
          readers.push_back(session);
          session->read();
        }
      }
      accept();
    });
  }

  // At the connection limit: closes the connection that has been sending its request for the
  // longest (a slow client), so a new one can be served. False when every connection is busy.
  bool drop_slowest() {
    std::erase_if(readers, [](const std::weak_ptr<HttpSession>& w) { return w.expired(); });
    std::shared_ptr<HttpSession> slowest;
    for (const auto& w : readers)
      if (const auto s = w.lock();
          s && s->reading_since() && (!slowest || *s->reading_since() < *slowest->reading_since()))
        slowest = s;
    if (!slowest) return false;
    slowest->drop();
    return true;
  }

  void schedule_expiry() {
    expiry_timer.expires_after(config.expiry_period);
    expiry_timer.async_wait([this](beast::error_code ec) {
      if (ec) return;
      api.expire_idle_sessions();
      schedule_expiry();
    });
  }

  std::atomic<std::size_t> connections{0};  // first: connections left in ioc or pool count down at the end
  std::atomic<std::size_t> searches_in_flight{0};
  ServerConfig config;
  asio::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  asio::steady_timer expiry_timer{ioc};
  std::vector<std::weak_ptr<HttpSession>> readers;  // I/O thread only
  WsHub hub;
  Api api;  // destroyed before hub and ioc: its search threads may still publish
  asio::thread_pool quick_pool;
  asio::thread_pool search_pool;
  std::thread io_thread;
  std::mutex mutex;
  std::condition_variable stopping;
  bool stop_requested = false;
  bool stopped = false;
};

Server::Server(ServerConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}

Server::~Server() { stop(); }

Expected<unsigned short> Server::start() {
  Impl& s = *impl_;
  beast::error_code ec;
  const asio::ip::address address = asio::ip::make_address(s.config.host, ec);
  if (ec) return Error{"bad host address \"" + s.config.host + "\": " + ec.message()};
  const tcp::endpoint endpoint(address, s.config.port);
  if (s.acceptor.open(endpoint.protocol(), ec); ec) return Error{"cannot open a socket: " + ec.message()};
  if (s.acceptor.set_option(asio::socket_base::reuse_address(true), ec); ec)
    return Error{"cannot set up the socket: " + ec.message()};
  if (s.acceptor.bind(endpoint, ec); ec)
    return Error{"cannot listen on " + s.config.host + ":" + std::to_string(s.config.port) + ": " +
                 ec.message()};
  if (s.acceptor.listen(asio::socket_base::max_listen_connections, ec); ec)
    return Error{"cannot listen: " + ec.message()};
  const unsigned short port = s.acceptor.local_endpoint().port();
  s.accept();
  s.schedule_expiry();
  s.io_thread = std::thread([&s] { s.ioc.run(); });
  return port;
}

Status Server::set_engine_option(std::string_view name, std::string_view value) {
  return impl_->api.set_engine_option(name, value);
}

EgdbStatus Server::egdb_status() const { return impl_->api.egdb_status(); }
BookStatus Server::book_status() const { return impl_->api.book_status(); }

void Server::run_until_signal() {
  Impl& s = *impl_;
  asio::signal_set signals(s.ioc, SIGINT, SIGTERM);
  signals.async_wait([&s](const beast::error_code& ec, int) {
    if (ec) return;
    std::lock_guard lock(s.mutex);
    s.stop_requested = true;
    s.stopping.notify_all();
  });
  {
    std::unique_lock lock(s.mutex);
    s.stopping.wait(lock, [&s] { return s.stop_requested; });
  }
  signals.cancel();
  stop();
}

void Server::stop() {
  Impl& s = *impl_;
  {
    std::lock_guard lock(s.mutex);
    s.stop_requested = true;
    s.stopping.notify_all();
    if (s.stopped) return;
    s.stopped = true;
  }
  asio::post(s.ioc, [&s] {
    beast::error_code ignored;
    s.acceptor.close(ignored);
    s.expiry_timer.cancel();
  });
  s.api.shut_down();  // requests waiting for a search are refused; analyses stop
  s.quick_pool.join();
  s.search_pool.join();  // API calls in progress finish (a search ends within its time)
  s.ioc.stop();
  if (s.io_thread.joinable()) s.io_thread.join();
}

}  // namespace damas::web
