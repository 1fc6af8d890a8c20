#include "damas/eval/learned.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

#include "damas/core/binary_io.h"
#include "damas/core/file_check.h"
#include "damas/core/game_field.h"

namespace damas {
namespace {

constexpr std::array<char, 8> kMagic = {'D', 'A', 'M', 'A', 'S', 'N', 'N', '\0'};
constexpr std::size_t kHeaderBytes = kGameFieldOffset + kGameFieldBytes;
constexpr std::size_t kVersion1HeaderBytes = kGameFieldOffset;
// Payload of a file whose first layer has `hidden1` units.
constexpr std::size_t payload_bytes(std::size_t hidden1) {
  return sizeof(std::int16_t) * (kLearnedInputs * hidden1 + hidden1 + kLearnedHidden2 * hidden1) +
         sizeof(std::int32_t) * (2 * kLearnedHidden2 + 1);
}
// Widths of the first layer a file may have: a narrower one is padded with units whose weights are
// all zero (their output is 0 and they add nothing), so its scores are unchanged.
constexpr bool readable_hidden1(std::uint64_t hidden1) {
  return hidden1 == kLearnedHidden1 || hidden1 == kLearnedHidden1 / 2;
}
constexpr std::size_t kBlocks = kLearnedHidden1 / 16;  // 16 int16 lanes a vector
static_assert(kLearnedHidden1 % 32 == 0 && kLearnedHidden2 == 16, "the loops below work in blocks of 16");

// Feature index of each bit of the padded layout, from White's and from Black's view.
struct SquareIndex {
  std::array<std::array<std::uint8_t, kBitboardBits>, 2> of{};
};
constexpr SquareIndex make_square_index() {
  SquareIndex t;
  for (int n = 1; n <= rules::kBoardSquares; ++n) {
    const int bit = square_from_number(n).bit;
    t.of[0][static_cast<std::size_t>(bit)] = static_cast<std::uint8_t>(n - 1);
    t.of[1][static_cast<std::size_t>(bit)] = static_cast<std::uint8_t>(rules::kBoardSquares - n);
  }
  return t;
}
inline constexpr SquareIndex kSquareIndex = make_square_index();

inline constexpr Score kMaxLearnedEval = kScoreWinThreshold / 2;

using I16x16 = std::int16_t __attribute__((vector_size(32)));
using I32x8 = std::int32_t __attribute__((vector_size(32)));
// Out-parameter rather than a return value: returning a 32-byte vector by value is an ABI
// question (GCC -Wpsabi) on builds without AVX.
template <typename V, typename T>
void load(V& v, const T* p) {
  std::memcpy(&v, p, sizeof v);
}

// z[k] += a[0] w[2k] + a[1] w[2k+1] for the 8 lanes, a = the two int16 of `pair`.
inline void add_pair_products(I32x8& z, std::int32_t pair, const std::int16_t* w) {
#if defined(__AVX2__)
  __m256i weights;
  load(weights, w);
  const __m256i products = _mm256_madd_epi16(_mm256_set1_epi32(pair), weights);
  I32x8 sums;
  load(sums, &products);
  z += sums;
#elif defined(__SSE2__)
  // Every x86-64 (the portable builds: the .deb, Windows): pmaddwd on two halves of 8 lanes.
  __m128i lo, hi;
  load(lo, w);
  load(hi, w + 8);
  const __m128i a = _mm_set1_epi32(pair);
  const __m128i products[2] = {_mm_madd_epi16(a, lo), _mm_madd_epi16(a, hi)};
  I32x8 sums;
  load(sums, products);
  z += sums;
#elif defined(__wasm_simd128__)
  // The browser build: i32x4.dot_i16x8_s is WebAssembly's vpmaddwd, on two halves of 8 lanes.
  v128_t lo, hi;
  load(lo, w);
  load(hi, w + 8);
  const v128_t a = wasm_i32x4_splat(pair);
  const v128_t products[2] = {wasm_i32x4_dot_i16x8(a, lo), wasm_i32x4_dot_i16x8(a, hi)};
  I32x8 sums;
  load(sums, products);
  z += sums;
#else
  const auto a0 = static_cast<std::int16_t>(pair & 0xffff);
  const auto a1 = static_cast<std::int16_t>(pair >> 16);
  for (int k = 0; k < 8; ++k) z[k] += a0 * w[2 * k] + a1 * w[2 * k + 1];
#endif
}

// The first layer's sums wrap as uint16 lanes (defined overflow), read as int16 for the clipping.
using U16x16 = std::uint16_t __attribute__((vector_size(32)));

// Stores v at p, 32-byte aligned (one aligned store: a later full-width load is forwarded).
template <typename V, typename T>
void store_aligned(T* p, const V& v) {
  std::memcpy(__builtin_assume_aligned(p, 32), &v, sizeof v);
}

// Unaligned, aliasing views of memory as vectors (like the intrinsics' __m256i_u): loads straight
// into registers, where a memcpy into a block of vectors may go through the stack.
using U16x16Mem = std::uint16_t __attribute__((vector_size(32), aligned(2), may_alias));

// One view's sums in registers while a position's rows are added and taken off.
struct SumsBlock {
  std::array<U16x16, kBlocks> p;

