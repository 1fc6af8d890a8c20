// `damas egdb build|verify|info|probe`: endgame databases on disk.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <random>

#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/core/file_check.h"
#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/platform.h"
#include "damas/egdb/cluster.h"
#include "damas/egdb/discovery.h"
#include "damas/egdb/egdb.h"
#include "damas/engine/engine.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

// Without --dir: a build writes into the user directory (a variant other than Brazilian into its
// subdirectory); the other actions read the databases the engine finds (egdb/discovery.h).
std::string build_dir(const po::variables_map& vm, Variant variant) {
  const std::string dir = vm["dir"].as<std::string>();
  if (!dir.empty()) return dir;
  const std::string user = egdb::user_dir(egdb::Places::of_process());
  return user.empty() ? user : egdb::variant_dir(user, variant);
}
// The variant of --variant, or nullopt after saying why on stderr.
std::optional<Variant> variant_given(const po::variables_map& vm, const char* command) {
  const Expected<Variant> variant = variant_option(vm);
  if (!variant) std::cerr << "damas " << command << ": " << variant.error() << "\n";
  return variant ? std::optional<Variant>(*variant) : std::nullopt;
}
// The directory to read, checked (core/file_check.h); empty when none was given or found, after
// saying why on stderr. Without --dir, the databases of --variant the engine finds.
std::string found_dir(const po::variables_map& vm, const char* command) {
  const std::optional<Variant> variant = variant_given(vm, command);
  if (!variant) return "";
  std::string dir = vm["dir"].as<std::string>();
  if (dir.empty()) dir = egdb::find_databases(egdb::Places::of_process(), 8, *variant).dir;
  if (dir.empty()) {
    std::cerr << "damas " << command << ": no " << to_string(*variant)
              << " endgame databases found (give --dir, or build them: damas egdb build)\n";
    return "";
  }
  if (Status s = check_directory(dir, "endgame database directory"); !s) {
    std::cerr << "damas " << command << ": " << s.error() << "\n";
    return "";
  }
  // A --variant given must be the one the files hold (without it, a --dir is read as it is).
  const Expected<Variant> held = egdb::variant_of_dir(dir);
  if (held && vm.count("variant") && *held != *variant) {
    std::cerr << "damas " << command << ": " << dir << " holds " << to_string(*held) << " databases, not "
              << to_string(*variant) << "\n";
    return "";
  }
  return dir;
}
constexpr const char* kDirHelp =
    "directory of the slice files (default: the databases of --variant the engine finds: $DAMAS_EGDB, "
    "~/.local/share/damas/egdb, <prefix>/share/damas/egdb; another variant than Brazilian in the "
    "subdirectory of its name)";

// Slice, positions done, rate, time left.
std::string progress_text(const egdb::BuildProgress& p) {
  const double done = static_cast<double>(p.all_done + p.done);
  const double rate = p.seconds > 0 ? done / p.seconds : 0;
  const double left = rate > 0 ? (static_cast<double>(p.all_total) - done) / rate : 0;
  char text[160];
  std::snprintf(text, sizeof text, "[%d/%d %s] %llu/%llu positions  %.2f M/s  %s left", p.slice_number,
                p.slice_count, egdb::slice_name(p.slice).c_str(), static_cast<unsigned long long>(p.done),
                static_cast<unsigned long long>(p.total), rate / 1e6, clock_text(left).c_str());
  return text;
}

// Said before anything is built; false (after saying why) when the machine cannot hold it.
bool announce_memory(const egdb::BuildOptions& o) {
  const std::uint64_t physical = platform::physical_memory_bytes();
  if (Status s = egdb::check_build_memory(o.pieces, physical); !s) {
    std::cerr << "damas egdb build: " << s.error() << "\n";
    return false;
  }
  std::printf("egdb build: up to %d pieces into %s; needs about %s of memory (this machine has %s)\n",
              o.pieces, o.dir.c_str(), egdb::memory_text(egdb::build_memory_bytes(o.pieces)).c_str(),
              physical ? egdb::memory_text(physical).c_str() : "an unknown amount");
  std::fflush(stdout);
  return true;
}

