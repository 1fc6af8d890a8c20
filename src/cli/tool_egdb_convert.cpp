// `damas egdb convert`: positions won inside the draw laws, played out by the engine. It measures
// how the engine converts endings: with the databases (every one should be won) and without them
// (egdb-path=none: search and evaluation alone), per material group.
#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <thread>

#include "damas/cli/cli.h"
#include "damas/cli/progress.h"
#include "damas/core/game.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/platform.h"
#include "damas/core/training_data.h"
#include "damas/egdb/discovery.h"
#include "damas/egdb/egdb.h"
#include "damas/engine/engine.h"
#include "damas/engine/options.h"
#include "damas/match/openings.h"
#include "damas/match/selfplay.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

// "KKM v K, off the long diagonal": the winner's pieces, then the loser's (kings first).
std::string material_group(const Position& p) {
  const Color winner = p.side_to_move();
  const auto side = [&](Color c) {
    return std::string(static_cast<std::size_t>(popcount(p.kings(c))), 'K') +
           std::string(static_cast<std::size_t>(popcount(p.men(c))), 'M');
  };
  std::string group = side(winner) + " v " + side(~winner);
  if (p.pieces(~winner) == p.kings(~winner) && popcount(p.kings(~winner)) == 1)
    group += (p.kings(~winner) & fmjd64::kLongDiagonalSquares) ? ", on the long diagonal"
                                                               : ", off the long diagonal";
  return group;
}

struct Task {
  Position start;
  std::string group;
  int distance = 0;  // database plies to the end (0 when unknown)
};

// A task's name on a line of --save and in messages: "group, win in N" (N when known).
std::string saved_name(const Task& t) {
  return t.group + (t.distance ? ", win in " + std::to_string(t.distance) : "");
}

// A line of --save read back (saved_name's inverse), so a replay counts by group as the first
// run did.
Task task_of_saved_line(const Opening& o) {
  static const std::regex saved(R"((.+), win in (\d{1,6}))");
  std::smatch m;
  if (std::regex_match(o.name, m, saved)) return Task{o.position(), m[1].str(), std::stoi(m[2].str())};
  return Task{o.position(), o.name.empty() ? material_group(o.position()) : o.name, 0};
}

struct Outcome {
  bool converted = false;
  std::string end;  // why the game ended
  int plies = 0;
};

struct Sample {
  std::vector<Task> tasks;
  std::uint64_t undecided = 0;  // database wins whose law check ran out of budget: left out
};

// Random positions: each piece count of [from, to] equally likely, within it each position; kept
// when the side to move wins inside the laws (egdb::wins_inside_laws) and no capture is pending.
Sample sample(const egdb::Database& db, int from, int to, int count, std::uint64_t seed, DrawRules rules,
              const std::string& group_filter) {
  std::map<int, std::vector<egdb::Material>> slices;
  std::map<int, std::vector<double>> sizes;
  for (const egdb::Material& m : egdb::slices_up_to(to))
    if (m.pieces() >= from && db.slices().count(m)) {
      slices[m.pieces()].push_back(m);
      sizes[m.pieces()].push_back(static_cast<double>(egdb::SliceIndex(m).size()));
    }
  std::vector<int> counts;
  for (const auto& [n, list] : slices) counts.push_back(n);
  Sample drawn;
  std::vector<Task>& tasks = drawn.tasks;
  if (counts.empty()) return drawn;
  std::mt19937_64 rng(seed);
  // A filter that matches nothing must not loop for ever.
  for (std::uint64_t tries = 0; static_cast<int>(tasks.size()) < count && tries < 400'000'000; ++tries) {
    const int n = counts[rng() % counts.size()];
    std::discrete_distribution<std::size_t> pick(sizes[n].begin(), sizes[n].end());
    const egdb::SliceIndex index(slices[n][pick(rng)], db.variant());
    const std::optional<Position> p =
        index.position_of(rng() % index.size(), rng() % 2 ? Color::White : Color::Black);
    if (!p || has_capture(*p)) continue;
    const std::optional<egdb::Value> v = db.probe(*p);
    if (!v || v->wdl != egdb::Wdl::Win) continue;
    const std::string group = material_group(*p);
    if (!group_filter.empty() && group != group_filter) continue;
    const std::optional<bool> inside = egdb::wins_inside_laws(db, *p, rules);
    drawn.undecided += !inside;
    if (!inside.value_or(false)) continue;
    tasks.push_back(Task{*p, group, v->plies});
  }
  return drawn;
}