  void load_from(const std::int16_t* s) {
    const auto* m = reinterpret_cast<const U16x16Mem*>(s);
    for (std::size_t b = 0; b < kBlocks; ++b) p[b] = m[b];
  }
  void store_to(LearnedAccumulator::Sums& s) const {
    for (std::size_t b = 0; b < kBlocks; ++b) store_aligned(&s[16 * b], p[b]);
  }
  void add(const std::int16_t* weights) {
    const auto* row = reinterpret_cast<const U16x16Mem*>(weights);
    for (std::size_t b = 0; b < kBlocks; ++b) p[b] += row[b];
  }
  void subtract(const std::int16_t* weights) {
    const auto* row = reinterpret_cast<const U16x16Mem*>(weights);
    for (std::size_t b = 0; b < kBlocks; ++b) p[b] -= row[b];
  }
};

// Kinds of pieces: White's men, White's kings, Black's men, Black's kings.
std::array<Bitboard, 4> piece_kinds(Bitboard white, Bitboard black, Bitboard kings) {
  return {white & ~kings, white & kings, black & ~kings, black & kings};
}

// Input of a piece of kind k on s seen from view (0 White, 1 Black to move): the mover's men,
// its kings, the opponent's men, its kings.
std::size_t feature(std::size_t view, std::size_t kind, Square s) {
  return 32 * (kind ^ (2 * view)) + kSquareIndex.of[view][s.bit];
}

const std::int16_t* row_of(const LearnedWeights& w, std::size_t feature) {
  return &w.w1[feature * kLearnedHidden1];
}

alignas(32) constexpr std::array<std::int16_t, kLearnedHidden1> kZeroRow{};

// The first-layer row of the piece on s of the position (white, black, kings) seen from view,
// or a row of zeros if s is empty.
const std::int16_t* row_at(const LearnedWeights& w, std::size_t view, Bitboard white, Bitboard black,
                           Bitboard kings, Square s) {
  const auto on = [&](Bitboard b) { return static_cast<std::size_t>((b >> s.bit) & 1); };
  const std::size_t kind = 2 * on(black) + on(kings);
  return on(white | black) ? row_of(w, feature(view, kind, s)) : kZeroRow.data();
}

// L2 and L3 from the first layer's sums.
Score output_layers(const LearnedAccumulator::Sums& sums, const LearnedWeights& w) {
  alignas(32) std::array<std::int16_t, kLearnedHidden1> a1;
  const I16x16 zero{};
  const I16x16 top = zero + 127;
  for (std::size_t c = 0; c < kBlocks; ++c) {
    I16x16 acc;
    load(acc, &sums[16 * c]);
    acc = acc < zero ? zero : acc > top ? top : acc;
    store_aligned(&a1[16 * c], acc);
  }
  // L2 by input pairs: z[j] += a[i] w[i][j] + a[i+1] w[i+1][j], one multiply-add of int16 pairs
  // into int32 (vpmaddwd) where AVX2 is on. Every pair, without a branch: in the search about 29
  // of 32 pairs were non-zero with 64 units, so skipping zeros cost more than it saved.
  I32x8 z0, z1;
  load(z0, w.b2.data());
  load(z1, w.b2.data() + 8);
  for (std::size_t i = 0; i < kLearnedHidden1; i += 2) {
    std::int32_t pair;
    std::memcpy(&pair, &a1[i], sizeof pair);
    const std::int16_t* col = &w.w2[learned_w2_index(i, 0)];
    add_pair_products(z0, pair, col);
    add_pair_products(z1, pair, col + 16);
  }
  std::array<std::int32_t, kLearnedHidden2> z;
  std::memcpy(z.data(), &z0, sizeof z0);
  std::memcpy(z.data() + 8, &z1, sizeof z1);
  std::int64_t out = w.b3;
  for (std::size_t j = 0; j < kLearnedHidden2; ++j)
    out += std::int64_t{std::clamp(z[j] >> 6, 0, 127)} * w.w3[j];
  return static_cast<Score>(std::clamp<std::int64_t>(out >> 8, -kMaxLearnedEval, kMaxLearnedEval));
}

}  // namespace

bool is_learned_weights(std::span<const unsigned char> bytes) {
  return bytes.size() >= kMagic.size() && std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) == 0;
}

