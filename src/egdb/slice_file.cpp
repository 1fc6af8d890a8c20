// The slice file: writer and reader side by side (format in egdb.h).
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "damas/egdb/egdb.h"

namespace damas::egdb {
namespace {

constexpr char kMagic[8] = {'D', 'A', 'M', 'A', 'S', 'E', 'G', 'D'};

std::uint64_t fnv1a(const std::uint8_t* data, std::size_t n) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= data[i];
    h *= 0x100000001B3ULL;
  }
  return h;
}

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

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

// One run (code, length) from p; false at the end of the data or on a malformed varint.
bool get_run(const std::uint8_t*& p, const std::uint8_t* end, Code& code, std::uint64_t& length) {
  if (p >= end) return false;
  code = *p++;
  std::uint64_t v = 0;
  for (int shift = 0; shift < 63; shift += 7) {
    if (p >= end) return false;
    const std::uint8_t b = *p++;
    v |= std::uint64_t{b & 0x7FU} << shift;
    if (!(b & 0x80)) {
      length = v + 1;
      return true;
    }
  }
  return false;
}

std::uint64_t block_count(std::uint64_t size) { return (2 * size + kBlockSize - 1) / kBlockSize; }

}  // namespace

SliceFile SliceFile::from_codes(const Material& m, const std::vector<Code>& codes,
                                const std::array<SideStats, 2>& stats) {
  SliceFile f;
  f.material_ = m;
  f.size_ = codes.size() / 2;
  f.stats_ = stats;
  const std::uint64_t blocks = block_count(f.size_);
  for (std::uint64_t b = 0; b < blocks; ++b) {
    f.offsets_.push_back(f.payload_.size());
    const std::uint64_t first = b * kBlockSize;
    const std::uint64_t last = std::min<std::uint64_t>(first + kBlockSize, codes.size());
    for (std::uint64_t i = first; i < last;) {
      std::uint64_t j = i + 1;
      while (j < last && codes[j] == codes[i]) ++j;
      f.payload_.push_back(codes[i]);
      put_varint(f.payload_, j - i - 1);
      i = j;
    }
  }
  f.offsets_.push_back(f.payload_.size());
  return f;
}

std::vector<std::uint8_t> SliceFile::serialize() const {
  Writer w;
  w.out.insert(w.out.end(), std::begin(kMagic), std::end(kMagic));
  w.put(kFileVersion);
  for (int n : {material_.wm, material_.wk, material_.bm, material_.bk}) w.put(static_cast<std::uint8_t>(n));
  w.put(size_);
  w.put(kBlockSize);
  w.put(static_cast<std::uint64_t>(offsets_.size() - 1));
  for (const SideStats& s : stats_) {
    for (std::uint64_t v : {s.positions, s.win, s.draw, s.loss}) w.put(v);
    w.put(static_cast<std::int32_t>(s.longest));
  }
  for (std::uint64_t o : offsets_) w.put(o);
  w.out.insert(w.out.end(), payload_.begin(), payload_.end());
  w.put(fnv1a(w.out.data(), w.out.size()));
  return w.out;
}

std::uint64_t SliceFile::bytes() const {
  return 8 + 4 + 4 + 8 + 4 + 8 + 2 * (4 * 8 + 4) + 8 * offsets_.size() + payload_.size() + 8;
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

Expected<SliceFile> SliceFile::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open"};
  const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(in)),
                                       std::istreambuf_iterator<char>());
  const auto bad = [&path](const std::string& why) {
    return Error{path + ": not a sound slice file: " + why};
  };
  if (data.size() < sizeof kMagic + 8 || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    return bad("bad magic");
  const std::size_t body = data.size() - 8;
  std::uint64_t stored = 0;
  for (std::size_t i = 0; i < 8; ++i) stored |= std::uint64_t{data[body + i]} << (8 * i);
  if (stored != fnv1a(data.data(), body)) return bad("checksum mismatch");
  Reader r(data, body);
  std::array<std::uint8_t, 8> magic{};
  for (auto& b : magic) r.get(b);
  std::uint32_t version = 0, block = 0;
  std::array<std::uint8_t, 4> mat{};
  SliceFile f;
  std::uint64_t blocks = 0;
  if (!r.get(version) || version != kFileVersion) return bad("version " + std::to_string(version));
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
  if (blocks + 1 > (body - r.pos()) / 8) return bad("truncated block index");
  f.offsets_.resize(blocks + 1);
  for (std::uint64_t& o : f.offsets_) r.get(o);
  const std::size_t payload_start = r.pos();
  if (f.offsets_.front() != 0 || f.offsets_.back() != body - payload_start) return bad("bad block index");
  f.payload_.assign(data.begin() + static_cast<std::ptrdiff_t>(payload_start),
                    data.begin() + static_cast<std::ptrdiff_t>(body));
  // Every block must decode to exactly its number of positions.
  for (std::uint64_t b = 0; b < blocks; ++b) {
    if (f.offsets_[b + 1] < f.offsets_[b]) return bad("bad block index");
    const std::uint8_t* p = f.payload_.data() + f.offsets_[b];
    const std::uint8_t* end = f.payload_.data() + f.offsets_[b + 1];
    const std::uint64_t want = std::min<std::uint64_t>(kBlockSize, 2 * f.size_ - b * kBlockSize);
    std::uint64_t got = 0;
    Code c = 0;
    std::uint64_t len = 0;
    while (p < end) {
      if (!get_run(p, end, c, len)) return bad("block " + std::to_string(b) + " is malformed");
      got += len;
    }
    if (got != want) return bad("block " + std::to_string(b) + " has the wrong length");
  }
  return f;
}

Code SliceFile::code_at(std::uint64_t index, Color side_to_move) const {
  const std::uint64_t i = (side_to_move == Color::White ? 0 : size_) + index;
  const std::uint64_t b = i / kBlockSize;
  std::uint64_t skip = i % kBlockSize;
  const std::uint8_t* p = payload_.data() + offsets_[b];
  const std::uint8_t* end = payload_.data() + offsets_[b + 1];
  Code c = kDrawCode;
  std::uint64_t len = 0;
  while (get_run(p, end, c, len)) {
    if (skip < len) return c;
    skip -= len;
  }
  return kDrawCode;  // unreachable for a file that passed read()
}

std::vector<Code> SliceFile::decode_all() const {
  std::vector<Code> out;
  out.reserve(2 * size_);
  const std::uint8_t* p = payload_.data();
  const std::uint8_t* end = payload_.data() + payload_.size();
  Code c = kDrawCode;
  std::uint64_t len = 0;
  while (get_run(p, end, c, len)) out.insert(out.end(), len, c);
  return out;
}

}  // namespace damas::egdb
