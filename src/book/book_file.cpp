#include "damas/book/book_file.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "damas/core/binary_io.h"
#include "damas/core/file_check.h"
#include "damas/core/input_echo.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/training_data.h"

namespace damas::book {
namespace {

constexpr std::array<char, 8> kMagic = {'D', 'A', 'M', 'A', 'S', 'B', 'K', '\0'};
constexpr std::size_t kVariantBytes = 16;
constexpr std::size_t kChecksumAt = 56;

std::uint64_t checksum_of(const std::vector<unsigned char>& bytes) {
  const std::uint64_t head = fnv1a64(bytes.data(), kChecksumAt);
  return fnv1a64(bytes.data() + kChecksumAt + 8, bytes.size() - kChecksumAt - 8, head);
}

void append_header(std::vector<unsigned char>& out, const Book& book) {
  out.insert(out.end(), kMagic.begin(), kMagic.end());
  append_le(out, kBookVersion, 4);
  std::array<unsigned char, kVariantBytes> variant{};
  const std::string_view name = to_string(book.variant);
  static_assert(std::all_of(std::begin(kVariants), std::end(kVariants),
                            [](Variant v) { return to_string(v).size() < kVariantBytes; }));
  std::memcpy(variant.data(), name.data(), name.size());
  out.insert(out.end(), variant.begin(), variant.end());
  append_le(out, book.size(), 4);
  append_le(out, book.move_count(), 4);
  append_le(out, book.settings.nodes, 8);
  append_le(out, static_cast<std::uint32_t>(book.settings.max_ply), 4);
  append_le(out, static_cast<std::uint32_t>(book.settings.margin), 4);
  append_le(out, static_cast<std::uint32_t>(book.settings.ply_cost), 4);
  append_le(out, 0, 8);  // the checksum, written last
}

void append_entry(std::vector<unsigned char>& out, const BookEntry& e) {
  const Position& p = e.position;
  append_le(out, to_square_mask(p.pieces(Color::White)), 4);
  append_le(out, to_square_mask(p.pieces(Color::Black)), 4);
  append_le(out, to_square_mask(p.kings()), 4);
  out.push_back(p.side_to_move() == Color::Black ? 1 : 0);
  out.push_back(static_cast<unsigned char>(std::clamp(e.ply, 0, 255)));
  append_le(out, e.moves.size(), 2);
  for (const BookMove& m : e.moves) {
    out.push_back(static_cast<unsigned char>(square_number(m.move.from)));
    out.push_back(static_cast<unsigned char>(square_number(m.move.to)));
    append_le(out, to_square_mask(m.move.captured), 4);
    append_le(out, static_cast<std::uint16_t>(static_cast<std::int16_t>(m.score)), 2);
    out.push_back(static_cast<unsigned char>(std::clamp(m.depth, 0, 255)));
    out.push_back(m.in_book ? 1 : 0);
    append_le(out, m.expansions, 4);
  }
}

struct Header {
  Variant variant = Variant::Brazilian;
  std::uint64_t positions = 0;
  std::uint64_t moves = 0;
  BuildSettings settings;
};

Expected<Header> read_header(const std::vector<unsigned char>& b, const std::string& where) {
  if (b.size() < kBookHeaderBytes) return Error{where + "too short for an opening book (truncated?)"};
  if (std::memcmp(b.data(), kMagic.data(), kMagic.size()) != 0)
    return Error{where + "not a damas opening book"};
  const std::uint64_t version = get_le(&b[8], 4);
  if (version != kBookVersion)
    return Error{where + "book version " + std::to_string(version) + ", this damas reads version " +
                 std::to_string(kBookVersion)};
  const auto* name_bytes = reinterpret_cast<const char*>(&b[12]);
  const std::string name(name_bytes, std::find(name_bytes, name_bytes + kVariantBytes, '\0'));
  const std::optional<Variant> variant = parse_variant(name);
  if (!variant ||
      std::any_of(name_bytes + name.size(), name_bytes + kVariantBytes, [](char c) { return c != 0; }))
    return Error{where + "a book for \"" + echo_input(name) + "\", a game this damas does not play"};
  Header h;
  h.variant = *variant;
  h.positions = get_le(&b[28], 4);
  h.moves = get_le(&b[32], 4);
  if (b.size() != kBookHeaderBytes + h.positions * kBookPositionBytes + h.moves * kBookMoveBytes)
    return Error{where + "the size does not match " + std::to_string(h.positions) + " positions and " +
                 std::to_string(h.moves) + " moves (truncated?)"};
  if (checksum_of(b) != get_le(&b[kChecksumAt], 8)) return Error{where + "checksum mismatch (damaged file)"};
  const std::uint64_t max_ply = get_le(&b[44], 4);
  const std::uint64_t margin = get_le(&b[48], 4);
  const std::uint64_t ply_cost = get_le(&b[52], 4);
  if (max_ply > 255 || margin > kScoreWin || ply_cost > kScoreWin)
    return Error{where + "the builder's settings are out of range"};
  h.settings = {get_le(&b[36], 8), static_cast<int>(max_ply), static_cast<Score>(margin),
                static_cast<Score>(ply_cost)};
  return h;
}

Expected<Position> decode_position(const unsigned char* b, Variant variant) {
  const auto white = static_cast<std::uint32_t>(get_le(&b[0], 4));
  const auto black = static_cast<std::uint32_t>(get_le(&b[4], 4));
  const auto kings = static_cast<std::uint32_t>(get_le(&b[8], 4));
  if ((white & black) || (kings & ~(white | black))) return Error{"pieces overlap"};
  if (b[12] > 1) return Error{"bad flags"};
  if (std::popcount(white) > rules::kMenPerSide || std::popcount(black) > rules::kMenPerSide)
    return Error{"too many pieces"};
  const Position p = Position::from_pieces(from_square_mask(white), from_square_mask(black),
                                           from_square_mask(kings), b[12] ? Color::Black : Color::White)
                         .with_variant(variant);
  if ((p.men(Color::White) & kWhitePromotionRow) || (p.men(Color::Black) & kBlackPromotionRow))
    return Error{"a man on its promotion row"};
  return p;
}

Expected<BookMove> decode_move(const unsigned char* b, const Position& p) {
  const int from = b[0];
  const int to = b[1];
  if (from < 1 || from > rules::kBoardSquares || to < 1 || to > rules::kBoardSquares || b[9] > 1)
    return Error{"a move out of range"};
  BookMove m;
  m.move = Move{from_square_mask(static_cast<std::uint32_t>(get_le(&b[2], 4))), square_from_number(from),
                square_from_number(to)};
  if (!is_legal(p, m.move)) return Error{"move " + to_hub_move(m.move) + " is not legal"};
  m.score = static_cast<std::int16_t>(get_le(&b[6], 2));
  if (m.score < -kScoreWin || m.score > kScoreWin) return Error{"a score out of range"};
  m.depth = b[8];
  m.in_book = b[9] == 1;
  m.expansions = static_cast<std::uint32_t>(get_le(&b[10], 4));
  return m;
}

// One position and its moves at `at`, which moves past them.
Expected<BookEntry> decode_entry(const std::vector<unsigned char>& b, std::size_t& at, Variant variant) {
  if (at + kBookPositionBytes > b.size()) return Error{"the moves run past the end"};
  Expected<Position> p = decode_position(&b[at], variant);
  if (!p) return Error{p.error()};
  BookEntry e{*p, b[at + 13], {}};
  const std::size_t n = get_le(&b[at + 14], 2);
  at += kBookPositionBytes;
  if (at + n * kBookMoveBytes > b.size()) return Error{"the moves run past the end"};
  for (std::size_t i = 0; i < n; ++i, at += kBookMoveBytes) {
    Expected<BookMove> m = decode_move(&b[at], e.position);
    if (!m) return Error{m.error()};
    for (const BookMove& seen : e.moves)
      if (seen.move == m->move) return Error{"move " + to_hub_move(m->move) + " twice"};
    e.moves.push_back(*m);
  }
  return e;
}

// Every move in the book leads to a position of the book, and those moves never come back to a
// position (depth-first, iterative: a hostile file cannot exhaust the stack).
Status check_links(const Book& book, const std::string& where) {
  std::vector<std::vector<std::size_t>> children(book.size());
  for (std::size_t i = 0; i < book.size(); ++i) {
    const BookEntry& e = book.entry(i);
    for (const BookMove& m : e.moves) {
      if (!m.in_book) continue;
      const std::optional<std::size_t> child = book.index_of(e.position.after(m.move));
      if (!child)
        return Error{where + "position " + std::to_string(i) + ": move " + to_hub_move(m.move) +
                     " is marked in the book but its position is missing"};
      children[i].push_back(*child);
    }
  }
  enum : unsigned char { kNew, kOpen, kDone };
  std::vector<unsigned char> state(book.size(), kNew);
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // (position, next child)
  for (std::size_t root = 0; root < book.size(); ++root) {
    if (state[root] != kNew) continue;
    stack.push_back({root, 0});
    state[root] = kOpen;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == children[node].size()) {
        state[node] = kDone;
        stack.pop_back();
        continue;
      }
      const std::size_t child = children[node][next++];
      if (state[child] == kOpen)
        return Error{where + "its moves come back to position " + std::to_string(child)};
      if (state[child] == kNew) {
        state[child] = kOpen;
        stack.push_back({child, 0});
      }
    }
  }
  return Ok{};
}

}  // namespace

