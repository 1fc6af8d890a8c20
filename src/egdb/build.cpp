// Building the slices: for each slice, one parallel pass settles the moves that leave it
// (captures and crownings, looked up in slices already solved), then the values spread
// backwards level by level along the quiet moves inside the slice (retrograde analysis).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <thread>

#include "damas/core/movegen.h"
#include "damas/egdb/egdb.h"
#include "solve.h"

namespace damas::egdb {
namespace {

using Clock = std::chrono::steady_clock;

// The first pass over [first, last) into out: moves counted inside the slice, moves leaving it folded.
void scan_range(const SliceIndex& index, const SolvedSlices& solved, std::uint64_t first, std::uint64_t last,
                const ScanOut& out, Buckets& buckets, std::atomic<std::uint64_t>& done) {
  MoveList moves;
  for (std::uint64_t i = first; i < last; ++i) {
    if ((i & 0xFFFF) == 0)
      done.fetch_add(std::min<std::uint64_t>(0x10000, last - i), std::memory_order_relaxed);
    const std::optional<Position> p = index.position_at(i);
    if (!p) continue;
    const std::uint64_t o = i - out.first;
    generate_legal_moves(*p, moves);
    out.flags[o] = !moves.empty() && moves[0].is_capture() ? kValid | kCapture : kValid;
    int inside = 0;
    int win = -1, loss = -1;
    bool draw = false;
    for (const Move& m : moves) {
      if (!leaves_slice(*p, m)) {
        ++inside;
        continue;
      }
      const Code c = solved.lookup(p->after(m));
      if (c == kDrawCode) {
        draw = true;
      } else if ((c - 1) % 2 == 0) {
        if (win < 0 || c < win) win = c;  // child lost in c-1: we win in c
      } else {
        loss = std::max(loss, static_cast<int>(c));
      }
    }
    out.count[o] = static_cast<std::uint8_t>(inside);
    if (win >= 0) buckets[static_cast<std::size_t>(win)].push_back(static_cast<std::uint32_t>(i));
    if (win >= 0 || draw) {
      if (inside == 0 && win < 0) out.flags[o] |= kResolved;  // a draw: nothing to learn
      continue;
    }
    if (inside == 0) {
      buckets[static_cast<std::size_t>(std::max(loss, 0))].push_back(static_cast<std::uint32_t>(i));
    } else {
      out.flags[o] |= kLossPossible;
      out.ext_loss[o] = static_cast<std::uint8_t>(std::max(loss, 0));
    }
  }
}

// scan() with a call of tick() every 200 ms while the threads run.
void scan_ticking(const SliceIndex& index, const SolvedSlices& solved, const ScanOut& out, int threads,
                  std::atomic<std::uint64_t>& done, const std::function<void()>& tick) {
  const auto n = static_cast<std::uint64_t>(std::max(1, threads));
  const std::uint64_t total = out.flags.size();
  std::vector<Buckets> local(n, Buckets(kLevels));
  std::atomic<std::uint64_t> running{n};
  std::vector<std::thread> pool;
  for (std::uint64_t t = 0; t < n; ++t)
    pool.emplace_back([&, t] {
      scan_range(index, solved, out.first + total * t / n, out.first + total * (t + 1) / n, out, local[t],
                 done);
      running.fetch_sub(1);
    });
  for (int k = 0; running.load() > 0; ++k) {
    if (tick && k % 20 == 0) tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (std::thread& t : pool) t.join();
  for (Buckets& l : local)
    for (std::size_t d = 0; d < kLevels; ++d)
      out.buckets[d].insert(out.buckets[d].end(), l[d].begin(), l[d].end());
}

}  // namespace

void scan(const SliceIndex& index, const SolvedSlices& solved, ScanOut out, int threads,
          std::atomic<std::uint64_t>& done) {
  scan_ticking(index, solved, out, threads, done, {});
}

namespace {

// Positions one quiet, in-slice move before p (the opponent of p's side to move made it),
// where that move was legal (no capture was pending).
template <typename F>
void for_each_predecessor(const Position& p, F&& visit) {
  const Color mover = ~p.side_to_move();
  const Bitboard empty = p.empty();
  const Bitboard own = p.pieces(mover);
  const auto emit = [&](Bitboard from, Bitboard to, bool king) {
    const Bitboard kings = king ? (p.kings() & ~from) | to : p.kings();
    const Bitboard moved = (own & ~from) | to;
    const Position q =
        (mover == Color::White ? Position::from_pieces(moved, p.pieces(Color::Black), kings, mover)
                               : Position::from_pieces(p.pieces(Color::White), moved, kings, mover))
            .with_variant(p.variant());
    if (!has_capture(q)) visit(q);
  };
  for (Bitboard b = p.kings(mover); b;) {
    const Bitboard from = bb(pop_lowest(b));
    for (Direction d : kDirections)
      for (Bitboard t = step(from, d) & empty; t; t = step(t, d) & empty) emit(from, t, true);
  }
  const std::array<Direction, 2> back =
      mover == Color::White ? std::array<Direction, 2>{Direction::DownLeft, Direction::DownRight}
                            : std::array<Direction, 2>{Direction::UpLeft, Direction::UpRight};
  for (Bitboard b = p.men(mover); b;) {
    const Bitboard from = bb(pop_lowest(b));
    for (Direction d : back)
      if (const Bitboard t = step(from, d) & empty) emit(from, t, false);
  }
}

}  // namespace

Status propagate(Work& w) {
  std::vector<std::uint32_t> frontier, next;
  for (int level = 0; level < kLevels; ++level) {
    next.clear();
    const auto settle = [&](std::uint32_t i, int l) {
      w.code[i] = static_cast<Code>(l + 1);
      w.flags[i] |= kResolved;
      next.push_back(i);
    };
    if (level > kMaxDistance && (!frontier.empty() || !w.buckets[static_cast<std::size_t>(level)].empty()))
      return Error{"a distance beyond " + std::to_string(kMaxDistance) + " plies"};
    for (std::uint32_t i : w.buckets[static_cast<std::size_t>(level)])
      if (!(w.flags[i] & kResolved)) settle(i, level);
    std::vector<std::uint32_t>().swap(w.buckets[static_cast<std::size_t>(level)]);
    const bool child_lost = (level - 1) % 2 == 0;
    for (std::uint32_t pi : frontier) {
      const std::optional<Position> p = w.position(pi);
      for_each_predecessor(*p, [&](const Position& q) {
        const auto qi = static_cast<std::uint32_t>(w.number(q));
        if (w.flags[qi] & kResolved) return;
        if (child_lost) {
          settle(qi, level);
        } else if (--w.count[qi] == 0 && (w.flags[qi] & kLossPossible)) {
          const int d = std::max(level, static_cast<int>(w.ext_loss[qi]));
          if (d == level) settle(qi, level);
          else if (d < kLevels) w.buckets[static_cast<std::size_t>(d)].push_back(qi);
        }
      });
    }
    frontier.swap(next);
    if (frontier.empty() &&
        std::all_of(w.buckets.begin() + level + 1, w.buckets.end(), [](const auto& b) { return b.empty(); }))
      break;
  }
  return Ok{};
}

namespace {

std::array<SideStats, 2> statistics(const Work& w) {
  std::array<SideStats, 2> s{};
  for (std::uint64_t i = 0; i < 2 * w.size; ++i) {
    if (!(w.flags[i] & kValid)) continue;
    count_value(s[index(w.side(i))], w.code[i]);
  }
  return s;
}

struct SliceRun {
  const BuildOptions& options;
  BuildProgress progress;
  Clock::time_point start;
  void report(std::uint64_t done) {
    if (!options.on_progress) return;
    progress.done = done;
    progress.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    options.on_progress(progress);
  }
};

Expected<std::vector<Code>> solve(const Material& m, const SolvedSlices& solved, SliceRun& run,
                                  SliceFile& file) {
  Work w(m, run.options.variant);
  const std::uint64_t total = 2 * w.size;
  std::atomic<std::uint64_t> done{0};
  scan_ticking(w.index, solved, ScanOut{0, w.flags, w.count, w.ext_loss, w.buckets}, run.options.threads,
               done, [&] { run.report(done.load(std::memory_order_relaxed) / 2); });
  run.report(total / 2);
  if (Status s = propagate(w); !s) return Error{slice_name(m) + ": " + s.error()};
  file = slice_file_of(w);
  return std::move(w.code);
}

}  // namespace

SliceFile slice_file_of(const Work& w) {
  // Numbers of no position, and positions with a capture pending (a probe resolves those from
  // the slices after the capture), are stored as the code before them: longer runs.
  std::vector<Code> stored = w.code;
  for (std::uint64_t i = 1; i < stored.size(); ++i)
    if ((w.flags[i] & (kValid | kCapture)) != kValid) stored[i] = stored[i - 1];
  return SliceFile::from_codes(w.index.material(), w.index.variant(), stored, statistics(w));
}

Status check_variant_of_dir(const std::string& dir, Variant variant) {
  const Expected<Variant> held = variant_of_dir(dir);
  if (held && *held != variant)
    return Error{dir + " holds " + std::string(to_string(*held)) + " databases: build the " +
                 std::string(to_string(variant)) + " ones into another directory"};
  return Ok{};  // no sound file: nothing to keep
}

std::vector<Code> restore_captures(const Material& m, Variant variant, std::vector<Code> codes,
                                   const SolvedSlices& solved, int threads) {
  const SliceIndex index(m, variant);
  const std::uint64_t total = 2 * index.size();
  const auto n = static_cast<std::uint64_t>(std::max(1, threads));
  std::vector<std::thread> pool;
  for (std::uint64_t t = 0; t < n; ++t)
    pool.emplace_back([&, t] {
      MoveList moves;
      for (std::uint64_t i = total * t / n; i < total * (t + 1) / n; ++i) {
        const std::optional<Position> p = index.position_at(i);
        if (!p || !has_capture(*p)) continue;
        generate_legal_moves(*p, moves);
        ValueFold fold;
        for (const Move& mv : moves) fold.add_child(solved.lookup(p->after(mv)));
        codes[i] = fold.result();
      }
    });
  for (std::thread& t : pool) t.join();
  return codes;
}

std::string memory_text(std::uint64_t bytes) {
  constexpr double kMiB = 1024.0 * 1024;
  char text[32];
  if (bytes < (std::uint64_t{1} << 30))
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / kMiB);
  else std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1024 * kMiB));
  return text;
}

