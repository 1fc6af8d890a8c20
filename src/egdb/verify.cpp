// verify: every stored value must be what the values after each legal move make of it, and the
// counts in each header must match the values.
#include <mutex>
#include <thread>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/egdb/egdb.h"
#include "solved.h"

namespace damas::egdb {
namespace {

std::string describe(Code c) {
  const Value v = value_of(c);
  if (v.wdl == Wdl::Draw) return "draw";
  return (v.wdl == Wdl::Win ? "win in " : "loss in ") + std::to_string(v.plies);
}

struct Mismatch {
  std::uint64_t number = 0;
  std::string text;
};

// The first position of [first, last) whose stored code disagrees with its children.
std::optional<Mismatch> check_range(const SliceIndex& index, const std::vector<Code>& codes,
                                    const SolvedSlices& solved, std::uint64_t first, std::uint64_t last,
                                    std::array<SideStats, 2>& stats) {
  MoveList moves;
  for (std::uint64_t i = first; i < last; ++i) {
    const Color stm = index.side_at(i);
    const std::optional<Position> p = index.position_at(i);
    if (!p) continue;
    generate_legal_moves(*p, moves);
    ValueFold fold;
    for (const Move& m : moves) fold.add_child(solved.lookup(p->after(m)));
    const Code want = fold.result();
    if (want != codes[i])
      return Mismatch{i, "position " + to_fen(*p) + " (number " + std::to_string(i % index.size()) +
                             "): stored " + describe(codes[i]) + ", its moves give " + describe(want)};
    count_value(stats[damas::index(stm)], want);
  }
  return std::nullopt;
}

}  // namespace

Expected<std::uint64_t> verify(const std::string& dir, int pieces, int threads) {
  const Expected<Variant> variant = variant_of_dir(dir);
  if (!variant) return Error{variant.error()};
  SolvedSlices solved;
  std::uint64_t checked = 0;
  const std::vector<Material> slices = slices_up_to(pieces);
  for (const Material& m : slices) {
    const std::string path = slice_path(dir, m);
    Expected<SliceFile> file = SliceFile::read_slice(dir, m, *variant);
    if (!file) return Error{file.error()};
    // Positions with a capture pending are not stored: they are rebuilt from smaller slices.
    std::vector<Code> codes = restore_captures(m, *variant, file->decode_all(), solved, threads);
    solved.add(m, codes);  // its own quiet moves lead back into it
    const SliceIndex index(m, *variant);
    const std::uint64_t total = 2 * index.size();
    const auto n = static_cast<std::uint64_t>(std::max(1, threads));
    std::vector<std::optional<Mismatch>> found(n);
    std::vector<std::array<SideStats, 2>> stats(n);
    std::vector<std::thread> pool;
    for (std::uint64_t t = 0; t < n; ++t)
      pool.emplace_back([&, t] {
        found[t] = check_range(index, codes, solved, total * t / n, total * (t + 1) / n, stats[t]);
      });
    for (std::thread& t : pool) t.join();
    for (const std::optional<Mismatch>& f : found)
      if (f) return Error{path + ": slice " + slice_name(m) + ": " + f->text};
    for (std::size_t side = 0; side < 2; ++side) {
      SideStats sum;
      for (const auto& s : stats) {
        sum.positions += s[side].positions;
        sum.win += s[side].win;
        sum.draw += s[side].draw;
        sum.loss += s[side].loss;
        sum.longest = std::max(sum.longest, s[side].longest);
      }
      const SideStats& h = file->stats()[side];
      if (sum.positions != h.positions || sum.win != h.win || sum.draw != h.draw || sum.loss != h.loss ||
          sum.longest != h.longest)
        return Error{path + ": slice " + slice_name(m) + ": header counts differ from the values"};
      checked += sum.positions;
    }
  }
  return checked;
}

}  // namespace damas::egdb
