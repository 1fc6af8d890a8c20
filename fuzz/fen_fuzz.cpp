// libFuzzer target: the position parsers (PDN FEN and the Hub position string).
// Invariants (a violation traps): an accepted position has at most 12 pieces a side, no man on
// its crowning row, and writes back to text that parses to the same position, in both formats;
// a refused one comes with a message.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "damas/core/movegen.h"
#include "damas/core/notation.h"

namespace {

using namespace damas;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void check_position(const Position& p) {
  check(popcount(p.pieces(Color::White)) <= rules::kMaxPiecesPerSide);
  check(popcount(p.pieces(Color::Black)) <= rules::kMaxPiecesPerSide);
  check((p.pieces(Color::White) & p.pieces(Color::Black)) == 0);
  check((p.men(Color::White) & kWhitePromotionRow) == 0);
  check((p.men(Color::Black) & kBlackPromotionRow) == 0);
  check(p.key() == p.compute_key());
  const Expected<Position> fen = parse_fen(to_fen(p));
  check(fen.has_value() && *fen == p);
  const Expected<Position> hub = parse_hub_position(to_hub_position(p));
  check(hub.has_value() && *hub == p);
  MoveList moves;
  generate_legal_moves(p, moves);
  check(static_cast<int>(moves.size()) == count_legal_moves(p));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Expected<Position> fen = parse_fen(text);
  if (fen) check_position(*fen);
  else check(!fen.error().empty());
  const Expected<Position> hub = parse_hub_position(text);
  if (hub) check_position(*hub);
  else check(!hub.error().empty());
  return 0;
}
