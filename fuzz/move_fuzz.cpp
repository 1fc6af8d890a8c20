// libFuzzer target: the move parsers (Hub numeric in both numberings, algebraic, move lists).
// The first byte picks a position and a numbering; the rest is the move text.
// Invariants (a violation traps): an accepted move is legal, and its canonical text parses back
// to the same move; a move list's legal prefix replays move by move; errors carry a message.
#include <array>
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

bool legal(const Position& p, const Move& m) {
  MoveList moves;
  generate_legal_moves(p, moves);
  return moves.contains(m);
}

const std::array<Position, 6>& positions() {
  static const std::array<Position, 6> kPositions = [] {
    const char* fens[] = {
        "W:W21-32:B1-12",                        // start
        "W:W18,21,23-32:B1-10,12,15",            // a forced capture
        "W:W20,21,23,25,27-32:B1-7,9-11,14,15",  // captures for White
        "B:WK29,K32,14:BK4,K1,10",               // kings both sides
        "W:WK31:B10,12,19,21,23,26",             // a king with many capture routes
        "B:W5,13:B1",                            // White blocked after Black's move
    };
    std::array<Position, 6> a{};
    for (std::size_t i = 0; i < a.size(); ++i) {
      const Expected<Position> p = parse_fen(fens[i]);
      a[i] = p ? *p : Position::start();
    }
    return a;
  }();
  return kPositions;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Position& p = positions()[data[0] % positions().size()];
  const Numbering n = (data[0] & 0x80) ? Numbering::A1 : Numbering::Standard;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  if (const Expected<Move> m = parse_hub_move(p, text, n)) {
    check(legal(p, *m));
    const Expected<Move> back = parse_hub_move(p, to_hub_move(*m, n), n);
    check(back.has_value() && *back == *m);
  } else {
    check(!m.error().empty());
  }
  if (const Expected<Move> m = parse_algebraic(p, text)) {
    check(legal(p, *m));
    const Expected<Move> back = parse_algebraic(p, to_algebraic(p, *m));
    check(back.has_value() && *back == *m);
    const Expected<Move> from_pdn = parse_algebraic(p, to_pdn_move(p, *m, PdnSquares::Algebraic));
    check(from_pdn.has_value() && *from_pdn == *m);
  }
  if (const Expected<Move> m = parse_any_move(p, text, n)) check(legal(p, *m));

  std::vector<Move> played;
  const Expected<std::vector<Move>> list = parse_move_list(p, text, n, &played);
  if (list) check(list->size() == played.size());
  else check(!list.error().empty());
  Position q = p;
  for (const Move& m : played) {
    check(legal(q, m));
    q = q.after(m);
  }
  return 0;
}
