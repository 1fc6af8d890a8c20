// Slice files read by the engine: blocks are decoded when a probe reaches them, so a malformed
// block (behind a sound checksum) costs the values of that block, never a wrong value or the rest.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "damas/core/binary_io.h"
#include "damas/core/movegen.h"
#include "damas/egdb/egdb.h"
#include "damas/egdb/huffman.h"
#include "egdb_test_sets.h"

using namespace damas;
namespace fs = std::filesystem;

namespace {

// Where the block index starts (the header of SliceFile::serialize): magic, version, variant,
// material, size, block size, block count, the counts of both sides, the code lengths.
constexpr std::size_t kBlockIndexAt = 8 + 4 + 1 + 4 + 8 + 4 + 8 + 2 * (4 * 8 + 4) + egdb::kSymbols;

// Empties the first block (its end moved to its start) behind a checksum that agrees: block 0
// then decodes to nothing and block 1 to both blocks' positions; the others stay sound.
void empty_first_block(const fs::path& path) {
  test::rewrite_slice_file(path, [](std::vector<std::uint8_t>& data) {
    put_le(&data[kBlockIndexAt + 8], get_le(&data[kBlockIndexAt], 8), 8);
  });
}

}  // namespace

TEST_CASE("egdb blocks: a malformed block is refused by a full read and gives no value to a probe",
          "[egdb]") {
  // A copy of the test binary's 3-piece set, whose file this case spoils.
  const fs::path dir = fs::temp_directory_path() / ("damas_egdb_blocks_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::copy(test::built(3), dir);
  const std::string set = dir.string();
  const egdb::Material m{0, 2, 0, 1};  // 2 x 14,880 numbers: eight blocks
  const egdb::SliceIndex index(m);
  const Expected<egdb::SliceFile> sound = egdb::SliceFile::read_slice(set, m, Variant::Brazilian);
  REQUIRE(sound.has_value());
  empty_first_block(dir / egdb::file_name(m));

  const Expected<egdb::SliceFile> full = egdb::SliceFile::read_slice(set, m, Variant::Brazilian);
  REQUIRE_FALSE(full.has_value());
  CHECK_THAT(full.error(), Catch::Contains("block 0 is malformed"));
  CHECK_FALSE(egdb::verify(set, 3).has_value());

  const Expected<egdb::SliceFile> lazy =
      egdb::SliceFile::read_slice(set, m, Variant::Brazilian, egdb::BlockCheck::WhenProbed);
  REQUIRE(lazy.has_value());
  CHECK_FALSE(lazy->code_at(0, Color::White).has_value());                 // block 0
  CHECK_FALSE(lazy->code_at(egdb::kBlockSize, Color::White).has_value());  // block 1
  for (const std::uint64_t i : {std::uint64_t{2} * egdb::kBlockSize, index.size() - 1}) {
    REQUIRE(lazy->code_at(i, Color::Black).has_value());  // blocks 5 and 7 (Black to move)
    CHECK(*lazy->code_at(i, Color::Black) == *sound->code_at(i, Color::Black));
  }

  // The engine opens its databases so: the spoiled block's positions have no value, others do.
  const auto db = egdb::Database::open(set, 3);
  REQUIRE(db.has_value());
  std::uint64_t unknown = 0, known = 0, wrong = 0;
  for (std::uint64_t i = 0; i < index.size(); ++i)
    for (const Color stm : {Color::White, Color::Black})
      if (const std::optional<Position> p = index.position_of(i, stm); p && !has_capture(*p)) {
        const std::optional<egdb::Value> v = (*db)->probe(*p);
        const bool spoiled = stm == Color::White && i < 2 * egdb::kBlockSize;
        if (!v) (spoiled ? unknown : wrong) += 1;
        else (!spoiled && *v == egdb::value_of(*sound->code_at(i, stm)) ? known : wrong) += 1;
      }
  CHECK(unknown > 0);
  CHECK(known > 0);
  CHECK(wrong == 0);
  fs::remove_all(dir);
}