namespace {

struct Header {
  std::size_t bytes;  // where the payload starts
  std::size_t hidden1;
  Variant variant;
};

Expected<Header> read_header(std::span<const unsigned char> bytes) {
  if (bytes.size() < kVersion1HeaderBytes) return Error{"truncated header"};
  const std::uint64_t version = get_le(&bytes[8], 4);
  if (version != 1 && version != kLearnedWeightsVersion)
    return Error{"weights version " + std::to_string(version) + ", this build reads versions 1 and " +
                 std::to_string(kLearnedWeightsVersion)};
  const std::uint64_t hidden1 = get_le(&bytes[16], 4);
  if (get_le(&bytes[12], 4) != kLearnedInputs || !readable_hidden1(hidden1) ||
      get_le(&bytes[20], 4) != kLearnedHidden2)
    return Error{"network shape " + std::to_string(get_le(&bytes[12], 4)) + "x" + std::to_string(hidden1) +
                 "x" + std::to_string(get_le(&bytes[20], 4)) + ", this build runs " +
                 std::to_string(kLearnedInputs) + "x" + std::to_string(kLearnedHidden1) + "x" +
                 std::to_string(kLearnedHidden2) + " (or " + std::to_string(kLearnedHidden1 / 2) +
                 " first-layer units)"};
  const auto h1 = static_cast<std::size_t>(hidden1);
  if (version == 1) return Header{kVersion1HeaderBytes, h1, Variant::Brazilian};
  if (bytes.size() < kHeaderBytes) return Error{"truncated header"};
  const Expected<Variant> variant = read_game_field(&bytes[kGameFieldOffset]);
  if (!variant) return Error{"a network for an " + variant.error()};
  return Header{kHeaderBytes, h1, *variant};
}

}  // namespace

Expected<LearnedWeights> parse_learned_weights(std::span<const unsigned char> bytes,
                                               const std::string& source) {
  const std::string where = source + ": ";
  if (!is_learned_weights(bytes)) return Error{where + "not a damas learned-weights file"};
  const Expected<Header> header = read_header(bytes);
  if (!header) return Error{where + header.error()};
  const std::size_t h1 = header->hidden1;
  const std::size_t payload = payload_bytes(h1);
  if (bytes.size() != header->bytes + payload)
    return Error{where + "size " + std::to_string(bytes.size()) + " bytes, expected " +
                 std::to_string(header->bytes + payload) + " (truncated or padded)"};
  // Version 2 sums the game field with the payload; version 1 the payload only, from the same byte.
  if (fnv1a64(bytes.data() + kGameFieldOffset, bytes.size() - kGameFieldOffset) != get_le(&bytes[24], 8))
    return Error{where + "checksum mismatch (corrupt file)"};
  LearnedWeights w;
  w.variant = header->variant;
  LittleEndianReader in(bytes.data() + header->bytes);
  std::vector<std::int16_t> w1(kLearnedInputs * h1), b1(h1), w2(kLearnedHidden2 * h1);
  in.read(w1);
  in.read(b1);
  in.read(w2);
  for (std::size_t f = 0; f < kLearnedInputs; ++f)
    for (std::size_t i = 0; i < h1; ++i) w.w1[f * kLearnedHidden1 + i] = w1[f * h1 + i];
  for (std::size_t i = 0; i < h1; ++i) w.b1[i] = b1[i];
  for (std::size_t j = 0; j < kLearnedHidden2; ++j)
    for (std::size_t i = 0; i < h1; ++i) w.w2[learned_w2_index(i, j)] = w2[j * h1 + i];
  in.read(w.b2);
  in.read(w.w3);
  in.read(w.b3);
  return w;
}

Expected<LearnedWeights> load_learned_weights(const std::string& path) {
  const Expected<std::vector<unsigned char>> bytes =
      read_checked_bytes(path, "learned weights", file_limit::kWeights);
  if (!bytes) return Error{bytes.error()};
  return parse_learned_weights(*bytes, path);
}

std::vector<unsigned char> learned_weights_to_bytes(const LearnedWeights& w) {
  std::vector<unsigned char> payload;
  append_all_le(payload, w.w1);
  append_all_le(payload, w.b1);
  std::array<std::int16_t, kLearnedHidden2 * kLearnedHidden1> w2{};
  for (std::size_t j = 0; j < kLearnedHidden2; ++j)
    for (std::size_t i = 0; i < kLearnedHidden1; ++i)
      w2[j * kLearnedHidden1 + i] = w.w2[learned_w2_index(i, j)];
  append_all_le(payload, w2);
  append_all_le(payload, w.b2);
  append_all_le(payload, w.w3);
  append_le(payload, static_cast<std::uint32_t>(w.b3), 4);
  const auto field = game_field(w.variant);
  std::vector<unsigned char> summed(field.begin(), field.end());
  summed.insert(summed.end(), payload.begin(), payload.end());
  std::vector<unsigned char> out(kMagic.begin(), kMagic.end());
  append_le(out, kLearnedWeightsVersion, 4);
  append_le(out, kLearnedInputs, 4);
  append_le(out, kLearnedHidden1, 4);
  append_le(out, kLearnedHidden2, 4);
  append_le(out, fnv1a64(summed.data(), summed.size()), 8);
  out.insert(out.end(), summed.begin(), summed.end());
  return out;
}