Outcome play_out(const Task& task, Engine& winner, Engine& defender, const SearchLimits& limits,
                 DrawRules rules) {
  constexpr int kMaxPlies = 400;  // adjudicated a draw (the laws end king endings long before)
  Game game(task.start, rules);
  winner.new_game();
  defender.new_game();
  while (!game.over() && static_cast<int>(game.moves().size()) < kMaxPlies) {
    Engine& e = game.current().side_to_move() == task.start.side_to_move() ? winner : defender;
    if (Status s = e.set_position(game.start(), game.moves()); !s) return {false, s.error(), 0};
    const SearchResult r = e.search(limits);
    if (Status s = game.play(r.best); !s) return {false, "illegal move: " + s.error(), 0};
  }
  const GameResult want =
      task.start.side_to_move() == Color::White ? GameResult::WhiteWins : GameResult::BlackWins;
  const auto plies = static_cast<int>(game.moves().size());
  if (!game.over()) return {false, "no end after " + std::to_string(kMaxPlies) + " plies", plies};
  return {game.result() == want, game.end_description(), plies};
}

}  // namespace

int egdb_convert_main(const Args& args) {
  po::options_description desc(
      "damas egdb convert [--dir D] [--pieces N] [--from-pieces M] [--games G] [--seed S] [--group G]\n"
      "                   [--positions F] [--save F] (--depth P | --movetime S) [--draw-rules R]\n"
      "                   [--engine \"opts\"] [--defender \"opts\"] [--concurrency K] [--variant V]");
  desc.add_options()("help,h", "show this help")(
      "dir", po::value<std::string>()->default_value(""),
      "databases the positions are drawn from (default: those the engine finds, egdb-path=auto)")(
      "pieces", po::value<int>()->default_value(5), "most pieces of the start positions")(
      "from-pieces", po::value<int>()->default_value(0),
      "fewest pieces (default: --pieces); each piece count is drawn equally often")(
      "games", po::value<int>()->default_value(100), "number of positions played out")(
      "seed", po::value<std::uint64_t>()->default_value(1), "random seed of the positions")(
      "group", po::value<std::string>()->default_value(""),
      "only this material group, e.g. \"KKK v K, off the long diagonal\" (the winner's pieces first)")(
      "positions", po::value<std::string>(),
      "play these positions (FEN | group lines) instead of drawing them")(
      "save", po::value<std::string>(), "write the positions played (FEN | group, win in N)")(
      "depth", po::value<int>(), "search depth per move")("movetime", po::value<double>(),
                                                          "seconds per move")(
      "draw-rules", po::value<std::string>()->default_value("game"),
      "the referee's draw laws and the engines' (game: the game's own; seed, fmjd64 or portuguese); "
      "positions are won inside them")("engine", po::value<std::string>()->default_value(""),
                                       "options of both engines (name=value ...), e.g. \"egdb-path=none\"")(
      "defender", po::value<std::string>()->default_value(""),
      "options of the losing side's engine, after --engine")(
      "concurrency", po::value<int>()->default_value(1), "games played at once");
  add_variant_option(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("egdb convert", args, desc, vm))
    return *exit_code;
  const auto fail = [](const std::string& message, int code) {
    std::cerr << "damas egdb convert: " << message << "\n";
    return code;
  };
  if (Status s = check_output_option(vm, "save", "positions file"); !s) return fail(s.error(), 2);
  const Expected<Variant> variant = variant_option(vm);
  if (!variant) return fail(variant.error(), 2);
  const std::optional<DrawRules> rules = parse_draw_rules(vm["draw-rules"].as<std::string>(), *variant);
  if (!rules) return fail("--draw-rules takes one of: " + find_option(option::kDrawRules)->values_text(), 2);
  SearchLimits limits;
  if (vm.count("depth")) limits.depth = std::clamp(vm["depth"].as<int>(), 1, 100);
  if (vm.count("movetime")) {
    const double t = vm["movetime"].as<double>();
    if (!(t > 0 && t <= 3600)) return fail("--movetime must be between 0 and 3600 seconds", 2);
    limits.move_time = t;
  }
  if (!limits.depth && !limits.move_time) limits.depth = 4;
  const Expected<OptionList> both = parse_option_list(vm["engine"].as<std::string>());
  if (!both) return fail("--engine: " + both.error(), 2);
  const Expected<OptionList> defender_only = parse_option_list(vm["defender"].as<std::string>());
  if (!defender_only) return fail("--defender: " + defender_only.error(), 2);
  OptionList defender = *both;
  defender.insert(defender.end(), defender_only->begin(), defender_only->end());
  const int concurrency = vm["concurrency"].as<int>();
  if (concurrency < 1 || concurrency > 64) return fail("--concurrency must be between 1 and 64", 2);

  std::vector<Task> tasks;
  if (vm.count("positions")) {
    Expected<std::vector<Opening>> list =
        load_openings(vm["positions"].as<std::string>(), OpeningFormat::Fen, *variant);
    if (!list) return fail(list.error(), 2);
    for (const Opening& o : *list) tasks.push_back(task_of_saved_line(o));
  } else {
    const int pieces = vm["pieces"].as<int>();
    const int from = vm["from-pieces"].as<int>() ? vm["from-pieces"].as<int>() : pieces;
    if (from < 3 || pieces > 8 || from > pieces)
      return fail("pieces must satisfy 3 <= --from-pieces <= --pieces <= 8", 2);
    std::string dir = vm["dir"].as<std::string>();
    if (dir.empty()) dir = egdb::find_databases(egdb::Places::of_process(), pieces, *variant).dir;
    if (dir.empty())
      return fail("no endgame databases found (give --dir, or build them: damas egdb build)", 1);
    const auto db = egdb::Database::open(dir, pieces);
    if (!db || (*db)->max_pieces() < pieces)
      return fail(db ? dir + " does not hold " + std::to_string(pieces) + " pieces" : db.error(), 1);
    if ((*db)->variant() != *variant)
      return fail(dir + " holds " + std::string(to_string((*db)->variant())) + " databases, not " +
                      std::string(to_string(*variant)) + " (--variant)",
                  1);
    Sample drawn = sample(**db, from, pieces, vm["games"].as<int>(), vm["seed"].as<std::uint64_t>(), *rules,
                          vm["group"].as<std::string>());
    if (drawn.undecided)
      std::printf("left out %llu database wins whose law check passed its node budget (the longest trees)\n",
                  static_cast<unsigned long long>(drawn.undecided));
    tasks = std::move(drawn.tasks);
    if (tasks.empty()) return fail("no position of that kind is won inside the laws", 1);
  }
  if (vm.count("save")) {
    std::ofstream out(vm["save"].as<std::string>());
    for (const Task& t : tasks) out << to_fen(t.start) << " | " << saved_name(t) << "\n";
    if (!out) return fail("cannot write " + vm["save"].as<std::string>(), 1);
  }

  // Workers with their own pair of engines take the next position; lines print as games end.
  std::vector<Outcome> outcomes(tasks.size());
  std::atomic<std::size_t> next{0};
  std::mutex print;
  std::size_t finished = 0;
  std::string setup_error;
  ProgressLine line(stderr, platform::is_terminal(stderr));
  const auto work = [&] {
    Engine winner, loser;
    if (Status s = configure_in_process_engine(winner, *both, *rules, *variant); !s) {
      const std::lock_guard lock(print);
      setup_error = "--engine: " + s.error();
      return;
    }
    if (Status s = configure_in_process_engine(loser, defender, *rules, *variant); !s) {
      const std::lock_guard lock(print);
      setup_error = "--defender: " + s.error();
      return;
    }
    for (std::size_t i = next++; i < tasks.size(); i = next++) {
      outcomes[i] = play_out(tasks[i], winner, loser, limits, *rules);
      const std::lock_guard lock(print);
      ++finished;
      if (!outcomes[i].converted && line.terminal())
        line.message("NOT CONVERTED: " + to_fen(tasks[i].start) + " (" + saved_name(tasks[i]) +
                     "): " + outcomes[i].end + " after " + std::to_string(outcomes[i].plies) + " plies");
      line.draw(std::to_string(finished) + "/" + std::to_string(tasks.size()) + " games " +
                bar_text(finished, tasks.size()));
    }
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < concurrency; ++t) workers.emplace_back(work);
  for (std::thread& t : workers) t.join();
  line.clear();
  if (!setup_error.empty()) return fail(setup_error, 2);
  if (!line.terminal())
    for (std::size_t i = 0; i < tasks.size(); ++i)
      if (!outcomes[i].converted)
        std::printf("NOT CONVERTED: %s (%s): %s after %d plies\n", to_fen(tasks[i].start).c_str(),
                    tasks[i].group.c_str(), outcomes[i].end.c_str(), outcomes[i].plies);

  std::map<std::string, std::pair<int, int>> groups;  // converted, played
  int won = 0;
  long long plies = 0;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    auto& [ok, all] = groups[tasks[i].group];
    ok += outcomes[i].converted;
    ++all;
    won += outcomes[i].converted;
    plies += outcomes[i].plies;
  }
  std::printf("%-44s %9s %7s\n", "material (winner v loser)", "converted", "rate");
  for (const auto& [group, counts] : groups)
    std::printf("%-44s %4d/%-4d %6.1f%%\n", group.c_str(), counts.first, counts.second,
                100.0 * counts.first / counts.second);
  std::printf("converted %d of %zu positions won inside the %s laws (mean %.1f plies)\n", won, tasks.size(),
              to_string(*rules).data(),
              tasks.empty() ? 0.0 : static_cast<double>(plies) / static_cast<double>(tasks.size()));
  return won == static_cast<int>(tasks.size()) ? 0 : 1;
}

