// The slice file: writer and reader side by side (format in egdb.h).
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "damas/core/binary_io.h"
#include "damas/core/file_check.h"
#include "damas/egdb/egdb.h"

namespace damas::egdb {
namespace {

constexpr char kMagic[8] = {'D', 'A', 'M', 'A', 'S', 'E', 'G', 'D'};
constexpr std::uint8_t kBlockUnchecked = 0, kBlockSound = 1, kBlockMalformed = 2;

constexpr bool game_types_fit_a_byte() {
  for (const Variant v : kVariants)
    if (rules::of(v).pdn_game_type < 0 || rules::of(v).pdn_game_type > 255) return false;
  return true;
}
static_assert(game_types_fit_a_byte(), "a slice file stores its variant's PDN GameType in one byte");

class Writer {
 public:
  template <typename T>
  void put(T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::vector<std::uint8_t> out;
};

class Reader {
 public:
  Reader(const std::vector<std::uint8_t>& data, std::size_t end) : data_(data), end_(end) {}
  template <typename T>
  bool get(T& v) {
    if (pos_ + sizeof(T) > end_) return false;
    std::uint64_t x = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) x |= std::uint64_t{data_[pos_ + i]} << (8 * i);
    v = static_cast<T>(x);
    pos_ += sizeof(T);
    return true;
  }
  std::size_t pos() const { return pos_; }

 private:
  const std::vector<std::uint8_t>& data_;
  std::size_t end_;
  std::size_t pos_ = 0;
};

class BitWriter {
 public:
  void put(std::uint32_t code, int length) {
    for (int b = length - 1; b >= 0; --b) {
      if (bits_ % 8 == 0) bytes.push_back(0);
      if ((code >> b) & 1U) bytes.back() |= static_cast<std::uint8_t>(0x80U >> (bits_ % 8));
      ++bits_;
    }
  }
  std::uint64_t bits() const { return bits_; }
  std::vector<std::uint8_t> bytes;

 private:
  std::uint64_t bits_ = 0;
};

// The tokens of codes[first, last): each code, then its repeats as run tokens and literals.
template <typename Emit>
void tokenize(const std::vector<Code>& codes, std::uint64_t first, std::uint64_t last, Emit&& emit) {
  for (std::uint64_t i = first; i < last;) {
    std::uint64_t j = i + 1;
    while (j < last && codes[j] == codes[i]) ++j;
    emit(static_cast<int>(codes[i]));
    std::uint64_t rest = j - i - 1;
    for (std::size_t k = kRunLengths.size(); k-- > 0;)
      for (; rest >= kRunLengths[k]; rest -= kRunLengths[k]) emit(256 + static_cast<int>(k));
    for (; rest > 0; --rest) emit(static_cast<int>(codes[i]));
    i = j;
  }
}

// The kMaxCodeLength bits of payload from `bit` on, the first one highest (zeros past its end).
std::uint32_t window_at(const std::vector<std::uint8_t>& payload, std::uint64_t bit) {
  std::uint64_t bytes = 0;
  const std::size_t first = static_cast<std::size_t>(bit / 8);
  for (std::size_t i = 0; i < 5; ++i)
    bytes = (bytes << 8) | (first + i < payload.size() ? payload[first + i] : 0u);
  return static_cast<std::uint32_t>((bytes >> (40 - kMaxCodeLength - bit % 8)) &
                                    ((1u << kMaxCodeLength) - 1));
}

// Walks the tokens of one block from `bit` on; visit(code, count, token_bit) for each; false on
// malformed data. `last` is the code a run token at `bit` repeats (-1 at a block's start).
template <typename Visit>
bool walk_block(const CanonicalCode& huff, const std::vector<std::uint8_t>& payload, std::uint64_t bit,
                std::uint64_t end_bit, Visit&& visit, int last = -1) {
  while (bit < end_bit) {
    const std::uint64_t token_bit = bit;
    const CanonicalCode::Decoded d = huff.decode(window_at(payload, bit));
    if (d.symbol < 0 || static_cast<std::uint64_t>(d.length) > end_bit - bit) return false;
    bit += static_cast<std::uint64_t>(d.length);
    if (d.symbol < 256) last = d.symbol;
    else if (last < 0) return false;
    const std::uint64_t count = d.symbol < 256 ? 1 : kRunLengths[static_cast<std::size_t>(d.symbol - 256)];
    if (!visit(static_cast<Code>(last), count, token_bit)) return true;
  }
  return true;
}

std::uint64_t block_count(std::uint64_t size) { return (2 * size + kBlockSize - 1) / kBlockSize; }

}  // namespace

SliceFile SliceFile::from_codes(const Material& m, Variant variant, const std::vector<Code>& codes,
                                const std::array<SideStats, 2>& stats) {
  SliceFile f;
  f.material_ = m;
  f.variant_ = variant;
  f.size_ = codes.size() / 2;
  f.stats_ = stats;
  const std::uint64_t blocks = block_count(f.size_);
  const auto block_end = [&](std::uint64_t b) {
    return std::min<std::uint64_t>((b + 1) * kBlockSize, codes.size());
  };
  std::vector<std::uint64_t> freq(kSymbols, 0);
  for (std::uint64_t b = 0; b < blocks; ++b)
    tokenize(codes, b * kBlockSize, block_end(b), [&](int s) { ++freq[static_cast<std::size_t>(s)]; });
  f.lengths_ = huffman_lengths(freq);
  f.huffman_ = CanonicalCode(f.lengths_);
  BitWriter out;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    f.offsets_.push_back(out.bits());
    tokenize(codes, b * kBlockSize, block_end(b),
             [&](int s) { out.put(f.huffman_.code(s), f.huffman_.length(s)); });
  }
  f.offsets_.push_back(out.bits());
  f.payload_ = std::move(out.bytes);
  f.reset_block_states();
  return f;
}

