// `damas serve`: the web board (page, JSON API, analysis WebSocket) on a local HTTP port.
#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>
#include <map>
#include <sstream>

#include "damas/cli/cli.h"
#include "damas/web/server.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// A number of the command line within [lo, hi], or the error naming its option.
Expected<double> ranged(const po::variables_map& vm, const std::string& name, double lo, double hi) {
  const boost::any& value = vm[name].value();
  const double v = value.type() == typeid(int) ? boost::any_cast<int>(value) : boost::any_cast<double>(value);
  if (!(v >= lo && v <= hi))
    return Error{"--" + name + " must be from " + number_text(lo) + " to " + number_text(hi)};
  return v;
}

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0));
}

Expected<web::ServerConfig> server_config(const po::variables_map& vm) {
  web::ServerConfig c;
  struct Range {
    const char* name;
    double lo, hi;
  };
  static constexpr Range kRanges[] = {
      {"port", 0, 65535},
      {"max-sessions", 1, 100000},
      {"session-idle", 1, 604800},
      {"searches", 0, 1024},
      {"queue-wait", 0.001, 600},
      {"max-waiting", 1, 10000},
      {"max-connections", 8, 100000},
      {"header-timeout", 0.01, 3600},
      {"body-timeout", 0.01, 3600},
      {"move-time", 0.01, 60},
  };
  std::map<std::string, double> v;
  for (const Range& r : kRanges) {
    const Expected<double> value = ranged(vm, r.name, r.lo, r.hi);
    if (!value) return Error{value.error()};
    v[r.name] = *value;
  }
  c.host = vm["host"].as<std::string>();
  c.port = static_cast<unsigned short>(v["port"]);
  c.api.max_sessions = static_cast<std::size_t>(v["max-sessions"]);
  c.api.idle_expiry = std::chrono::seconds(static_cast<std::int64_t>(v["session-idle"]));
  c.api.search_slots = static_cast<std::size_t>(v["searches"]);
  c.api.queue_wait = millis(v["queue-wait"]);
  c.api.max_waiting = static_cast<std::size_t>(v["max-waiting"]);
  c.api.default_move_seconds = v["move-time"];
  c.max_connections = static_cast<std::size_t>(v["max-connections"]);
  c.header_timeout = millis(v["header-timeout"]);
  c.body_timeout = millis(v["body-timeout"]);
  return c;
}

}  // namespace

int serve_main(const Args& args) {
  po::options_description desc("damas serve [--host 127.0.0.1] [--port P] [limits] [engine options]");
  desc.add_options()("help,h", "show this help")("host", po::value<std::string>()->default_value("127.0.0.1"),
                                                 "address to listen on (loopback by default)")(
      "port", po::value<int>()->default_value(8080), "TCP port; 0 = any free port (printed at start)")(
      "move-time", po::value<double>()->default_value(1.0),
      "seconds per computer move (levels may use less)");
  po::options_description limits(
      "limits (a busy or attacked server answers 503 or closes, and keeps serving)");
  limits.add_options()("max-sessions", po::value<int>()->default_value(1000),
                       "games kept at once (1..100000)")(
      "session-idle", po::value<double>()->default_value(3600),
      "seconds after which an unused game is dropped (1..604800)")(
      "searches", po::value<int>()->default_value(0),
      "computer moves, hints and analyses at once (0 = the number of cores); the others wait their turn")(
      "queue-wait", po::value<double>()->default_value(10),
      "seconds a request may wait for its search before a busy answer (0.001..600)")(
      "max-waiting", po::value<int>()->default_value(128), "searches that may wait at once (1..10000)")(
      "max-connections", po::value<int>()->default_value(512),
      "HTTP and WebSocket connections at once (8..100000)")(
      "header-timeout", po::value<double>()->default_value(10),
      "seconds a client has to send a request header (0.01..3600)")(
      "body-timeout", po::value<double>()->default_value(30),
      "seconds a client has to send a request body (0.01..3600)");
  desc.add(limits);
  po::options_description engine_desc(
      "options of the engines the games share (the Hub parameters' names; hash, per engine, is 16 unless "
      "set; "
      "level and multipv are chosen per game and per analysis; variant is the game of a new board "
      "that names none)");
  add_engine_options(engine_desc);
  desc.add(engine_desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("serve", args, desc, vm)) return *exit_code;
  const Expected<web::ServerConfig> config = server_config(vm);
  if (!config) {
    std::cerr << "damas serve: " << config.error() << "\n";
    return 2;
  }
  web::Server server(*config);
  // --variant russian: the game of a new board that names none (the page offers both).
  const Status applied = apply_engine_options(
      vm,
      [&server](std::string_view name, std::string_view value) {
        return server.set_engine_option(name, value);
      },
      VariantUse::Any);
  if (!applied) {
    std::cerr << "damas serve: " << applied.error() << "\n";
    return 2;
  }
  const Expected<unsigned short> bound = server.start();
  if (!bound) {
    std::cerr << "damas serve: " << bound.error() << "\n";
    return 1;
  }
  std::cout << "damas serve: the board is at http://" << config->host << ":" << *bound << "/ (Ctrl-C stops)"
            << std::endl;
  const EgdbStatus egdb = server.egdb_status();
  std::cout << "damas serve: " << egdb.text() << std::endl;
  for (const std::string& problem : egdb.problems)
    std::cout << "damas serve: endgame databases: " << problem << std::endl;
  std::cout << "damas serve: " << server.book_status().text() << std::endl;
  server.run_until_signal();
  std::cout << "damas serve: stopped" << std::endl;
  return 0;
}

}  // namespace damas::cli