const LearnedWeights& builtin_learned_weights() {
  // Checked by tests/test_learned_eval.cpp; an unreadable embedded file would be a build defect.
  static const LearnedWeights kWeights = [] {
    Expected<LearnedWeights> w =
        parse_learned_weights(builtin_learned_weights_file(), "built-in learned weights");
    return w ? *w : LearnedWeights{};
  }();
  return kWeights;
}

int learned_features(const Position& p, std::array<int, 2 * rules::kMenPerSide>& out) {
  const Color us = p.side_to_move();
  const auto& index = kSquareIndex.of[us == Color::White ? 0 : 1];
  const std::array<Bitboard, 4> sets = {p.men(us), p.kings(us), p.men(~us), p.kings(~us)};
  int n = 0;
  for (int s = 0; s < 4; ++s) {
    for (Bitboard b = sets[static_cast<std::size_t>(s)]; b;)
      out[static_cast<std::size_t>(n++)] = 32 * s + index[pop_lowest(b).bit];
  }
  return n;
}

Score evaluate_learned(const Position& p, const LearnedWeights& w) {
  std::array<int, 2 * rules::kMenPerSide> features;
  const int n = learned_features(p, features);
  SumsBlock block;
  block.load_from(w.b1.data());
  for (int f = 0; f < n; ++f)
    block.add(row_of(w, static_cast<std::size_t>(features[static_cast<std::size_t>(f)])));
  alignas(32) LearnedAccumulator::Sums sums;
  block.store_to(sums);
  return output_layers(sums, w);
}

void LearnedAccumulator::refresh(const Position& p, Color view, const LearnedWeights& w) {
  const std::size_t v = index(view);
  const std::array<Bitboard, 4> kinds =
      piece_kinds(p.pieces(Color::White), p.pieces(Color::Black), p.kings());
  SumsBlock block;
  block.load_from(w.b1.data());
  for (std::size_t k = 0; k < 4; ++k)
    for (Bitboard b = kinds[k]; b;) block.add(row_of(w, feature(v, k, pop_lowest(b))));
  block.store_to(sums_);
  white_ = p.pieces(Color::White);
  black_ = p.pieces(Color::Black);
  kings_ = p.kings();
  view_ = view;
}

void LearnedAccumulator::update(const LearnedAccumulator& from, const Position& p, const LearnedWeights& w) {
  const std::size_t v = index(from.view_);
  const Bitboard white = p.pieces(Color::White);
  const Bitboard black = p.pieces(Color::Black);
  const Bitboard kings = p.kings();
  SumsBlock block;
  block.load_from(from.sums_.data());
  // One pass over the squares that differ, without a branch on what they held: an empty square
  // adds or takes off a row of zeros.
  for (Bitboard changed = (from.white_ ^ white) | (from.black_ ^ black) | (from.kings_ ^ kings); changed;) {
    const Square s = pop_lowest(changed);
    block.subtract(row_at(w, v, from.white_, from.black_, from.kings_, s));
    block.add(row_at(w, v, white, black, kings, s));
  }
  block.store_to(sums_);
  white_ = white;
  black_ = black;
  kings_ = kings;
  view_ = from.view_;
}

Score LearnedAccumulator::evaluate(const LearnedWeights& w) const { return output_layers(sums_, w); }

Score LearnedEvalStack::evaluate(std::size_t ply, const Position& p) {
  const Color view = p.side_to_move();
  LearnedAccumulator& acc = acc_[ply];
  const LearnedAccumulator* from = &acc;
  // Not the same view: as far as a position can be.
  constexpr int kFar = kBitboardBits;
  int distance = acc.view() == view ? acc.distance(p) : kFar;
  if (ply >= 2 && acc_[ply - 2].view() == view) {
    const int up = acc_[ply - 2].distance(p);
    if (up < distance) {
      from = &acc_[ply - 2];
      distance = up;
    }
  }
  // About one row per differing square against one per piece from scratch.
  if (distance < popcount(p.occupied())) acc.update(*from, p, w_);
  else acc.refresh(p, view, w_);
  return acc.evaluate(w_);
}

}  // namespace damas