std::vector<std::uint8_t> SliceFile::serialize() const {
  Writer w;
  w.out.insert(w.out.end(), std::begin(kMagic), std::end(kMagic));
  w.put(kFileVersion);
  w.put(static_cast<std::uint8_t>(rules::of(variant_).pdn_game_type));
  for (int n : {material_.wm, material_.wk, material_.bm, material_.bk}) w.put(static_cast<std::uint8_t>(n));
  w.put(size_);
  w.put(kBlockSize);
  w.put(static_cast<std::uint64_t>(offsets_.size() - 1));
  for (const SideStats& s : stats_) {
    for (std::uint64_t v : {s.positions, s.win, s.draw, s.loss}) w.put(v);
    w.put(static_cast<std::int32_t>(s.longest));
  }
  for (std::uint8_t l : lengths_) w.put(l);
  for (std::uint64_t o : offsets_) w.put(o);
  w.put(static_cast<std::uint64_t>(payload_.size()));
  w.out.insert(w.out.end(), payload_.begin(), payload_.end());
  w.put(fnv1a64(w.out.data(), w.out.size()));
  return w.out;
}

std::uint64_t SliceFile::bytes() const {
  const std::uint64_t variant_byte = version_ == kFileVersion ? 1 : 0;
  return 8 + 4 + variant_byte + 4 + 8 + 4 + 8 + 2 * (4 * 8 + 4) + kSymbols + 8 * offsets_.size() + 8 +
         payload_.size() + 8;
}

Status SliceFile::write(const std::string& path) const {
  const std::vector<std::uint8_t> data = serialize();
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Error{tmp + ": cannot create"};
    out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    out.flush();
    if (!out) return Error{tmp + ": write failed"};
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Error{path + ": cannot rename from " + tmp + ": " + ec.message()};
  return Ok{};
}

Expected<SliceFile> SliceFile::read_slice(const std::string& dir, const Material& m, Variant variant,
                                          BlockCheck check) {
  const std::string path = slice_path(dir, m);
  Expected<SliceFile> f = read(path, check);
  if (f && f->material() != m) return Error{path + ": holds slice " + slice_name(f->material())};
  if (f && f->variant() != variant)
    return Error{path + ": holds " + std::string(to_string(f->variant())) + " values, not " +
                 std::string(to_string(variant))};
  return f;
}

