// `damas dxp`: plays games over DXP (TCP). Default: listen on 127.0.0.1:27531 as a follower.
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/core/notation.h"
#include "damas/dxp/dxp_transport.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"
#include "damas/match/selfplay.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

void log_line(std::string_view line) { std::cerr << "dxp: " << line << std::endl; }

// The openings file of selfplay (selfplay.h: moves from the start or a FEN per line), as positions.
Expected<std::vector<Position>> read_openings(const std::string& path, Variant variant) {
  Expected<std::vector<Opening>> loaded = load_openings(path, OpeningFormat::Auto, variant);
  if (!loaded) return Error{loaded.error()};
  std::vector<Position> openings;
  for (const Opening& o : *loaded) openings.push_back(o.position());
  return openings;
}

void append_pdn(const std::string& path, const dxp::FinishedGame& g) {
  if (path.empty()) return;
  std::ofstream out(path, std::ios::app);
  out << dxp::to_pdn(g) << '\n';
  out.flush();
  if (!out) log_line("cannot write game " + std::to_string(g.number) + " to " + path);
}

}  // namespace

int dxp_main(const Args& args) {
  po::options_description desc(
      "damas dxp [OPTIONS]\n"
      "Plays Brazilian draughts (--variant russian: Russian) over DXP (TCP). By default listens on\n"
      "127.0.0.1:27531 and follows (answers GAMEREQ); --initiator proposes a match. Both sides must\n"
      "play the same game: DXP does not carry it. See protocol/dxp.md.\n\nOptions");
  desc.add_options()("help,h", "show this help")("connect", po::bool_switch(),
                                                 "connect to --host:--port instead of listening")(
      "host", po::value<std::string>()->default_value("127.0.0.1"), "address to listen on or connect to")(
      "port", po::value<int>()->default_value(dxp::kDefaultPort), "TCP port (listening: 0 = any free port)")(
      "initiator", po::bool_switch(), "propose games (GAMEREQ) instead of following")(
      "name", po::value<std::string>()->default_value("damas " DAMAS_VERSION),
      "our name (32 characters at most)")("games", po::value<int>()->default_value(2),
                                          "initiator: games in the match")(
      "start", po::value<std::string>(), "initiator: start position (FEN) for every game")(
      "openings", po::value<std::string>(),
      "initiator: file of openings, one per line (FEN or moves from the start); each is played twice, "
      "colours swapped")("minutes", po::value<int>()->default_value(5),
                         "initiator: thinking time per player (GAMEREQ)")(
      "moves", po::value<int>()->default_value(0), "initiator: moves per time control, 0 = whole game")(
      "fallback-move-time", po::value<double>()->default_value(1.0),
      "seconds per move when a game announces 000 minutes")(
      "depth", po::value<int>(), "fixed search depth per move instead of the clock")(
      "nodes", po::value<std::uint64_t>(), "fixed node budget per move instead of the clock")(
      "peer-timeout", po::value<double>()->default_value(300.0),
      "seconds of silence from the peer before the game is saved and the connection closed")(
      "connect-timeout", po::value<double>()->default_value(10.0), "seconds to keep trying to connect")(
      "pace", po::value<int>()->default_value(50), "milliseconds between two messages we send")(
      "max-connections", po::value<int>()->default_value(0), "listening: stop after this many (0 = never)")(
      "pdn", po::value<std::string>()->default_value("dxp-games.pdn"),
      "file every game is appended to (empty = none)")("trace", po::bool_switch(),
                                                       "log every message sent and received (stderr)");
  // Engine options from the registry, so that names match the Hub front end.
  po::options_description engine_desc("Engine options");
  add_engine_options(engine_desc);
  desc.add(engine_desc);

  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("dxp", args, desc, vm)) return *exit_code;
  const auto fail = [](const std::string& message) {
    std::cerr << "damas dxp: " << message << "\n";
    return 2;
  };
  if (Status s = check_output_option(vm, "pdn", "PDN file"); !s) return fail(s.error());

  Options options;
  if (Status s = apply_engine_options(vm, options, VariantUse::Any); !s) return fail(s.error());

  dxp::SessionConfig session;
  session.role = vm["initiator"].as<bool>() ? dxp::Role::Initiator : dxp::Role::Follower;
  session.name = vm["name"].as<std::string>();
  if (session.name.size() > dxp::kNameWidth) return fail("--name: at most 32 characters");
  session.numbering = parse_numbering(options.get(option::kNumbering)).value_or(Numbering::Standard);
  session.draw_rules =
      parse_draw_rules(options.get(option::kDrawRules), session.variant).value_or(DrawRules::Seed);
  session.variant = options.variant();
  session.games = vm["games"].as<int>();
  if (session.games < 1 || session.games > 100000) return fail("--games must be between 1 and 100000");
  session.minutes = vm["minutes"].as<int>();
  if (session.minutes < 0 || session.minutes > 999) return fail("--minutes must be between 0 and 999");
  session.moves = vm["moves"].as<int>();
  if (session.moves < 0 || session.moves > 999) return fail("--moves must be between 0 and 999");
  session.fallback_move_time = vm["fallback-move-time"].as<double>();
  if (!(session.fallback_move_time > 0 && session.fallback_move_time <= 3600))
    return fail("--fallback-move-time must be above 0 and at most 3600 seconds");
  if (vm.count("depth")) {
    const int d = vm["depth"].as<int>();
    if (d < 1 || d > 100) return fail("--depth must be between 1 and 100");
    session.depth = d;
  }
  if (vm.count("nodes")) {
    if (vm["nodes"].as<std::uint64_t>() < 1) return fail("--nodes must be positive");
    session.nodes = vm["nodes"].as<std::uint64_t>();
  }
  const double peer_timeout = vm["peer-timeout"].as<double>();
  if (!(peer_timeout > 0 && peer_timeout <= 86400))
    return fail("--peer-timeout must be above 0 and at most 86400");
  session.peer_timeout = dxp::Millis{static_cast<std::int64_t>(std::llround(peer_timeout * 1000))};
  if (vm.count("start") && vm.count("openings")) return fail("use --start or --openings, not both");
  if (vm.count("start")) {
    Expected<Position> p = parse_fen(vm["start"].as<std::string>(), session.variant);
    if (!p) return fail("--start: " + p.error());
    session.openings = {*p};
  }
  if (vm.count("openings")) {
    Expected<std::vector<Position>> o = read_openings(vm["openings"].as<std::string>(), session.variant);
    if (!o) return fail(o.error());
    session.openings = *o;
  }

  dxp::TransportConfig transport;
  transport.host = vm["host"].as<std::string>();
  const int port = vm["port"].as<int>();
  const bool connect = vm["connect"].as<bool>();
  if (port < (connect ? 1 : 0) || port > 65535) return fail("--port out of range");
  transport.port = static_cast<std::uint16_t>(port);
  const int pace = vm["pace"].as<int>();
  if (pace < 0 || pace > 10000) return fail("--pace must be between 0 and 10000 ms");
  transport.pace = std::chrono::milliseconds(pace);
  const double connect_timeout = vm["connect-timeout"].as<double>();
  if (!(connect_timeout > 0 && connect_timeout <= 3600)) return fail("--connect-timeout must be above 0");
  transport.connect_timeout = std::chrono::milliseconds(std::llround(connect_timeout * 1000));
  transport.max_connections = vm["max-connections"].as<int>();
  if (transport.max_connections < 0) return fail("--max-connections must not be negative");
  transport.trace = vm["trace"].as<bool>();
  // A listening initiator plays its match with the first peer, then ends.
  if (!connect && session.role == dxp::Role::Initiator && transport.max_connections == 0)
    transport.max_connections = 1;

  Engine engine(options);
  dxp::EnginePlayer player(engine);
  const std::string pdn_path = vm["pdn"].as<std::string>();
  dxp::Services services;
  services.player = &player;
  services.save_game = [&pdn_path](const dxp::FinishedGame& g) { append_pdn(pdn_path, g); };
  services.log = log_line;

  const auto print_summary = [](const dxp::ConnectionReport& r) {
    const dxp::MatchSummary& s = r.summary;
    std::cout << "match: " << s.games_saved << " games saved, +" << s.wins << " =" << s.draws << " -"
              << s.losses << ", unfinished " << s.unfinished
              << (r.match_complete ? ", complete" : ", incomplete") << " (" << r.end << ")" << std::endl;
  };

  if (connect) {
    Expected<dxp::ConnectionReport> r = dxp::connect_and_run(transport, session, services);
    if (!r) {
      std::cerr << "damas dxp: " << r.error() << "\n";
      return 1;
    }
    if (session.role == dxp::Role::Initiator) print_summary(*r);
    return session.role == dxp::Role::Initiator && !r->match_complete ? 1 : 0;
  }
  dxp::Listener listener(transport, session, services);
  Expected<std::uint16_t> bound = listener.open();
  if (!bound) {
    std::cerr << "damas dxp: " << bound.error() << "\n";
    return 1;
  }
  log_line("listening on " + transport.host + ":" + std::to_string(*bound) + " as " +
           (session.role == dxp::Role::Initiator ? "initiator" : "follower"));
  const std::vector<dxp::ConnectionReport> reports = listener.run();
  if (session.role == dxp::Role::Initiator) {
    for (const dxp::ConnectionReport& r : reports) print_summary(r);
    return !reports.empty() && reports.back().match_complete ? 0 : 1;
  }
  return 0;
}

}  // namespace damas::cli
