// `damas soak` (tools/soak): starts `damas serve` on a free loopback port (or attacks one already
// running on loopback, --port), runs the play, slow-client and malformed phases, checks that the
// server still serves after each, stops it and prints the figures. Exit status 0 when nothing
// went wrong: no illegal move, no lost session, no crash, every malformed case answered 4xx or
// closed.
#include <signal.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "damas/cli/cli.h"
#include "damas/cli/soak.h"
#include "damas/match/child_process.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

using namespace std::chrono_literals;

// The server as a child process, for its peak memory and its exit status.
class ServerProcess {
 public:
  Expected<unsigned short> start(const std::string& extra_args) {
    ProcessSpec spec;
    spec.command = "/proc/self/exe";
    spec.args = {"serve", "--port", "0"};
    std::istringstream words(extra_args);
    for (std::string w; words >> w;) spec.args.push_back(w);
    if (Status s = child_.start(spec); !s) return Error{"cannot start damas serve: " + s.error()};
    std::string line;
    while (child_.read_line(SteadyClock::now() + 30s, line) == ReadResult::Line) {
      const std::size_t at = line.find("http://127.0.0.1:");
      if (at != std::string::npos) return static_cast<unsigned short>(std::atoi(line.c_str() + at + 17));
    }
    return Error{"damas serve did not start: " + child_.exit_description()};
  }
  bool alive() {
    std::string line;
    while (child_.read_line(SteadyClock::now(), line) == ReadResult::Line) {}
    return child_.running() && ::kill(static_cast<pid_t>(child_.pid()), 0) == 0 &&
           child_.exit_description().empty();
  }
  // VmHWM: the most memory the server has held, in MiB.
  double peak_rss_mib() const {
    std::ifstream status("/proc/" + std::to_string(child_.pid()) + "/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
    return 0;
  }
  // SIGTERM, as Ctrl-C would: a clean stop is "exited with status 0".
  std::string stop() {
    ::kill(static_cast<pid_t>(child_.pid()), SIGTERM);
    child_.close(20s);
    return child_.exit_description();
  }

 private:
  ChildProcess child_;
};

void print_play(const soak::PlayReport& r) {
  const auto n = [&r](soak::Count c) { return static_cast<unsigned long long>(r.count[c]); };
  std::printf(
      "play: %.0f s, games %llu started %llu finished, moves: people %llu computer %llu (%.2f computer "
      "moves/s)\n",
      r.seconds, n(soak::kGamesStarted), n(soak::kGamesFinished), n(soak::kPersonMoves),
      n(soak::kComputerMoves), static_cast<double>(n(soak::kComputerMoves)) / std::max(1.0, r.seconds));
  std::printf("play: hints %llu, analyses %llu, WebSockets %llu with %llu events\n", n(soak::kHints),
              n(soak::kAnalyses), n(soak::kWsOpened), n(soak::kWsEvents));
  std::printf(
      "play: busy answers 503 %llu, 429 %llu; illegal computer moves %llu, lost sessions %llu, other errors "
      "%llu\n",
      n(soak::kBusy), n(soak::kSessionBusy), n(soak::kIllegal), n(soak::kLostSessions), n(soak::kErrors));
  for (const auto& [name, l] : {std::pair{"state", &r.state}, std::pair{"move", &r.move},
                                std::pair{"engine-move", &r.engine_move}, std::pair{"hint", &r.hint}})
    std::printf("play: latency %-11s n %zu p50 %.2f ms p99 %.2f ms max %.2f ms\n", name, l->ms.size(),
                l->percentile(50), l->percentile(99), l->percentile(100));
  for (const std::string& p : r.problems) std::printf("play: problem: %s\n", p.c_str());
}

void print_slow(const soak::SlowReport& r) {
  std::printf(
      "slow: %d slow clients, %d closed by the server; normal requests served %d/%d (p50 %.2f ms, max %.2f "
      "ms)\n",
      r.clients, r.closed_by_server, r.normal_served, r.normal_requests, r.normal.percentile(50),
      r.normal.percentile(100));
}

void print_malformed(const soak::MalformedReport& r) {
  std::printf("malformed: %d cases: %d answered 4xx, %d closed, %d failures\n", r.cases, r.answered_4xx,
              r.closed, r.failures);
  for (const auto& [kind, n] : r.by_kind) std::printf("malformed:   %-20s %d\n", kind.c_str(), n);
  for (const std::string& p : r.problems) std::printf("malformed: problem: %s\n", p.c_str());
}

// The queue's own figures (api stats): the longest wait for a search.
void print_stats(const soak::Target& t) {
  std::string body = soak::stats_text(t);
  std::printf("server stats: %s\n", body.c_str());
}

}  // namespace