std::vector<unsigned char> serialize_book(const Book& book) {
  std::vector<unsigned char> out;
  out.reserve(kBookHeaderBytes + kBookPositionBytes * book.size() + kBookMoveBytes * book.move_count());
  append_header(out, book);
  for (const BookEntry& e : book.entries()) append_entry(out, e);
  put_le(out.data() + kChecksumAt, checksum_of(out), 8);
  return out;
}

Status write_book(const std::string& path, const Book& book) {
  if (Status s = check_output_file(path, "opening book"); !s) return s;
  const std::vector<unsigned char> bytes = serialize_book(book);
  const std::string temporary = path + ".part";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      return Error{"cannot write " + temporary};
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) return Error{"cannot rename " + temporary + " to " + path + ": " + ec.message()};
  return Ok{};
}

Expected<Book> read_book(const std::string& path) {
  Expected<std::vector<unsigned char>> bytes = read_checked_bytes(path, "opening book", kMaxBookBytes);
  if (!bytes) return Error{bytes.error()};
  return parse_book(*bytes, path);
}

Expected<Book> parse_book(const std::vector<unsigned char>& bytes, const std::string& name) {
  const std::string where = name + ": ";
  Expected<Header> header = read_header(bytes, where);
  if (!header) return Error{header.error()};
  Book book;
  book.settings = header->settings;
  book.variant = header->variant;
  std::size_t at = kBookHeaderBytes;
  for (std::uint64_t i = 0; i < header->positions; ++i) {
    Expected<BookEntry> e = decode_entry(bytes, at, book.variant);
    if (!e) return Error{where + "position " + std::to_string(i) + ": " + e.error()};
    if (Expected<std::size_t> added = book.add(std::move(*e)); !added)
      return Error{where + "position " + std::to_string(i) + ": " + added.error()};
  }
  if (at != bytes.size()) return Error{where + "the move counts do not add up to the header's"};
  if (Status s = check_links(book, where); !s) return Error{s.error()};
  return book;
}

}  // namespace damas::book
