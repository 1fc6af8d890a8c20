#include "damas/eval/endgame.h"

#include <algorithm>
#include <cstring>

#include "damas/core/binary_io.h"

namespace damas {
namespace {

constexpr std::array<char, 8> kMagic = {'D', 'A', 'M', 'A', 'S', 'E', 'N', '\0'};
constexpr std::size_t kHeaderBytes = 40;
constexpr std::size_t kW1Size = std::size_t{kEndingInputs} * kEndingHidden1;
constexpr std::size_t kNetworkBytes =
    sizeof(std::int16_t) * (kW1Size + kEndingHidden1 + kEndingHidden2 * kEndingHidden1) +
    sizeof(std::int32_t) * (2 * kEndingHidden2 + 1);
constexpr std::size_t kPayloadBytes = kEndingBuckets * kNetworkBytes;
constexpr int kLoneKingInputs = 4096;
static_assert(kLoneKingInputs + 2 * 32 == kEndingInputs);

constexpr int kTwoPiecesDivisor = 16;
constexpr Score kMaxEndingEval = kScoreWinThreshold / 2;

// The square's input index (0..31) seen from the strong side.
int strong_view_index(Square s, Color strong) {
  const int n = square_number(s);
  return strong == Color::White ? n - 1 : rules::kBoardSquares - n;
}

}  // namespace

Expected<EndingWeights> parse_ending_weights(std::span<const unsigned char> bytes,
                                             const std::string& source) {
  const std::string where = source + ": ";
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    return Error{where + "not a damas ending-weights file"};
  const std::uint64_t version = get_le(&bytes[8], 4);
  if (version != kEndingWeightsVersion)
    return Error{where + "ending weights version " + std::to_string(version) + ", this build reads version " +
                 std::to_string(kEndingWeightsVersion)};
  if (get_le(&bytes[12], 4) != kEndingInputs || get_le(&bytes[16], 4) != kEndingHidden1 ||
      get_le(&bytes[20], 4) != kEndingHidden2 || get_le(&bytes[24], 4) != kEndingBuckets)
    return Error{where + "network shape " + std::to_string(get_le(&bytes[24], 4)) + " x " +
                 std::to_string(get_le(&bytes[12], 4)) + "x" + std::to_string(get_le(&bytes[16], 4)) + "x" +
                 std::to_string(get_le(&bytes[20], 4)) + ", this build runs " +
                 std::to_string(kEndingBuckets) + " x " + std::to_string(kEndingInputs) + "x" +
                 std::to_string(kEndingHidden1) + "x" + std::to_string(kEndingHidden2)};
  if (get_le(&bytes[28], 4) != 0) return Error{where + "reserved header field is not zero"};
  if (bytes.size() != kHeaderBytes + kPayloadBytes)
    return Error{where + "size " + std::to_string(bytes.size()) + " bytes, expected " +
                 std::to_string(kHeaderBytes + kPayloadBytes) + " (truncated or padded)"};
  if (fnv1a64(bytes.data() + kHeaderBytes, kPayloadBytes) != get_le(&bytes[32], 8))
    return Error{where + "checksum mismatch (corrupt file)"};
  EndingWeights weights;
  LittleEndianReader in(bytes.data() + kHeaderBytes);
  for (EndingNetwork& w : weights.buckets) {
    in.read(w.w1);
    in.read(w.b1);
    in.read(w.w2);
    in.read(w.b2);
    in.read(w.w3);
    in.read(w.b3);
  }
  return weights;
}

std::vector<unsigned char> ending_weights_to_bytes(const EndingWeights& weights) {
  std::vector<unsigned char> payload;
  for (const EndingNetwork& w : weights.buckets) {
    append_all_le(payload, w.w1);
    append_all_le(payload, w.b1);
    append_all_le(payload, w.w2);
    append_all_le(payload, w.b2);
    append_all_le(payload, w.w3);
    append_le(payload, static_cast<std::uint32_t>(w.b3), 4);
  }
  std::vector<unsigned char> out(kMagic.begin(), kMagic.end());
  append_le(out, kEndingWeightsVersion, 4);
  append_le(out, kEndingInputs, 4);
  append_le(out, kEndingHidden1, 4);
  append_le(out, kEndingHidden2, 4);
  append_le(out, kEndingBuckets, 4);
  append_le(out, 0, 4);
  append_le(out, fnv1a64(payload.data(), payload.size()), 8);
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

bool is_lone_king_ending(const Position& p) {
  for (Color lone : {Color::White, Color::Black})
    if (popcount(p.pieces(lone)) == 1 && p.kings(lone))
      return popcount(p.pieces(~lone)) >= 2 && p.kings(~lone) != 0;
  return false;
}

int ending_features(const Position& p, std::array<int, 2 * rules::kMenPerSide + 1>& out) {
  const Color lone_side = popcount(p.pieces(Color::White)) == 1 ? Color::White : Color::Black;
  const Color strong = ~lone_side;
  const int to_move = p.side_to_move() == strong ? 0 : 1;
  const int lone = strong_view_index(lowest_square(p.pieces(lone_side)), strong);
  int n = 0;
  for (int kind = 0; kind < 2; ++kind)
    for (Bitboard b = kind == 0 ? p.men(strong) : p.kings(strong); b;)
      out[static_cast<std::size_t>(n++)] =
          ((to_move * 2 + kind) * 32 + lone) * 32 + strong_view_index(pop_lowest(b), strong);
  out[static_cast<std::size_t>(n++)] = kLoneKingInputs + to_move * 32 + lone;
  return n;
}

int ending_bucket(const Position& p) {
  const Color strong = popcount(p.pieces(Color::White)) == 1 ? Color::Black : Color::White;
  const int pieces = popcount(p.pieces(strong));
  if (pieces <= 2) return 0;
  if (pieces >= 4) return 3;
  return p.men(strong) ? 2 : 1;
}

Score evaluate_ending_network(const Position& p, const EndingWeights& weights) {
  const EndingNetwork& w = weights.buckets[static_cast<std::size_t>(ending_bucket(p))];
  std::array<int, 2 * rules::kMenPerSide + 1> features;
  const int n = ending_features(p, features);
  std::array<std::int16_t, kEndingHidden1> sums = w.b1;
  for (int f = 0; f < n; ++f) {
    const std::int16_t* row =
        &w.w1[static_cast<std::size_t>(features[static_cast<std::size_t>(f)]) * kEndingHidden1];
    for (std::size_t i = 0; i < kEndingHidden1; ++i)
      sums[i] =
          static_cast<std::int16_t>(static_cast<std::uint16_t>(sums[i]) + static_cast<std::uint16_t>(row[i]));
  }
  std::array<std::int32_t, kEndingHidden1> a1;
  for (std::size_t i = 0; i < kEndingHidden1; ++i) a1[i] = std::clamp<std::int32_t>(sums[i], 0, 127);
  std::int64_t out = w.b3;
  for (std::size_t j = 0; j < kEndingHidden2; ++j) {
    std::int32_t z = w.b2[j];
    const std::int16_t* row = &w.w2[j * kEndingHidden1];
    for (std::size_t i = 0; i < kEndingHidden1; ++i) z += a1[i] * row[i];
    out += std::int64_t{std::clamp(z >> 6, 0, 127)} * w.w3[j];
  }
  const Score strong_score =
      static_cast<Score>(std::clamp<std::int64_t>(out >> 8, -kMaxEndingEval, kMaxEndingEval));
  const bool strong_to_move = popcount(p.pieces(p.side_to_move())) > 1;
  return strong_to_move ? strong_score : static_cast<Score>(-strong_score);
}

Score evaluate_lone_king_ending(const Position& p) {
  const Score net = evaluate_ending_network(p, builtin_ending_weights());
  // Two pieces against a lone king are a draw but where the lone king is caught at once, which the
  // search sees; a king given away for them must not look cheap (a won three-kings ending was
  // drawn that way with the earlier network).
  const int attackers = std::max(popcount(p.pieces(Color::White)), popcount(p.pieces(Color::Black)));
  return attackers <= 2 ? static_cast<Score>(net / kTwoPiecesDivisor) : net;
}

const EndingWeights& builtin_ending_weights() {
  // Checked by tests/test_endgame_eval.cpp; an unreadable embedded file would be a build defect.
  static const EndingWeights kWeights = [] {
    Expected<EndingWeights> w =
        parse_ending_weights(builtin_ending_weights_file(), "built-in ending weights");
    return w ? *w : EndingWeights{};
  }();
  return kWeights;
}

}  // namespace damas
