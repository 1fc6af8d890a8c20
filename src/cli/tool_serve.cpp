// `damas serve`: the web board (page, JSON API, analysis WebSocket) on a local HTTP port.
#include <boost/program_options.hpp>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/web/server.h"

namespace po = boost::program_options;

namespace damas::cli {

int serve_main(const Args& args) {
  po::options_description desc("damas serve [--host 127.0.0.1] [--port P] [engine options]");
  desc.add_options()("help,h", "show this help")("host", po::value<std::string>()->default_value("127.0.0.1"),
                                                 "address to listen on (loopback by default)")(
      "port", po::value<int>()->default_value(8080), "TCP port; 0 = any free port (printed at start)")(
      "max-sessions", po::value<int>()->default_value(32),
      "games kept at once (idle ones expire after an hour)")(
      "move-time", po::value<double>()->default_value(1.0),
      "seconds per computer move (levels may use less)");
  po::options_description engine_desc(
      "options of the engine all games share (the Hub parameters' names; hash is 32 unless set; level and "
      "multipv are chosen per game and per analysis)");
  add_engine_options(engine_desc);
  desc.add(engine_desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("serve", args, desc, vm)) return *exit_code;
  const int port = vm["port"].as<int>();
  const int sessions = vm["max-sessions"].as<int>();
  const double move_time = vm["move-time"].as<double>();
  if (port < 0 || port > 65535 || sessions < 1 || sessions > 10000 ||
      !(move_time >= 0.01 && move_time <= 60)) {
    std::cerr << "damas serve: --port 0..65535, --max-sessions 1..10000, --move-time 0.01..60\n";
    return 2;
  }
  web::ServerConfig config;
  config.host = vm["host"].as<std::string>();
  config.port = static_cast<unsigned short>(port);
  config.api.max_sessions = static_cast<std::size_t>(sessions);
  config.api.default_move_seconds = move_time;
  web::Server server(config);
  const Status applied = apply_engine_options(vm, [&server](std::string_view name, std::string_view value) {
    return server.set_engine_option(name, value);
  });
  if (!applied) {
    std::cerr << "damas serve: " << applied.error() << "\n";
    return 2;
  }
  const Expected<unsigned short> bound = server.start();
  if (!bound) {
    std::cerr << "damas serve: " << bound.error() << "\n";
    return 1;
  }
  std::cout << "damas serve: the board is at http://" << config.host << ":" << *bound << "/ (Ctrl-C stops)"
            << std::endl;
  const EgdbStatus egdb = server.egdb_status();
  std::cout << "damas serve: " << egdb.text() << std::endl;
  for (const std::string& problem : egdb.problems)
    std::cout << "damas serve: endgame databases: " << problem << std::endl;
  server.run_until_signal();
  std::cout << "damas serve: stopped" << std::endl;
  return 0;
}

}  // namespace damas::cli
