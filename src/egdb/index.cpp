// Material slices and the numbering of their positions.
#include <algorithm>
#include <array>
#include <bit>
#include <filesystem>

#include "damas/egdb/egdb.h"
#include "squares.h"

namespace damas::egdb {
namespace {

constexpr std::array<std::array<std::uint64_t, 33>, 33> make_binomials() {
  std::array<std::array<std::uint64_t, 33>, 33> c{};
  for (std::size_t n = 0; n <= 32; ++n) {
    c[n][0] = 1;
    for (std::size_t k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
  }
  return c;
}
constexpr auto kBinomial = make_binomials();

std::uint64_t choose(int n, int k) {
  if (k < 0 || n < 0 || k > n) return 0;
  return kBinomial[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
}

// Colex rank of a set of small numbers: sum of C(element, its 1-based place).
std::uint64_t rank_set(std::uint32_t set) {
  std::uint64_t r = 0;
  int place = 1;
  while (set) {
    r += choose(std::countr_zero(set), place++);
    set &= set - 1;
  }
  return r;
}

std::uint32_t unrank_set(std::uint64_t r, int k, int n) {
  std::uint32_t set = 0;
  int c = n - 1;
  for (int place = k; place >= 1; --place) {
    while (choose(c, place) > r) --c;
    r -= choose(c, place);
    set |= 1U << c;
    --c;
  }
  return set;
}

// The squares of `set` renumbered among the squares not in `taken` (and back).
std::uint32_t compress(std::uint32_t set, std::uint32_t taken) {
  std::uint32_t out = 0;
  while (set) {
    const int s = std::countr_zero(set);
    set &= set - 1;
    out |= 1U << (s - std::popcount(taken & ((1U << s) - 1U)));
  }
  return out;
}
std::uint32_t expand(std::uint32_t set, std::uint32_t taken) {
  std::uint32_t out = 0;
  int free_seen = 0;
  for (int s = 0; s < 32 && set; ++s) {
    if (taken & (1U << s)) continue;
    if (set & (1U << free_seen)) {
      out |= 1U << s;
      set &= ~(1U << free_seen);
    }
    ++free_seen;
  }
  return out;
}

constexpr int kWhiteMenFirst = 4;  // white men live on squares 5-32 (indices 4-31)
constexpr std::uint32_t kBlackMenSquares = 0x0FFFFFFFU;

}  // namespace

Material material_of(const Position& p) {
  return Material{popcount(p.men(Color::White)), popcount(p.kings(Color::White)),
                  popcount(p.men(Color::Black)), popcount(p.kings(Color::Black))};
}

std::string slice_name(const Material& m) {
  return "wm" + std::to_string(m.wm) + "wk" + std::to_string(m.wk) + "bm" + std::to_string(m.bm) + "bk" +
         std::to_string(m.bk);
}

std::string file_name(const Material& m) { return slice_name(m) + ".egdb"; }

std::string slice_path(const std::string& dir, const Material& m) {
  return (std::filesystem::path(dir) / file_name(m)).string();
}

std::vector<Material> slices_up_to(int pieces) {
  std::vector<Material> out;
  for (int n = 2; n <= pieces; ++n)
    for (int men = 0; men <= n; ++men)
      for (int wm = 0; wm <= men; ++wm)
        for (int wk = 0; wk <= n - men; ++wk) {
          const Material m{wm, wk, men - wm, n - men - wk};
          if (m.wm + m.wk > 0 && m.bm + m.bk > 0 && m.wm + m.wk <= rules::kMaxPiecesPerSide &&
              m.bm + m.bk <= rules::kMaxPiecesPerSide)
            out.push_back(m);
        }
  return out;
}

SliceIndex::SliceIndex(const Material& m, Variant variant) : material_(m), variant_(variant) {
  const int men = m.wm + m.bm;
  n_bm_ = choose(28, m.bm);
  n_wk_ = choose(32 - men, m.wk);
  n_bk_ = choose(32 - men - m.wk, m.bk);
  size_ = choose(28, m.wm) * n_bm_ * n_wk_ * n_bk_;
}

std::uint64_t SliceIndex::positions() const {
  // White men on 5-32, black men on 1-28: they can meet only on 5-28. a = white men on 29-32.
  const Material& m = material_;
  std::uint64_t men = 0;
  for (int a = 0; a <= std::min(m.wm, 4); ++a)
    men += choose(4, a) * choose(24, m.wm - a) * choose(28 - (m.wm - a), m.bm);
  return men * n_wk_ * n_bk_;
}

std::uint64_t SliceIndex::index_of(const Position& p) const {
  const std::uint32_t wm = squares32(p.men(Color::White));
  const std::uint32_t bm = squares32(p.men(Color::Black));
  const std::uint32_t wk = squares32(p.kings(Color::White));
  const std::uint32_t bk = squares32(p.kings(Color::Black));
  const std::uint32_t men = wm | bm;
  const std::uint64_t wm_r = rank_set(wm >> kWhiteMenFirst);
  const std::uint64_t bm_r = rank_set(bm);
  const std::uint64_t wk_r = rank_set(compress(wk, men));
  const std::uint64_t bk_r = rank_set(compress(bk, men | wk));
  return ((wm_r * n_bm_ + bm_r) * n_wk_ + wk_r) * n_bk_ + bk_r;
}

std::optional<Position> SliceIndex::position_of(std::uint64_t index, Color side_to_move) const {
  const Material& m = material_;
  const std::uint64_t bk_r = index % n_bk_;
  index /= n_bk_;
  const std::uint64_t wk_r = index % n_wk_;
  index /= n_wk_;
  const std::uint64_t bm_r = index % n_bm_;
  const std::uint64_t wm_r = index / n_bm_;
  const std::uint32_t wm = unrank_set(wm_r, m.wm, 28) << kWhiteMenFirst;
  const std::uint32_t bm = unrank_set(bm_r, m.bm, 28) & kBlackMenSquares;
  if (wm & bm) return std::nullopt;
  const std::uint32_t men = wm | bm;
  const std::uint32_t wk = expand(unrank_set(wk_r, m.wk, 32 - m.men()), men);
  const std::uint32_t bk = expand(unrank_set(bk_r, m.bk, 32 - m.men() - m.wk), men | wk);
  return Position::from_pieces(board_of(wm | wk), board_of(bm | bk), board_of(wk | bk), side_to_move)
      .with_variant(variant_);
}

Value value_of(Code c) {
  if (c == kDrawCode) return Value{};
  const int d = c - 1;
  return Value{d % 2 ? Wdl::Win : Wdl::Loss, d};
}

Code code_of(const Value& v) { return v.wdl == Wdl::Draw ? kDrawCode : static_cast<Code>(v.plies + 1); }

void ValueFold::add_child(Code child) {
  any_ = true;
  if (child == kDrawCode) {
    draw_ = true;
    return;
  }
  const int d = child - 1 + 1;  // our plies: the child's distance plus this move
  if (d % 2) {
    if (win_ < 0 || d < win_) win_ = d;  // the child loses: we win
  } else if (d > loss_) {
    loss_ = d;
  }
}

Code ValueFold::result() const {
  if (!any_) return 1;  // no legal move: loss in 0
  if (win_ >= 0) return static_cast<Code>(win_ + 1);
  if (draw_) return kDrawCode;
  return static_cast<Code>(loss_ + 1);
}

}  // namespace damas::egdb
