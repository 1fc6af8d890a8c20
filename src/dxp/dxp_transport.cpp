#include "damas/dxp/dxp_transport.h"

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <deque>
#include <optional>

#include "damas/dxp/dxp_framing.h"

namespace damas::dxp {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using SteadyClock = std::chrono::steady_clock;

Millis now_millis() { return std::chrono::duration_cast<Millis>(SteadyClock::now().time_since_epoch()); }

SteadyClock::time_point to_time_point(Millis t) {
  return SteadyClock::time_point(std::chrono::duration_cast<SteadyClock::duration>(t));
}

// A printable form of a message for traces (control characters shown as '?').
std::string printable(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
  return r;
}

// One TCP connection with its session. Lives in a shared_ptr: asynchronous handlers keep it
// alive, the search's answers only hold a weak reference.
class Connection final : public std::enable_shared_from_this<Connection>, private Sink {
 public:
  Connection(asio::io_context& io, tcp::socket socket, const TransportConfig& transport,
             const SessionConfig& session, const Services& services, std::function<void()> on_done)
      : io_(io),
        socket_(std::move(socket)),
        deadline_timer_(io),
        pace_timer_(io),
        transport_(transport),
        services_(services),
        session_(session, *this),
        on_done_(std::move(on_done)) {}

  void start() {
    boost::system::error_code ec;
    socket_.set_option(tcp::no_delay(true), ec);  // each message leaves at once, alone
    if (ec) log("cannot set TCP_NODELAY: " + ec.message());
    session_.on_connected(now_millis());
    read();
    after_event();
  }

  // Ends the connection from outside (Listener::stop).
  void abort() { finish("stopped"); }

  ConnectionReport report() const {
    return ConnectionReport{session_.match_complete(), session_.summary(), end_};
  }

 private:
  // ---- Sink ----
  void send(const std::string& message) override {
    Expected<std::string> bytes = frame(message);
    if (!bytes) {
      log("not sent: " + bytes.error());
      return;
    }
    if (transport_.trace) log("> " + printable(message));
    out_.push_back(std::move(*bytes));
    pump();
  }

  void think(std::uint64_t ticket, const Game& game, const SearchLimits& limits) override {
    std::weak_ptr<Connection> weak = weak_from_this();
    asio::io_context& io = io_;
    services_.player->start(game, limits, [weak, ticket, &io](const SearchResult& r) {
      asio::post(io, [weak, ticket, r] {
        if (const std::shared_ptr<Connection> self = weak.lock()) self->search_done(ticket, r);
      });
    });
  }

  void stop_thinking() override { services_.player->stop(); }
  void new_game() override { services_.player->new_game(); }
  void game_finished(const FinishedGame& g) override {
    if (services_.save_game) services_.save_game(g);
  }
  void log(std::string_view line) override {
    if (services_.log) services_.log(line);
  }
  void close() override {
    close_requested_ = true;
    pump();
  }

  // ---- events ----
  void search_done(std::uint64_t ticket, const SearchResult& r) {
    if (finished_) return;
    session_.on_search_done(ticket, r, now_millis());
    after_event();
  }

  void read() {
    socket_.async_read_some(
        asio::buffer(buffer_), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
          if (self->finished_) return;
          if (ec) {
            self->finish(ec == asio::error::eof ? "peer closed the connection" : "read: " + ec.message());
            return;
          }
          for (Expected<std::string>& m : self->deframer_.feed(std::string_view(self->buffer_.data(), n))) {
            if (m) {
              if (self->transport_.trace) self->log("< " + printable(*m));
              self->session_.on_message(*m, now_millis());
            } else {
              self->session_.on_frame_error(m.error(), now_millis());
            }
          }
          self->after_event();
          if (!self->finished_ && self->socket_.is_open()) self->read();
        });
  }

  void after_event() {
    if (finished_) return;
    const std::optional<Millis> due = session_.deadline();
    if (due == armed_deadline_) return;
    armed_deadline_ = due;
    if (!due) {
      deadline_timer_.cancel();
      return;
    }
    deadline_timer_.expires_at(to_time_point(*due));
    deadline_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
      if (ec || self->finished_) return;
      self->armed_deadline_.reset();
      self->session_.on_tick(now_millis());
      self->after_event();
    });
  }

  // Sends the queued messages one at a time with at least `pace` between them, then closes
  // if the session asked for it.
  void pump() {
    if (finished_ || writing_ || pace_waiting_) return;
    if (out_.empty()) {
      if (close_requested_) finish("closed by us");
      return;
    }
    const SteadyClock::time_point earliest = last_write_ + transport_.pace;
    if (SteadyClock::now() < earliest) {
      pace_waiting_ = true;
      pace_timer_.expires_at(earliest);
      pace_timer_.async_wait([self = shared_from_this()](boost::system::error_code) {
        self->pace_waiting_ = false;
        self->pump();
      });
      return;
    }
    writing_ = true;
    asio::async_write(socket_, asio::buffer(out_.front()),
                      [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                        self->writing_ = false;
                        self->last_write_ = SteadyClock::now();
                        if (!self->out_.empty()) self->out_.pop_front();
                        if (ec) {
                          self->finish("write: " + ec.message());
                          return;
                        }
                        self->pump();
                      });
  }

  void finish(const std::string& why) {
    if (finished_) return;
    finished_ = true;
    end_ = why;
    log("connection ended: " + why);
    session_.on_disconnected(now_millis());
    // No search may outlive its connection.
    services_.player->stop();
    services_.player->wait();
    boost::system::error_code ignored;
    deadline_timer_.cancel();
    pace_timer_.cancel();
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    if (on_done_) on_done_();
  }

  asio::io_context& io_;
  tcp::socket socket_;
  asio::steady_timer deadline_timer_;
  asio::steady_timer pace_timer_;
  const TransportConfig& transport_;
  const Services& services_;
  Session session_;
  std::function<void()> on_done_;

  std::array<char, 1024> buffer_{};
  Deframer deframer_;
  std::deque<std::string> out_;
  bool writing_ = false;
  bool pace_waiting_ = false;
  bool close_requested_ = false;
  bool finished_ = false;
  SteadyClock::time_point last_write_{};
  std::optional<Millis> armed_deadline_;
  std::string end_;
};

}  // namespace