std::uint64_t build_memory_bytes(int pieces) {
  constexpr std::uint64_t kWorkBytesPerNumber = 8;
  std::uint64_t all = 0, largest = 0;
  for (const Material& m : slices_up_to(pieces)) {
    const std::uint64_t numbers = 2 * SliceIndex(m).size();
    all += numbers;
    largest = std::max(largest, numbers);
  }
  return all + kWorkBytesPerNumber * largest;
}

Status check_build_memory(int pieces, std::uint64_t physical_bytes) {
  const std::uint64_t needed = build_memory_bytes(pieces);
  if (physical_bytes == 0 || needed <= physical_bytes) return Ok{};
  return Error{"a build up to " + std::to_string(pieces) + " pieces needs about " + memory_text(needed) +
               " of memory and this machine has " + memory_text(physical_bytes) +
               ": build fewer pieces here, or on a larger machine (or a cluster, --mpi)"};
}

Expected<BuildReport> build(const BuildOptions& options) {
  if (options.pieces < 2 || options.pieces > 8) return Error{"pieces must be between 2 and 8"};
  std::error_code ec;
  std::filesystem::create_directories(options.dir, ec);
  if (ec) return Error{options.dir + ": cannot create directory: " + ec.message()};
  if (Status s = check_variant_of_dir(options.dir, options.variant); !s) return Error{s.error()};
  const std::vector<Material> slices = slices_up_to(options.pieces);
  SolvedSlices solved;
  BuildReport report;
  SliceRun run{options, {}, Clock::now()};
  run.progress.slice_count = static_cast<int>(slices.size());
  for (const Material& m : slices) run.progress.all_total += 2 * SliceIndex(m).size();
  for (std::size_t k = 0; k < slices.size(); ++k) {
    const Material& m = slices[k];
    const std::string path = slice_path(options.dir, m);
    run.progress.slice = m;
    run.progress.slice_number = static_cast<int>(k) + 1;
    run.progress.total = 2 * SliceIndex(m).size();
    // Resume: a sound file is kept.
    if (Expected<SliceFile> f = SliceFile::read_slice(options.dir, m, options.variant)) {
      solved.add(m, restore_captures(m, options.variant, f->decode_all(), solved, options.threads));
      report.bytes += f->bytes();
      ++report.slices_reused;
      run.progress.all_done += run.progress.total;
      continue;
    }
    if (options.max_new_slices && report.slices_computed >= options.max_new_slices) return report;
    if (Status s = check_slice_size(m); !s) return Error{s.error()};
    SliceFile file;
    Expected<std::vector<Code>> codes = solve(m, solved, run, file);
    if (!codes) return Error{codes.error()};
    if (Status s = file.write(path); !s) return Error{s.error()};
    report.bytes += file.bytes();
    report.positions += file.stats()[0].positions + file.stats()[1].positions;
    ++report.slices_computed;
    solved.add(m, std::move(codes).value());
    run.progress.all_done += run.progress.total;
    run.report(run.progress.total);
  }
  return report;
}

}  // namespace damas::egdb