int soak_main(const Args& args) {
  po::options_description desc(
      "damas soak [--people N] [--seconds S] [--slow-clients N] [--malformed N] ...");
  desc.add_options()("help,h", "show this help")(
      "people", po::value<int>()->default_value(200),
      "simulated people playing against the computer (0 = no play phase)")(
      "seconds", po::value<double>()->default_value(60), "length of the play phase")(
      "think-min", po::value<double>()->default_value(0.5),
      "a person's shortest pause before an action, seconds")(
      "think-max", po::value<double>()->default_value(3), "a person's longest pause, seconds")(
      "slow-clients", po::value<int>()->default_value(200),
      "slow clients trickling headers and bodies (0 = none)")(
      "slow-seconds", po::value<double>()->default_value(40), "length of the slow-client phase")(
      "malformed", po::value<int>()->default_value(10000), "malformed cases (0 = none)")(
      "seed", po::value<std::uint64_t>()->default_value(1), "random seed")(
      "port", po::value<int>()->default_value(0),
      "attack a damas serve already on 127.0.0.1:PORT (0 = start one)")(
      "server-args", po::value<std::string>()->default_value(""), "options for the damas serve it starts");
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("soak", args, desc, vm)) return *exit_code;
  const auto seconds = [](double s) {
    return std::chrono::milliseconds(static_cast<std::int64_t>(s * 1000));
  };
  const int people = vm["people"].as<int>(), slow = vm["slow-clients"].as<int>(),
            cases = vm["malformed"].as<int>();
  const double play_s = vm["seconds"].as<double>(), slow_s = vm["slow-seconds"].as<double>();
  const double think_min = vm["think-min"].as<double>(), think_max = vm["think-max"].as<double>();
  const int port = vm["port"].as<int>();
  // Bounded in time and count, whatever is asked.
  if (people < 0 || people > 2000 || slow < 0 || slow > 2000 || cases < 0 || cases > 1000000 ||
      !(play_s >= 0 && play_s <= 7200) || !(slow_s >= 0 && slow_s <= 600) || !(think_min >= 0) ||
      !(think_max >= think_min && think_max <= 60) || port < 0 || port > 65535) {
    std::cerr
        << "damas soak: --people 0..2000, --slow-clients 0..2000, --malformed 0..1000000, --seconds 0..7200, "
           "--slow-seconds 0..600, 0 <= --think-min <= --think-max <= 60, --port 0..65535\n";
    return 2;
  }
  ServerProcess server;
  soak::Target target;
  if (port == 0) {
    const Expected<unsigned short> started = server.start(vm["server-args"].as<std::string>());
    if (!started) {
      std::cerr << "damas soak: " << started.error() << "\n";
      return 1;
    }
    target.port = *started;
  } else {
    target.port = static_cast<unsigned short>(port);  // loopback only: the host is never asked
  }
  std::printf("soak: damas serve on 127.0.0.1:%u\n", static_cast<unsigned>(target.port));
  std::fflush(stdout);
  bool ok = soak::serving(target);
  if (people > 0) {
    const soak::PlayReport r = soak::play(target, {people, seconds(play_s), seconds(think_min),
                                                   seconds(think_max), vm["seed"].as<std::uint64_t>()});
    print_play(r);
    print_stats(target);
    ok = ok && r.count[soak::kIllegal] == 0 && r.count[soak::kLostSessions] == 0 &&
         r.count[soak::kErrors] == 0 && r.count[soak::kComputerMoves] > 0;
    const bool still = soak::serving(target);
    std::printf("play: the server serves afterwards: %s\n", still ? "yes" : "NO");
    ok = ok && still;
    std::fflush(stdout);
  }
  if (slow > 0) {
    const soak::SlowReport r = soak::slow_clients(target, {slow, seconds(slow_s), 20});
    print_slow(r);
    const bool still = soak::serving(target);
    std::printf("slow: the server serves afterwards: %s\n", still ? "yes" : "NO");
    ok = ok && still && r.normal_served == r.normal_requests;
    std::fflush(stdout);
  }
  if (cases > 0) {
    const soak::MalformedReport r = soak::malformed(target, {cases, 8, vm["seed"].as<std::uint64_t>()});
    print_malformed(r);
    const bool still = soak::serving(target);
    std::printf("malformed: the server serves afterwards: %s\n", still ? "yes" : "NO");
    ok = ok && still && r.failures == 0;
    std::fflush(stdout);
  }
  if (port == 0) {
    const bool alive = server.alive();
    std::printf("server: alive to the end: %s, peak RSS %.1f MiB\n", alive ? "yes" : "NO",
                server.peak_rss_mib());
    const std::string exit = server.stop();
    std::printf("server: stopped by SIGTERM: %s\n", exit.c_str());
    ok = ok && alive && exit == "exited with status 0";
  }
  std::printf("soak: %s\n", ok ? "passed" : "FAILED");
  return ok ? 0 : 1;
}

}  // namespace damas::cli
