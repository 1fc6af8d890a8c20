// The cluster build (cluster.h): the steps of the single-process build (solve.h) spread over
// the ranks, one wave of independent slices at a time.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>

#include "damas/core/binary_io.h"
#include "damas/core/platform.h"
#include "damas/egdb/cluster.h"
#include "solve.h"

namespace damas::egdb {

std::vector<Material> dependencies(const Material& m) {
  std::vector<Material> out;
  const auto add = [&](const Material& c) {
    if (c.wm + c.wk > 0 && c.bm + c.bk > 0 && std::find(out.begin(), out.end(), c) == out.end())
      out.push_back(c);
  };
  if (m.wm > 0) add({m.wm - 1, m.wk + 1, m.bm, m.bk});  // a white man crowns
  if (m.bm > 0) add({m.wm, m.wk, m.bm - 1, m.bk + 1});
  // A capture takes some of the opponent's men and kings; the capturing man may crown.
  for (int men = 0; men <= m.bm; ++men)
    for (int kings = 0; kings <= m.bk; ++kings) {
      if (men + kings == 0) continue;
      add({m.wm, m.wk, m.bm - men, m.bk - kings});
      if (m.wm > 0) add({m.wm - 1, m.wk + 1, m.bm - men, m.bk - kings});
    }
  for (int men = 0; men <= m.wm; ++men)
    for (int kings = 0; kings <= m.wk; ++kings) {
      if (men + kings == 0) continue;
      add({m.wm - men, m.wk - kings, m.bm, m.bk});
      if (m.bm > 0) add({m.wm - men, m.wk - kings, m.bm - 1, m.bk + 1});
    }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::vector<Material>> build_waves(int pieces) {
  std::map<Material, std::size_t> wave_of;
  std::vector<std::vector<Material>> waves;
  for (const Material& m : slices_up_to(pieces)) {
    std::size_t w = 0;
    for (const Material& d : dependencies(m)) w = std::max(w, wave_of.at(d) + 1);  // d comes earlier
    wave_of[m] = w;
    if (waves.size() <= w) waves.resize(w + 1);
    waves[w].push_back(m);
  }
  return waves;
}

namespace {

using Clock = std::chrono::steady_clock;

// Messages between ranks of one binary on one architecture: arrays are copied as they are.
void put_raw(Bytes& out, const void* data, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  if (n) std::memcpy(out.data() + at, data, n);
}
struct Reader {
  const Bytes& in;
  std::size_t at = 0;
  std::uint64_t u64() {
    const std::uint64_t v = get_le(in.data() + at, 8);
    at += 8;
    return v;
  }
  void raw(void* data, std::size_t n) {
    if (n) std::memcpy(data, in.data() + at, n);
    at += n;
  }
};

// The first pass over numbers [first, first + flags.size()) of one slice, done by one rank.
struct Chunk {
  std::uint64_t first = 0;
  std::vector<std::uint8_t> flags, count, ext_loss;
  Buckets buckets = Buckets(kLevels);
};

Bytes serialize(const Chunk& c) {
  Bytes out;
  append_le(out, c.first, 8);
  append_le(out, c.flags.size(), 8);
  put_raw(out, c.flags.data(), c.flags.size());
  put_raw(out, c.count.data(), c.count.size());
  put_raw(out, c.ext_loss.data(), c.ext_loss.size());
  for (const auto& b : c.buckets) {
    append_le(out, b.size(), 8);
    put_raw(out, b.data(), b.size() * sizeof(std::uint32_t));
  }
  return out;
}

// Copies a chunk (or its message) into the slice's working state.
void merge(Work& w, const Chunk& c) {
  std::copy(c.flags.begin(), c.flags.end(), w.flags.begin() + static_cast<std::ptrdiff_t>(c.first));
  std::copy(c.count.begin(), c.count.end(), w.count.begin() + static_cast<std::ptrdiff_t>(c.first));
  std::copy(c.ext_loss.begin(), c.ext_loss.end(), w.ext_loss.begin() + static_cast<std::ptrdiff_t>(c.first));
  for (std::size_t d = 0; d < kLevels; ++d)
    w.buckets[d].insert(w.buckets[d].end(), c.buckets[d].begin(), c.buckets[d].end());
}
void merge(Work& w, const Bytes& message) {
  Reader r{message};
  const std::uint64_t first = r.u64(), n = r.u64();
  r.raw(w.flags.data() + first, n);
  r.raw(w.count.data() + first, n);
  r.raw(w.ext_loss.data() + first, n);
  for (auto& b : w.buckets) {
    const std::size_t old = b.size();
    b.resize(old + r.u64());
    r.raw(b.data() + old, (b.size() - old) * sizeof(std::uint32_t));
  }
}

// What a slice's owner sends every rank: its codes (pending captures included) or an error.
Bytes result_message(const Expected<std::vector<Code>>& codes, std::uint64_t file_bytes,
                     std::uint64_t positions) {
  Bytes out;
  out.push_back(codes ? 1 : 0);
  if (!codes) {
    put_raw(out, codes.error().data(), codes.error().size());
    return out;
  }
  append_le(out, file_bytes, 8);
  append_le(out, positions, 8);
  put_raw(out, codes->data(), codes->size());
  return out;
}

Bytes status_message(const Status& s) {
  Bytes out{static_cast<std::uint8_t>(s ? 1 : 0)};
  if (!s) put_raw(out, s.error().data(), s.error().size());
  return out;
}
Status status_of(const Bytes& message) {
  if (!message.empty() && message[0] == 1) return Ok{};
  return Error{std::string(message.begin() + (message.empty() ? 0 : 1), message.end())};
}

// One wave as every rank sees it: which slices are computed (the others have sound files),
// who owns each, and which numbers of which slice each rank scans.
struct WavePlan {
  std::vector<Material> slices;
  std::vector<bool> reused;
  std::vector<int> owner;
  std::vector<std::uint64_t> numbers;  // per slice, both sides
  std::vector<std::uint64_t> base;     // of each computed slice in the concatenated numbers
  std::uint64_t scan_total = 0;
  int ranks = 1;

  WavePlan(std::vector<Material> s, std::vector<bool> r, int k)
      : slices(std::move(s)),
        reused(std::move(r)),
        owner(slices.size(), 0),
        base(slices.size(), 0),
        ranks(k) {
    for (const Material& m : slices) numbers.push_back(2 * SliceIndex(m).size());
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < slices.size(); ++i) {
      if (reused[i]) continue;  // rank 0 read its file
      base[i] = scan_total;
      scan_total += numbers[i];
      order.push_back(i);
    }
    // Largest first to the least loaded rank: the owners spread the values and write the files.
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return numbers[a] > numbers[b]; });
    std::vector<std::uint64_t> load(static_cast<std::size_t>(k), 0);
    for (std::size_t i : order) {
      const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
      owner[i] = static_cast<int>(least);
      load[least] += numbers[i];
    }
  }
  // The numbers [first, last) of computed slice i that rank r scans (empty: first == last).
  std::pair<std::uint64_t, std::uint64_t> range(std::size_t i, int r) const {
    const auto k = static_cast<std::uint64_t>(ranks), ur = static_cast<std::uint64_t>(r);
    const std::uint64_t from = scan_total * ur / k, to = scan_total * (ur + 1) / k;
    const std::uint64_t first = std::clamp(from, base[i], base[i] + numbers[i]);
    const std::uint64_t last = std::clamp(to, base[i], base[i] + numbers[i]);
    return {first - base[i], last - base[i]};
  }
};

