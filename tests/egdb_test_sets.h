// Endgame databases for the tests: built once per test binary and opened once per process, and
// the byte edits that spoil their files behind a sound checksum.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "damas/core/binary_io.h"
#include "damas/core/types.h"
#include "damas/egdb/egdb.h"

namespace test {

// The databases up to `pieces`, built once for this test binary: ctest runs each case in its own
// process, so they live in a directory named after the binary's time stamp, and a later process
// resumes (reuses) what an earlier one built.
inline std::filesystem::path shared_cache() {
  std::error_code ec;
  const auto stamp = std::filesystem::last_write_time("/proc/self/exe", ec).time_since_epoch().count();
  std::string name = "damas_egdb_test_cache_";
  name += std::to_string(stamp);
  return std::filesystem::temp_directory_path() / name;
}

inline const std::string& built(int pieces, damas::Variant variant = damas::Variant::Brazilian) {
  static std::map<std::pair<int, damas::Variant>, std::string> dirs;
  auto it = dirs.find({pieces, variant});
  if (it != dirs.end()) return it->second;
  damas::egdb::BuildOptions o;
  std::string name =
      variant == damas::Variant::Brazilian ? "p" : std::string(damas::to_string(variant)) + "-p";
  name += std::to_string(pieces);
  o.dir = (shared_cache() / name).string();
  o.variant = variant;
  o.pieces = pieces;
  o.threads = 2;
  const damas::Expected<damas::egdb::BuildReport> r = damas::egdb::build(o);
  REQUIRE(r.has_value());
  return dirs.emplace(std::pair{pieces, variant}, o.dir).first->second;
}

// Opened once per test run too.
inline std::shared_ptr<const damas::egdb::Database> database(int pieces) {
  static std::map<int, std::shared_ptr<const damas::egdb::Database>> open;
  if (const auto it = open.find(pieces); it != open.end()) return it->second;
  const auto db = damas::egdb::Database::open(built(pieces), pieces);
  REQUIRE(db.has_value());
  return open.emplace(pieces, *db).first->second;
}

inline std::vector<std::uint8_t> bytes_of(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Rewrites a slice file's bytes before its checksum with `edit`, and the checksum after them.
template <typename Edit>
void rewrite_slice_file(const std::filesystem::path& path, Edit&& edit) {
  std::vector<std::uint8_t> data = bytes_of(path);
  data.resize(data.size() - 8);
  edit(data);
  std::uint8_t sum[8];
  damas::put_le(sum, damas::fnv1a64(data.data(), data.size()), 8);
  data.insert(data.end(), std::begin(sum), std::end(sum));
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
}

}  // namespace test