// The training data of the lone-king ending network (eval/endgame.h): every position of the
// slices where one side has a lone king and the other two or more pieces with a king (the
// database's own colours; the network sees the side to move), no capture pending, scored by its
// database value: a win in d plies kEndingWin - kEndingPerPly * d (at least kEndingWinFloor),
// a draw 0, a loss the negative.
int egdb_ending_data_main(const Args& args) {
  po::options_description desc(
      "damas egdb ending-data --out F [--dir D] [--pieces N] [--per-slice K] [--seed S]");
  desc.add_options()("help,h", "show this help")("out,o", po::value<std::string>()->required(),
                                                 "training-data file to write (core/training_data.h)")(
      "dir", po::value<std::string>()->default_value(""), "databases (default: those the engine finds)")(
      "pieces", po::value<int>()->default_value(5), "slices up to this many pieces")(
      "per-slice", po::value<std::uint64_t>()->default_value(400000),
      "at most this many positions of one slice and side to move (a random choice)")(
      "seed", po::value<std::uint64_t>()->default_value(1), "random seed of the choice and the order")(
      "weight", po::value<std::vector<std::string>>()->composing(),
      "SLICE=K: every position of that slice, K times (e.g. wm0wk3bm0bk1=3: the ending that needs it)");
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("egdb ending-data", args, desc, vm))
    return *exit_code;
  std::map<std::string, int> weights;
  if (vm.count("weight"))
    for (const std::string& w : vm["weight"].as<std::vector<std::string>>()) {
      const std::size_t eq = w.find('=');
      const int k = eq == std::string::npos ? 0 : std::atoi(w.c_str() + eq + 1);
      if (k < 1 || k > 100) {
        std::cerr << "damas egdb ending-data: --weight takes SLICE=K with K in 1..100, not " << w << "\n";
        return 2;
      }
      weights[w.substr(0, eq)] = k;
    }
  constexpr Score kEndingWin = 1000, kEndingPerPly = 15, kEndingWinFloor = 200;
  const int pieces = vm["pieces"].as<int>();
  std::string dir = vm["dir"].as<std::string>();
  if (dir.empty()) dir = egdb::find_databases(egdb::Places::of_process(), pieces).dir;
  const auto db = egdb::Database::open(dir.empty() ? "." : dir, pieces);
  if (!db) {
    std::cerr << "damas egdb ending-data: " << db.error() << "\n";
    return 1;
  }
  if ((*db)->variant() != Variant::Brazilian) {  // the ending net is the Brazilian evaluation's
    std::cerr << "damas egdb ending-data: " << dir << " holds " << to_string((*db)->variant())
              << " databases, not brazilian\n";
    return 1;
  }
  std::mt19937_64 rng(vm["seed"].as<std::uint64_t>());
  const std::uint64_t per_slice = vm["per-slice"].as<std::uint64_t>();
  std::vector<TrainingRecord> records;
  for (const auto& [m, file] : (*db)->slices()) {
    // White strong, Black a lone king: the other colouring is the same positions rotated.
    if (m.bm != 0 || m.bk != 1 || m.wk < 1 || m.wm + m.wk < 2) continue;
    const egdb::SliceIndex index(m);
    for (Color stm : {Color::White, Color::Black}) {
      std::vector<TrainingRecord> slice;
      for (std::uint64_t i = 0; i < index.size(); ++i) {
        const std::optional<Position> p = index.position_of(i, stm);
        if (!p || has_capture(*p)) continue;
        const std::optional<egdb::Value> v = (*db)->probe(*p);
        if (!v) continue;
        const Score win = std::max(kEndingWinFloor, kEndingWin - kEndingPerPly * v->plies);
        TrainingRecord r;
        r.position = *p;
        r.score = v->wdl == egdb::Wdl::Win ? win : v->wdl == egdb::Wdl::Loss ? -win : 0;
        const bool white_wins = (v->wdl == egdb::Wdl::Win) == (stm == Color::White);
        r.result = v->wdl == egdb::Wdl::Draw ? GameResult::Draw
                   : white_wins              ? GameResult::WhiteWins
                                             : GameResult::BlackWins;
        slice.push_back(r);
      }
      std::shuffle(slice.begin(), slice.end(), rng);
      const auto weight = weights.find(egdb::slice_name(m));
      if (weight == weights.end() && slice.size() > per_slice) slice.resize(per_slice);
      const std::vector<TrainingRecord> once = slice;
      for (int k = 1; weight != weights.end() && k < weight->second; ++k)
        slice.insert(slice.end(), once.begin(), once.end());
      std::printf("%s %s to move: %zu positions\n", egdb::slice_name(m).c_str(),
                  stm == Color::White ? "White" : "Black", slice.size());
      records.insert(records.end(), slice.begin(), slice.end());
    }
  }
  // The trainer keeps the last tenth of the "games" for validation: a random order and a game
  // every 100 records make that a random tenth.
  std::shuffle(records.begin(), records.end(), rng);
  Expected<TrainingDataWriter> created = TrainingDataWriter::create(vm["out"].as<std::string>());
  if (!created) {
    std::cerr << "damas egdb ending-data: " << created.error() << "\n";
    return 1;
  }
  TrainingDataWriter out = std::move(created).value();
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i].first_of_game = i % 100 == 0;
    if (Status s = out.write(records[i]); !s) {
      std::cerr << "damas egdb ending-data: " << s.error() << "\n";
      return 1;
    }
  }
  if (Status s = out.finish(); !s) {
    std::cerr << "damas egdb ending-data: " << s.error() << "\n";
    return 1;
  }
  std::printf("wrote %zu positions to %s\n", records.size(), vm["out"].as<std::string>().c_str());
  return 0;
}

}  // namespace damas::cli