// CPU time of this process (all its threads).
double cpu_seconds_since(double start) { return platform::process_cpu_seconds() - start; }

class ClusterBuild {
 public:
  ClusterBuild(const BuildOptions& options, Cluster& cluster) : options_(options), cluster_(cluster) {}

  Expected<BuildReport> run() {
    Bytes start;
    if (rank() == 0) {
      std::error_code ec;
      std::filesystem::create_directories(options_.dir, ec);
      start = status_message(ec ? Status{Error{options_.dir + ": cannot create directory: " + ec.message()}}
                                : Status{Ok{}});
    }
    cluster_.broadcast(0, start);
    if (Status s = status_of(start); !s) return Error{s.error()};
    progress_.slice_count = static_cast<int>(slices_up_to(options_.pieces).size());
    for (const Material& m : slices_up_to(options_.pieces)) progress_.all_total += 2 * SliceIndex(m).size();
    const std::vector<std::vector<Material>> waves = build_waves(options_.pieces);
    for (const std::vector<Material>& wave : waves)
      for (const Material& m : wave)
        if (Status s = check_slice_size(m); !s) return Error{s.error()};
    // The last wave that looks a slice up: after it, the slice's codes are dropped.
    for (std::size_t w = 0; w < waves.size(); ++w)
      for (const Material& m : waves[w])
        for (const Material& d : dependencies(m)) last_use_[d] = w;
    for (std::size_t w = 0; w < waves.size(); ++w) {
      if (Status s = run_wave(waves[w]); !s) return Error{s.error()};
      for (const auto& [m, last] : last_use_)
        if (last == w) solved_.remove(m);
    }
    return report_;
  }

 private:
  int rank() const { return cluster_.rank(); }
  std::string path(const Material& m) const { return slice_path(options_.dir, m); }

  // Rank 0 reads the files there are; every rank learns which slices are reused.
  WavePlan plan(const std::vector<Material>& wave) {
    Bytes reused(wave.size(), 0);
    if (rank() == 0) {
      for (std::size_t i = 0; i < wave.size(); ++i) {
        if (Expected<SliceFile> f = SliceFile::read_slice(options_.dir, wave[i], options_.variant)) {
          reused[i] = 1;
          found_.emplace(wave[i], std::move(f).value());
        }
      }
    }
    cluster_.broadcast(0, reused);
    std::vector<bool> r(wave.size());
    for (std::size_t i = 0; i < wave.size(); ++i) r[i] = reused[i] != 0;
    return WavePlan(wave, std::move(r), cluster_.size());
  }

