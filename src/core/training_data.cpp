#include "damas/core/training_data.h"

#include <array>
#include <cstring>
#include <filesystem>

#include "damas/core/file_check.h"
#include "damas/core/game_field.h"

namespace damas {
namespace {

constexpr std::array<char, 8> kMagic = {'D', 'A', 'M', 'A', 'S', 'T', 'D', '\0'};

int result_code(GameResult r) { return r == GameResult::WhiteWins ? 2 : r == GameResult::BlackWins ? 0 : 1; }

std::array<unsigned char, kTrainingRecordBytes> encode(const TrainingRecord& r) {
  std::array<unsigned char, kTrainingRecordBytes> b{};
  const Position& p = r.position;
  put_le(&b[0], to_square_mask(p.pieces(Color::White)), 4);
  put_le(&b[4], to_square_mask(p.pieces(Color::Black)), 4);
  put_le(&b[8], to_square_mask(p.kings()), 4);
  put_le(&b[12], static_cast<std::uint16_t>(static_cast<std::int16_t>(r.score)), 2);
  b[14] = static_cast<unsigned char>((p.side_to_move() == Color::Black ? 1 : 0) |
                                     (result_code(r.result) << 1) | (r.first_of_game ? 8 : 0));
  b[15] = static_cast<unsigned char>(std::clamp(r.ply, 0, 255));
  return b;
}

Expected<TrainingRecord> decode(const unsigned char* b, Variant variant) {
  const auto white = static_cast<std::uint32_t>(get_le(&b[0], 4));
  const auto black = static_cast<std::uint32_t>(get_le(&b[4], 4));
  const auto kings = static_cast<std::uint32_t>(get_le(&b[8], 4));
  const int flags = b[14];
  if ((white & black) || (kings & ~(white | black))) return Error{"pieces overlap"};
  if (flags >> 4 || ((flags >> 1) & 3) == 3) return Error{"bad flags"};
  if (std::popcount(white) > rules::kMenPerSide || std::popcount(black) > rules::kMenPerSide)
    return Error{"too many pieces"};
  TrainingRecord r;
  const Color side = (flags & 1) ? Color::Black : Color::White;
  r.position =
      Position::from_pieces(from_square_mask(white), from_square_mask(black), from_square_mask(kings), side)
          .with_variant(variant);
  r.score = static_cast<std::int16_t>(get_le(&b[12], 2));
  const int result = (flags >> 1) & 3;
  r.result = result == 2 ? GameResult::WhiteWins : result == 0 ? GameResult::BlackWins : GameResult::Draw;
  r.first_of_game = (flags & 8) != 0;
  r.ply = b[15];
  return r;
}

static_assert(kTrainingHeaderBytes == kGameFieldOffset + kGameFieldBytes);

std::uint64_t checksum_start(Variant variant) {
  const auto field = game_field(variant);
  return fnv1a64(field.data(), field.size());
}

std::array<unsigned char, kTrainingHeaderBytes> header(std::uint64_t count, std::uint64_t checksum,
                                                       Variant variant) {
  std::array<unsigned char, kTrainingHeaderBytes> h{};
  std::memcpy(h.data(), kMagic.data(), kMagic.size());
  put_le(&h[8], kTrainingDataVersion, 4);
  put_le(&h[12], kTrainingRecordBytes, 4);
  put_le(&h[16], count, 8);
  put_le(&h[24], checksum, 8);
  const auto field = game_field(variant);
  std::memcpy(&h[kGameFieldOffset], field.data(), field.size());
  return h;
}

struct Layout {
  std::size_t header_bytes;
  Variant variant;
};

// Where the records start and which game they are, from the version; checked against the bytes.
Expected<Layout> read_layout(const std::vector<unsigned char>& bytes) {
  if (bytes.size() < kGameFieldOffset) return Error{"too short for a training-data header"};
  if (std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0)
    return Error{"not a damas training-data file"};
  const std::uint64_t version = get_le(&bytes[8], 4);
  if (version == 1) return Layout{kGameFieldOffset, Variant::Brazilian};
  if (version != kTrainingDataVersion)
    return Error{"version " + std::to_string(version) + ", this build reads versions 1 and " +
                 std::to_string(kTrainingDataVersion)};
  if (bytes.size() < kTrainingHeaderBytes) return Error{"too short for a training-data header"};
  const Expected<Variant> variant = read_game_field(&bytes[kGameFieldOffset]);
  if (!variant) return Error{variant.error()};
  return Layout{kTrainingHeaderBytes, *variant};
}

}  // namespace

std::uint32_t to_square_mask(Bitboard b) {
  std::uint32_t m = 0;
  while (b) m |= std::uint32_t{1} << (square_number(pop_lowest(b)) - 1);
  return m;
}

Bitboard from_square_mask(std::uint32_t m) {
  Bitboard b = 0;
  for (int i = 0; i < rules::kBoardSquares; ++i)
    if (m >> i & 1) b |= bb(square_from_number(i + 1));
  return b;
}

Expected<TrainingDataWriter> TrainingDataWriter::create(const std::string& path, Variant variant) {
  if (Status s = check_output_file(path, "training data"); !s) return Error{s.error()};
  TrainingDataWriter w;
  w.path_ = path;
  w.variant_ = variant;
  w.checksum_ = checksum_start(variant);
  w.out_.open(path, std::ios::binary | std::ios::trunc);
  if (!w.out_) return Error{"cannot write " + path};
  const auto h = header(0, w.checksum_, variant);  // rewritten by finish()
  w.out_.write(reinterpret_cast<const char*>(h.data()), static_cast<std::streamsize>(h.size()));
  return w;
}

Status TrainingDataWriter::write(const TrainingRecord& r) {
  if (r.position.variant() != variant_)
    return Error{path_ + " holds " + std::string(to_string(variant_)) + " positions, not " +
                 std::string(to_string(r.position.variant()))};
  const auto b = encode(r);
  checksum_ = fnv1a64(b.data(), b.size(), checksum_);
  out_.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  ++count_;
  if (!out_) return Error{"write error on " + path_};
  return Ok{};
}

Status TrainingDataWriter::finish() {
  const auto h = header(count_, checksum_, variant_);
  out_.seekp(0);
  out_.write(reinterpret_cast<const char*>(h.data()), static_cast<std::streamsize>(h.size()));
  out_.close();
  if (!out_) return Error{"write error on " + path_};
  return Ok{};
}

Expected<std::vector<TrainingRecord>> read_training_data(const std::string& path) {
  const Expected<std::vector<unsigned char>> read =
      read_checked_bytes(path, "training data", file_limit::kTrainingData);
  if (!read) return Error{read.error()};
  const std::vector<unsigned char>& bytes = *read;
  const std::string where = path + ": ";
  const Expected<Layout> layout = read_layout(bytes);
  if (!layout) return Error{where + layout.error()};
  if (get_le(&bytes[12], 4) != kTrainingRecordBytes) return Error{where + "unexpected record size"};
  const std::uint64_t count = get_le(&bytes[16], 8);
  if ((bytes.size() - layout->header_bytes) / kTrainingRecordBytes != count ||
      (bytes.size() - layout->header_bytes) % kTrainingRecordBytes != 0)
    return Error{where + "size does not match " + std::to_string(count) +
                 " records (truncated or unfinished)"};
  // Version 2 sums the game field with the records; version 1 the records only, from the same byte.
  if (fnv1a64(bytes.data() + kGameFieldOffset, bytes.size() - kGameFieldOffset) != get_le(&bytes[24], 8))
    return Error{where + "checksum mismatch"};
  const unsigned char* records = bytes.data() + layout->header_bytes;
  std::vector<TrainingRecord> out;
  out.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    Expected<TrainingRecord> r = decode(records + i * kTrainingRecordBytes, layout->variant);
    if (!r) return Error{where + "record " + std::to_string(i) + ": " + r.error()};
    out.push_back(*r);
  }
  return out;
}

}  // namespace damas
