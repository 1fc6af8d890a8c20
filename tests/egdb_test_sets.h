// Endgame databases for the tests: built once per test binary and opened once per process.
#pragma once

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>

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

}  // namespace test