// The progress bar on a terminal; elsewhere (a log) one line as each slice starts.
std::function<void(const egdb::BuildProgress&)> progress_reporter(ProgressLine& line, int& logged_slice) {
  return [&line, &logged_slice](const egdb::BuildProgress& p) {
    if (line.terminal()) {
      line.draw(progress_text(p));
    } else if (p.slice_number != logged_slice) {
      logged_slice = p.slice_number;
      std::fprintf(stderr, "%s\n", progress_text(p).c_str());
    }
  };
}

void print_report(const egdb::BuildReport& r, double seconds) {
  std::printf(
      "built %d slices (%d already done), %llu positions in %.1f s (%.2f M positions/s), %llu bytes\n",
      r.slices_computed, r.slices_reused, static_cast<unsigned long long>(r.positions), seconds,
      seconds > 0 ? static_cast<double>(r.positions) / seconds / 1e6 : 0.0,
      static_cast<unsigned long long>(r.bytes));
}

int build_command(const Args& args) {
  po::options_description desc("damas egdb build --pieces N [--variant V] [--dir D] [--threads T] [--mpi]");
  desc.add_options()("help,h", "show this help")("pieces", po::value<int>()->default_value(4),
                                                 "every slice with up to N pieces (2..8)")(
      "dir", po::value<std::string>()->default_value(""),
      "directory of the slice files (default: the user directory, $XDG_DATA_HOME/damas/egdb or "
      "~/.local/share/damas/egdb, where the engine finds them; another variant than Brazilian in "
      "its subdirectory, egdb/russian)")("threads", po::value<int>()->default_value(1),
                                         "threads (1..64; per rank with --mpi)")(
      "mpi",
      "cluster build: run under mpirun, every rank writing into the shared --dir (needs a damas "
      "built with MPI; see bench/egdb-cluster.md)");
  add_variant_option(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("egdb build", args, desc, vm))
    return *exit_code;
  const std::optional<Variant> variant = variant_given(vm, "egdb build");
  if (!variant) return 2;
  egdb::BuildOptions o;
  o.variant = *variant;
  o.dir = build_dir(vm, o.variant);
  if (o.dir.empty()) {
    std::cerr << "damas egdb build: no user directory ($HOME is not set): give --dir\n";
    return 2;
  }
  o.pieces = vm["pieces"].as<int>();
  o.threads = vm["threads"].as<int>();
  if (o.pieces < 2 || o.pieces > 8) {
    std::cerr << "damas egdb build: pieces must be between 2 and 8\n";
    return 2;
  }
  if (o.threads < 1 || o.threads > 64) {
    std::cerr << "damas egdb build: threads must be between 1 and 64\n";
    return 2;
  }
  // MPI starts only here: a build without --mpi (and every other command) never touches it.
  std::unique_ptr<egdb::Cluster> cluster;
  if (vm.count("mpi")) {
    Expected<std::unique_ptr<egdb::Cluster>> joined = egdb::join_mpi();
    if (!joined) {
      std::cerr << "damas egdb build --mpi: " << joined.error() << "\n";
      return 2;
    }
    cluster = std::move(joined).value();
  }
  const bool speaks = !cluster || cluster->rank() == 0;  // one rank prints for all
  if (!cluster && !announce_memory(o)) return 2;
  ProgressLine line(stderr, speaks && platform::is_terminal(stderr));
  int logged_slice = 0;
  if (speaks) o.on_progress = progress_reporter(line, logged_slice);
  const auto t0 = std::chrono::steady_clock::now();
  const Expected<egdb::BuildReport> r = cluster ? egdb::build_on_cluster(o, *cluster) : egdb::build(o);
  line.finish();
  if (!r) {
    if (speaks) std::cerr << "damas egdb build: " << r.error() << "\n";
    return 1;
  }
  if (speaks) {
    print_report(*r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (cluster)
      std::printf(
          "on %d MPI ranks; rank 0: %.1f CPU s in first passes, %.1f CPU s spreading values and writing\n",
          cluster->size(), r->scan_cpu_seconds, r->solve_cpu_seconds);
  }
  return 0;
}

int verify_command(const Args& args) {
  po::options_description desc("damas egdb verify --dir D [--pieces N] [--threads T]");
  desc.add_options()("help,h", "show this help")("dir", po::value<std::string>()->default_value(""),
                                                 kDirHelp)("pieces", po::value<int>()->default_value(0),
                                                           "check slices up to N pieces (0 = all found)")(
      "threads", po::value<int>()->default_value(1), "threads (1..64)");
  add_variant_option(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("egdb verify", args, desc, vm))
    return *exit_code;
  const std::string dir = found_dir(vm, "egdb verify");
  if (dir.empty()) return 1;
  int pieces = vm["pieces"].as<int>();
  if (pieces == 0) pieces = egdb::complete_pieces(dir);
  if (pieces < 2) {
    std::cerr << "damas egdb verify: no complete database in " << dir << "\n";
    return 1;
  }
  const Expected<std::uint64_t> n = egdb::verify(dir, pieces, std::clamp(vm["threads"].as<int>(), 1, 64));
  if (!n) {
    std::cerr << "damas egdb verify: " << n.error() << "\n";
    return 1;
  }
  const Expected<Variant> variant = egdb::variant_of_dir(dir);
  std::printf("verified %llu positions up to %d pieces (%s rules): every value agrees with its moves\n",
              static_cast<unsigned long long>(*n), pieces,
              variant ? std::string(to_string(*variant)).c_str() : "?");
  return 0;
}

int info_command(const Args& args) {
  po::options_description desc("damas egdb info --dir D");
  desc.add_options()("help,h", "show this help")("dir", po::value<std::string>()->default_value(""),
                                                 kDirHelp);
  add_variant_option(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("egdb info", args, desc, vm)) return *exit_code;
  const std::string dir = found_dir(vm, "egdb info");
  if (dir.empty()) return 1;
  const Expected<Variant> variant = egdb::variant_of_dir(dir);
  if (!variant) {
    std::cerr << "damas egdb info: " << variant.error() << "\n";
    return 1;
  }
  std::printf("variant=%s\n", std::string(to_string(*variant)).c_str());
  int listed = 0;
  for (const egdb::Material& m : egdb::slices_up_to(8)) {
    const std::string path = egdb::slice_path(dir, m);
    std::error_code ec;  // a name the system refuses holds no file
    if (!std::filesystem::exists(path, ec)) continue;
    const Expected<egdb::SliceFile> f = egdb::SliceFile::read_slice(dir, m, *variant);
    if (!f) {
      std::cerr << "damas egdb info: " << f.error() << "\n";
      return 1;
    }
    for (Color stm : {Color::White, Color::Black}) {
      const egdb::SideStats& s = f->stats()[index(stm)];
      std::printf(
          "slice wm=%d wk=%d bm=%d bk=%d stm=%c positions=%llu win=%llu draw=%llu loss=%llu longest=%s\n",
          m.wm, m.wk, m.bm, m.bk, stm == Color::White ? 'w' : 'b',
          static_cast<unsigned long long>(s.positions), static_cast<unsigned long long>(s.win),
          static_cast<unsigned long long>(s.draw), static_cast<unsigned long long>(s.loss),
          s.longest < 0 ? "-" : std::to_string(s.longest).c_str());
    }
    ++listed;
  }
  if (!listed) {
    std::cerr << "damas egdb info: no slice files in " << dir << "\n";
    return 1;
  }
  return 0;
}

int probe_command(const Args& args) {
  po::options_description desc("damas egdb probe --fen F [--dir D]");
  desc.add_options()("help,h", "show this help")("dir", po::value<std::string>()->default_value(""),
                                                 kDirHelp)(
      "fen", po::value<std::string>()->required(),
      "position in PDN FEN, in the square numbers of the databases' game");
  add_variant_option(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("egdb probe", args, desc, vm))
    return *exit_code;
  const std::string dir = found_dir(vm, "egdb probe");
  if (dir.empty()) return 1;
  // The FEN names no game: it is read in the numbers of the game the databases were solved for
  // (a mirrored-board game numbers its own way) and played by its rules.
  const Expected<Variant> held = egdb::variant_of_dir(dir);
  const Expected<Position> pos = parse_fen(vm["fen"].as<std::string>(), held ? *held : Variant::Brazilian);
  if (!pos) {
    std::cerr << "damas egdb probe: " << pos.error() << "\n";
    return 2;
  }
  const int pieces = egdb::complete_pieces(dir);
  if (popcount(pos->occupied()) > pieces) {
    std::cerr << "damas egdb probe: " << dir << " holds up to " << pieces << " pieces\n";
    return 1;
  }
  const auto db = egdb::Database::open(dir, popcount(pos->occupied()));
  if (!db) {
    std::cerr << "damas egdb probe: " << db.error() << "\n";
    return 1;
  }
  const std::optional<egdb::Value> v = (*db)->probe(*pos);
  if (!v) {
    std::cerr << "damas egdb probe: position not covered\n";
    return 1;
  }
  if (v->wdl == egdb::Wdl::Draw) std::printf("draw\n");
  else std::printf("%s in %d plies\n", v->wdl == egdb::Wdl::Win ? "win" : "loss", v->plies);
  return 0;
}

// The sizes a build plan needs, per piece count: slices, numbers, positions, the largest slice.
int count_command(const Args& args) {
  po::options_description desc("damas egdb count [--pieces N]");
  desc.add_options()("help,h", "show this help")("pieces", po::value<int>()->default_value(8),
                                                 "piece counts 2..N (2..8)");
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("egdb count", args, desc, vm))
    return *exit_code;
  const int pieces = vm["pieces"].as<int>();
  if (pieces < 2 || pieces > 8) {
    std::cerr << "damas egdb count: pieces must be between 2 and 8\n";
    return 2;
  }
  const std::vector<egdb::Material> all = egdb::slices_up_to(pieces);
  for (int n = 2; n <= pieces; ++n) {
    int slices = 0;
    std::uint64_t numbers = 0, positions = 0, largest = 0;
    egdb::Material biggest;
    for (const egdb::Material& m : all) {
      if (m.pieces() != n) continue;
      const egdb::SliceIndex index(m);
      ++slices;
      numbers += 2 * index.size();
      positions += 2 * index.positions();
      if (2 * index.size() > largest) {
        largest = 2 * index.size();
        biggest = m;
      }
    }
    std::printf("pieces=%d slices=%d numbers=%llu positions=%llu largest=%s largest-numbers=%llu\n", n,
                slices, static_cast<unsigned long long>(numbers), static_cast<unsigned long long>(positions),
                egdb::slice_name(biggest).c_str(), static_cast<unsigned long long>(largest));
  }
  // The cluster build's waves (slices solved side by side) and the most codes a rank holds at
  // once (the slices a wave or a later one looks up), in numbers.
  const std::vector<std::vector<egdb::Material>> waves = egdb::build_waves(pieces);
  std::map<egdb::Material, std::size_t> wave_of, last_use;
  for (std::size_t w = 0; w < waves.size(); ++w)
    for (const egdb::Material& m : waves[w]) {
      wave_of[m] = w;
      for (const egdb::Material& d : egdb::dependencies(m)) last_use[d] = w;
    }
  std::uint64_t widest = 0, held = 0;
  for (std::size_t w = 0; w < waves.size(); ++w) {
    std::uint64_t numbers = 0, kept = 0;
    for (const egdb::Material& m : waves[w]) numbers += 2 * egdb::SliceIndex(m).size();
    for (const auto& [m, last] : last_use)
      if (wave_of[m] <= w && last >= w && (wave_of[m] < w || last > w))
        kept += 2 * egdb::SliceIndex(m).size();
    widest = std::max(widest, numbers);
    held = std::max(held, kept);
  }
  std::printf("waves=%zu largest-wave-numbers=%llu most-held-numbers=%llu\n", waves.size(),
              static_cast<unsigned long long>(widest), static_cast<unsigned long long>(held));
  return 0;
}

}  // namespace

int egdb_main(const Args& args) {
  return run_action("egdb", "usage: damas egdb build|verify|info|probe|convert|count|ending-data [options]",
                    {{"build", build_command},
                     {"verify", verify_command},
                     {"info", info_command},
                     {"probe", probe_command},
                     {"convert", egdb_convert_main},
                     {"count", count_command},
                     {"ending-data", egdb_ending_data_main}},
                    args);
}

}  // namespace damas::cli