Expected<SliceFile> SliceFile::read(const std::string& path, BlockCheck check) {
  Expected<std::vector<std::uint8_t>> read =
      read_checked_bytes(path, "endgame database file", file_limit::kDatabaseSlice);
  if (!read) return Error{read.error()};
  std::vector<std::uint8_t>& data = *read;
  const auto bad = [&path](const std::string& why) {
    return Error{path + ": not a sound slice file: " + why};
  };
  if (data.size() < sizeof kMagic + 8 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    return bad("bad magic");
  const std::size_t body = data.size() - 8;
  if (get_le(&data[body], 8) != fnv1a64(data.data(), body)) return bad("checksum mismatch");
  Reader r(data, body);
  std::array<std::uint8_t, 8> magic{};
  for (auto& b : magic) r.get(b);
  std::uint32_t version = 0, block = 0;
  std::array<std::uint8_t, 4> mat{};
  SliceFile f;
  std::uint64_t blocks = 0;
  if (!r.get(version) || (version != kFileVersion && version != kBrazilianOnlyFileVersion))
    return bad("version " + std::to_string(version));
  f.version_ = version;
  if (version == kFileVersion) {
    std::uint8_t game_type = 0;
    const std::optional<Variant> variant = r.get(game_type) ? variant_of_game_type(game_type) : std::nullopt;
    if (!variant) return bad("unknown variant (PDN GameType " + std::to_string(game_type) + ")");
    f.variant_ = *variant;
  }
  for (auto& b : mat) r.get(b);
  f.material_ = Material{mat[0], mat[1], mat[2], mat[3]};
  if (!r.get(f.size_) || !r.get(block) || !r.get(blocks)) return bad("truncated header");
  if (f.material_.pieces() > 2 * rules::kMaxPiecesPerSide || SliceIndex(f.material_).size() != f.size_)
    return bad("size does not match the material");
  if (block != kBlockSize || blocks != block_count(f.size_)) return bad("bad block layout");
  for (SideStats& s : f.stats_) {
    std::int32_t longest = 0;
    if (!r.get(s.positions) || !r.get(s.win) || !r.get(s.draw) || !r.get(s.loss) || !r.get(longest))
      return bad("truncated header");
    s.longest = longest;
  }
  f.lengths_.resize(kSymbols);
  for (std::uint8_t& l : f.lengths_)
    if (!r.get(l) || l > kMaxCodeLength) return bad("bad code table");
  if (blocks + 2 > (body - r.pos()) / 8) return bad("truncated block index");
  f.offsets_.resize(blocks + 1);
  for (std::uint64_t& o : f.offsets_) r.get(o);
  std::uint64_t payload_bytes = 0;
  r.get(payload_bytes);
  const std::size_t payload_start = r.pos();
  if (payload_bytes != body - payload_start || f.offsets_.front() != 0 ||
      f.offsets_.back() > 8 * payload_bytes)
    return bad("bad block index");
  // The payload is the file's bytes less header and checksum: moved, not copied (6 pieces: 1 GB).
  data.resize(body);
  data.erase(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(payload_start));
  f.payload_ = std::move(data);
  f.huffman_ = CanonicalCode(f.lengths_);
  for (std::uint64_t b = 0; b < blocks; ++b)
    if (f.offsets_[b + 1] < f.offsets_[b]) return bad("bad block index");
  f.reset_block_states();
  if (check == BlockCheck::Every)
    for (std::uint64_t b = 0; b < blocks; ++b)
      if (!f.block_checked(b)) return bad("block " + std::to_string(b) + " is malformed");
  return f;
}

void SliceFile::reset_block_states() {
  const std::size_t blocks = offsets_.size() - 1;
  block_states_ = std::make_unique<std::atomic<std::uint8_t>[]>(blocks);
  for (std::size_t b = 0; b < blocks; ++b) block_states_[b].store(kBlockUnchecked, std::memory_order_relaxed);
  checkpoints_ = std::make_unique<std::atomic<std::uint64_t>[]>(blocks * (kCheckpoints - 1));
}

bool SliceFile::block_checked(std::uint64_t b) const {
  std::uint8_t state = block_states_[b].load(std::memory_order_acquire);
  if (state == kBlockUnchecked) {  // two threads may both decode it: the same answer
    state = scan_block(b) ? kBlockSound : kBlockMalformed;
    block_states_[b].store(state, std::memory_order_release);
  }
  return state == kBlockSound;
}

// A checkpoint packs the token that holds position k * kCheckpointEvery of a block: its bit offset
// in the block (< 2^20), how many of its positions come before (< 2^11), its code (8 bits).
bool SliceFile::scan_block(std::uint64_t b) const {
  const std::uint64_t want = std::min<std::uint64_t>(kBlockSize, 2 * size_ - b * kBlockSize);
  std::uint64_t got = 0;
  std::uint32_t next = 1;
  const auto visit = [&](Code c, std::uint64_t n, std::uint64_t token_bit) {
    for (; next < kCheckpoints && next * kCheckpointEvery < got + n; ++next) {
      const std::uint64_t before = next * kCheckpointEvery - got;
      const std::uint64_t packed = (token_bit - offsets_[b]) | before << 20 | std::uint64_t{c} << 31;
      checkpoints_[b * (kCheckpoints - 1) + next - 1].store(packed, std::memory_order_relaxed);
    }
    got += n;
    return true;
  };
  return walk_block(huffman_, payload_, offsets_[b], offsets_[b + 1], visit) && got == want &&
         offsets_[b + 1] - offsets_[b] < (1u << 20);
}

std::optional<Code> SliceFile::code_at(std::uint64_t index, Color side_to_move) const {
  const std::uint64_t i = (side_to_move == Color::White ? 0 : size_) + index;
  const std::uint64_t b = i / kBlockSize;
  if (!block_checked(b)) return std::nullopt;
  std::uint64_t skip = i % kBlockSize;
  std::uint64_t bit = offsets_[b];
  int last = -1;
  if (const std::uint64_t k = skip / kCheckpointEvery; k > 0) {  // start at the checkpoint before i
    const std::uint64_t packed = checkpoints_[b * (kCheckpoints - 1) + k - 1].load(std::memory_order_relaxed);
    bit += packed & ((1u << 20) - 1);
    skip = skip - k * kCheckpointEvery + (packed >> 20 & ((1u << 11) - 1));
    last = static_cast<int>(packed >> 31 & 0xff);
  }
  Code found = kDrawCode;
  const auto visit = [&](Code c, std::uint64_t n, std::uint64_t) {
    if (skip < n) {
      found = c;
      return false;
    }
    skip -= n;
    return true;
  };
  walk_block(huffman_, payload_, bit, offsets_[b + 1], visit, last);
  return found;
}

std::vector<Code> SliceFile::decode_all() const {
  std::vector<Code> out;
  out.reserve(2 * size_);
  for (std::size_t b = 0; b + 1 < offsets_.size(); ++b)
    walk_block(huffman_, payload_, offsets_[b], offsets_[b + 1], [&](Code c, std::uint64_t n, std::uint64_t) {
      out.insert(out.end(), n, c);
      return true;
    });
  return out;
}

}  // namespace damas::egdb