// ---- Listener ----

struct Listener::Impl {
  Impl(TransportConfig t, SessionConfig s, Services v)
      : transport(std::move(t)), session(std::move(s)), services(std::move(v)), acceptor(io) {}

  void accept() {
    acceptor.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
      if (stopping || !acceptor.is_open()) return;
      if (ec) {
        if (services.log) services.log("accept: " + ec.message());
        accept();
        return;
      }
      if (services.log) services.log("connection from " + endpoint_text(socket));
      current = std::make_shared<Connection>(io, std::move(socket), transport, session, services, [this] {
        // Runs inside the connection's last handler: continue on a fresh handler.
        asio::post(io, [this] { connection_done(); });
      });
      current->start();
    });
  }

  void connection_done() {
    if (!current) return;
    reports.push_back(current->report());
    current.reset();
    ++connections;
    if (stopping || (transport.max_connections > 0 && connections >= transport.max_connections)) {
      boost::system::error_code ignored;
      acceptor.close(ignored);
      return;
    }
    accept();
  }

  static std::string endpoint_text(const tcp::socket& s) {
    boost::system::error_code ec;
    const tcp::endpoint e = s.remote_endpoint(ec);
    return ec ? "?" : e.address().to_string() + ":" + std::to_string(e.port());
  }

  TransportConfig transport;
  SessionConfig session;
  Services services;
  asio::io_context io;
  tcp::acceptor acceptor;
  std::shared_ptr<Connection> current;
  std::vector<ConnectionReport> reports;
  int connections = 0;
  bool stopping = false;
};

Listener::Listener(TransportConfig transport, SessionConfig session, Services services)
    : impl_(std::make_unique<Impl>(std::move(transport), std::move(session), std::move(services))) {}

Listener::~Listener() = default;

Expected<std::uint16_t> Listener::open() {
  boost::system::error_code ec;
  const asio::ip::address address = asio::ip::make_address(impl_->transport.host, ec);
  if (ec) return Error{"listen: \"" + impl_->transport.host + "\" is not a numeric IP address"};
  const tcp::endpoint endpoint(address, impl_->transport.port);
  tcp::acceptor& a = impl_->acceptor;
  a.open(endpoint.protocol(), ec);
  if (!ec) a.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) a.bind(endpoint, ec);
  if (!ec) a.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    boost::system::error_code ignored;
    a.close(ignored);
    return Error{"listen on " + impl_->transport.host + ":" + std::to_string(impl_->transport.port) + ": " +
                 ec.message()};
  }
  return a.local_endpoint().port();
}

std::vector<ConnectionReport> Listener::run() {
  if (!impl_->acceptor.is_open()) return {};
  impl_->accept();
  impl_->io.run();
  return impl_->reports;
}

void Listener::stop() {
  asio::post(impl_->io, [impl = impl_.get()] {
    impl->stopping = true;
    boost::system::error_code ignored;
    impl->acceptor.close(ignored);
    if (impl->current) {
      impl->current->abort();
    }
  });
}

// ---- connecting side ----

Expected<ConnectionReport> connect_and_run(const TransportConfig& transport, const SessionConfig& session,
                                           const Services& services) {
  asio::io_context io;
  tcp::resolver resolver(io);
  boost::system::error_code ec;
  const tcp::resolver::results_type endpoints =
      resolver.resolve(transport.host, std::to_string(transport.port), ec);
  if (ec) return Error{"cannot resolve " + transport.host + ": " + ec.message()};

  // Retry while the peer is not listening yet (it may still be starting); every attempt is
  // bounded by the time left.
  const SteadyClock::time_point give_up = SteadyClock::now() + transport.connect_timeout;
  tcp::socket socket(io);
  while (true) {
    std::optional<boost::system::error_code> result;
    asio::async_connect(socket, endpoints,
                        [&result](boost::system::error_code e, const tcp::endpoint&) { result = e; });
    io.restart();
    io.run_until(give_up);
    if (!result) {  // timed out: cancel the attempt and let its handler run
      boost::system::error_code ignored;
      socket.close(ignored);
      io.restart();
      io.run();
      return Error{"cannot connect to " + transport.host + ":" + std::to_string(transport.port) +
                   ": timed out"};
    }
    if (!*result) break;
    if (SteadyClock::now() + std::chrono::milliseconds(200) >= give_up)
      return Error{"cannot connect to " + transport.host + ":" + std::to_string(transport.port) + ": " +
                   result->message()};
    boost::system::error_code ignored;
    socket.close(ignored);
    asio::steady_timer pause(io, std::chrono::milliseconds(200));
    pause.wait(ignored);
  }
  io.restart();
  ConnectionReport report;
  std::shared_ptr<Connection> c;
  c = std::make_shared<Connection>(io, std::move(socket), transport, session, services, [&] {
    asio::post(io, [&] {
      report = c->report();
      c.reset();
    });
  });
  c->start();
  io.run();
  return report;
}

}  // namespace damas::dxp
