// libFuzzer target: DXP framing and message parsing on arbitrary bytes.
// Invariants checked (a violation traps):
//   * the Deframer never yields a message that is empty, longer than 127 or contains NUL,
//     however the bytes are cut into reads;
//   * whatever parses formats back to a message that parses to the same value, and formatting
//     is stable (format(parse(format(m))) == format(m));
//   * MOVE -> Move conversion against positions, in both numberings, never misbehaves, and a
//     move it accepts converts back to the same wire squares.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "damas/core/movegen.h"
#include "damas/dxp/dxp_framing.h"
#include "damas/dxp/dxp_message.h"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void check_message(std::string_view text) {
  using namespace damas;
  using namespace damas::dxp;
  const Expected<Message> parsed = parse_message(text);
  if (!parsed) {
    check(!parsed.error().empty());
    return;
  }
  const std::string formatted = format_message(*parsed);
  check(!formatted.empty() && formatted.size() <= kMaxMessageLength);
  check(static_cast<bool>(frame(formatted)));
  const Expected<Message> again = parse_message(formatted);
  check(static_cast<bool>(again));
  check(*again == *parsed);
  check(format_message(*again) == formatted);

  if (const auto* mm = std::get_if<MoveMessage>(&*parsed)) {
    Position p = Position::start();
    for (int ply = 0; ply < 2; ++ply) {
      for (const Numbering n : {Numbering::Standard, Numbering::A1}) {
        const Expected<Move> m = to_move(p, *mm, n);
        if (!m) continue;
        const MoveMessage back = to_move_message(*m, mm->seconds, n);
        check(back.from == mm->from && back.to == mm->to && back.captured == mm->captured);
      }
      MoveList legal;
      generate_legal_moves(p, legal);
      p = p.after(legal[static_cast<std::size_t>(mm->from) % legal.size()]);
    }
  }
  if (const auto* req = std::get_if<GameRequest>(&*parsed); req && req->start) {
    const Expected<Position> p = parse_dxp_position(to_dxp_position(*req->start));
    check(static_cast<bool>(p) && *p == *req->start);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // First byte: read size for the framing pass (1..64 bytes per read).
  const std::size_t chunk = 1 + data[0] % 64;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);

  damas::dxp::Deframer whole;
  damas::dxp::Deframer pieces;
  std::size_t whole_count = 0;
  for (const auto& m : whole.feed(bytes)) {
    ++whole_count;
    if (m) {
      check(!m->empty() && m->size() <= damas::dxp::kMaxMessageLength);
      check(m->find('\0') == std::string::npos);
      check_message(*m);
    }
  }
  std::size_t piece_count = 0;
  for (std::size_t i = 0; i < bytes.size(); i += chunk)
    piece_count += pieces.feed(bytes.substr(i, chunk)).size();
  // Cutting the stream differently never changes how many messages come out.
  check(whole_count == piece_count);
  check(whole.pending() == pieces.pending());

  // The raw input as one message too (parsers must refuse, not crash, on anything).
  check_message(bytes.substr(0, 200));
  return 0;
}
