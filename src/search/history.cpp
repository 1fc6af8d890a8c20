#include "damas/search/history.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace damas {

void MoveHistory::reward_cut(const Position& pos, std::span<const Move> tried, int depth, int ply) {
  const Move& cut = tried.back();
  if (cut.is_capture()) return;
  auto& killers = killers_[static_cast<std::size_t>(ply)];
  if (!(killers[0] == cut)) {
    killers[1] = killers[0];
    killers[0] = cut;
  }
  if (ply > 0) counter_[counter_slot(pos, ply)] = cut;
  // The cut move gains, the quiet moves tried before it lose; values saturate at +-kLimit.
  const int bonus = std::min(depth * depth, 400);
  Table& table = table_[index(pos.side_to_move())];
  const auto update = [&table](const Move& x, int delta) {
    int& h = table[x.from.bit][x.to.bit];
    // 64-bit product: h * |delta| reaches kLimit * 25600, beyond int.
    h += static_cast<int>(delta - static_cast<std::int64_t>(h) * std::abs(delta) / kLimit);
  };
  update(cut, bonus * 64);
  for (const Move& m : tried.first(tried.size() - 1))
    if (!m.is_capture()) update(m, -bonus * 16);
}

}  // namespace damas