  Status run_wave(const std::vector<Material>& wave) {
    const WavePlan p = plan(wave);
    const std::size_t n = wave.size();
    // The first pass over this rank's numbers.
    std::vector<Chunk> chunks(n);
    const double scan_start = platform::process_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) {
      if (p.reused[i]) continue;
      const auto [first, last] = p.range(i, rank());
      if (first == last) continue;
      Chunk& c = chunks[i];
      c.first = first;
      c.flags.assign(last - first, 0);
      c.count.assign(last - first, 0);
      c.ext_loss.assign(last - first, 0);
      std::atomic<std::uint64_t> done{0};
      scan(SliceIndex(wave[i], options_.variant), solved_,
           ScanOut{first, c.flags, c.count, c.ext_loss, c.buckets}, options_.threads, done);
    }
    report_.scan_cpu_seconds += cpu_seconds_since(scan_start);
    // Each owner gathers the passes over its slices.
    std::map<std::size_t, Work> work;
    for (std::size_t i = 0; i < n; ++i) {
      if (p.reused[i]) continue;
      if (p.owner[i] == rank()) {
        Work& w = work.emplace(i, Work(wave[i], options_.variant)).first->second;
        for (int r = 0; r < cluster_.size(); ++r) {
          const auto [first, last] = p.range(i, r);
          if (first == last) continue;
          if (r == rank()) merge(w, chunks[i]);
          else merge(w, cluster_.receive(r));
        }
      } else if (!chunks[i].flags.empty()) {
        cluster_.send(p.owner[i], serialize(chunks[i]));
      }
      chunks[i] = Chunk{};
    }
    // The owners solve and write; then every rank gets every slice's codes.
    std::map<std::size_t, Bytes> results;
    const double solve_start = platform::process_cpu_seconds();
    for (std::size_t i = 0; i < n; ++i) {
      if (p.owner[i] != rank()) continue;
      results[i] = p.reused[i] ? reuse(wave[i]) : solve(work.at(i));
      work.erase(i);  // only the codes go on
    }
    report_.solve_cpu_seconds += cpu_seconds_since(solve_start);
    Status status = Ok{};
    for (std::size_t i = 0; i < n; ++i) {
      Bytes message = std::move(results[i]);
      cluster_.broadcast(p.owner[i], message);
      if (Status s = accept(wave[i], p.reused[i], message); !s && status) status = s;
    }
    return status;
  }

  Bytes solve(Work& w) {
    const Material m = w.index.material();
    if (Status s = propagate(w); !s) return result_message(Error{slice_name(m) + ": " + s.error()}, 0, 0);
    const SliceFile file = slice_file_of(w);
    if (Status s = file.write(path(m)); !s) return result_message(Error{s.error()}, 0, 0);
    return result_message(std::move(w.code), file.bytes(),
                          file.stats()[0].positions + file.stats()[1].positions);
  }

  Bytes reuse(const Material& m) {
    const auto it = found_.find(m);
    std::vector<Code> codes =
        restore_captures(m, options_.variant, it->second.decode_all(), solved_, options_.threads);
    const Bytes out = result_message(std::move(codes), it->second.bytes(), 0);
    found_.erase(it);
    return out;
  }

  Status accept(const Material& m, bool reused, const Bytes& message) {
    if (message.empty() || message[0] != 1) return status_of(message);
    Reader r{message, 1};
    const std::uint64_t file_bytes = r.u64(), positions = r.u64();
    std::vector<Code> codes(message.size() - r.at);
    r.raw(codes.data(), codes.size());
    progress_.slice = m;
    progress_.total = codes.size();
    if (last_use_.count(m)) solved_.add(m, std::move(codes));  // a later wave looks it up
    report_.bytes += file_bytes;
    report_.positions += positions;
    ++(reused ? report_.slices_reused : report_.slices_computed);
    ++progress_.slice_number;
    progress_.all_done += progress_.total;
    if (rank() == 0 && options_.on_progress) {
      progress_.done = progress_.total;
      progress_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
      options_.on_progress(progress_);
    }
    return Ok{};
  }

  const BuildOptions& options_;
  Cluster& cluster_;
  SolvedSlices solved_;                       // the slices later waves look up
  std::map<Material, std::size_t> last_use_;  // the last wave that looks a slice up
  std::map<Material, SliceFile> found_;       // rank 0: sound files of this wave
  BuildReport report_;
  BuildProgress progress_;
  Clock::time_point start_ = Clock::now();
};

}  // namespace

Expected<BuildReport> build_on_cluster(const BuildOptions& options, Cluster& cluster) {
  if (options.pieces < 2 || options.pieces > 8) return Error{"pieces must be between 2 and 8"};
  if (options.max_new_slices) return Error{"a cluster build has no max_new_slices"};
  if (Status s = check_variant_of_dir(options.dir, options.variant); !s) return Error{s.error()};
  return ClusterBuild(options, cluster).run();
}

}  // namespace damas::egdb
