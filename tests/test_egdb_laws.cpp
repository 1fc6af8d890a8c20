// Database wins checked against the draw laws (egdb::wins_inside_laws): the check gives up past its
// node budget instead of running for hours on the tree of a long win, and says so.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "damas/core/movegen.h"
#include "damas/egdb/egdb.h"

using namespace damas;
namespace fs = std::filesystem;

TEST_CASE("egdb laws: past its node budget the law check is undecided, never a wrong verdict", "[egdb]") {
  const fs::path dir = fs::temp_directory_path() / ("damas_egdb_laws_" + std::to_string(getpid()));
  egdb::BuildOptions o;
  o.dir = dir.string();
  o.pieces = 3;
  REQUIRE(egdb::build(o).has_value());
  const auto db = egdb::Database::open(o.dir, 3);
  REQUIRE(db.has_value());

  const egdb::SliceIndex index(egdb::Material{0, 2, 1, 0});  // two kings against a man
  int wins = 0, undecided = 0, decided_in_one_node = 0;
  for (DrawRules rules : {DrawRules::Seed, DrawRules::Fmjd64}) {
    for (std::uint64_t i = 0; i < index.size(); i += 7) {
      const std::optional<Position> p = index.position_of(i, Color::White);
      if (!p || has_capture(*p)) continue;
      const std::optional<egdb::Value> v = (*db)->probe(*p);
      if (!v || v->wdl != egdb::Wdl::Win) continue;
      const std::optional<bool> unbounded = egdb::wins_inside_laws(**db, *p, rules, {}, 1'000'000'000);
      REQUIRE(unbounded.has_value());
      wins += *unbounded;
      const std::optional<bool> one_node = egdb::wins_inside_laws(**db, *p, rules, {}, 1);
      if (!one_node) {
        ++undecided;
        CHECK(v->plies > 1);  // a win in one ply is decided at the root
        continue;
      }
      CHECK(*one_node == *unbounded);
      decided_in_one_node += v->plies == 1;
    }
  }
  CHECK(wins > 100);
  CHECK(undecided > 100);
  CHECK(decided_in_one_node > 0);
  fs::remove_all(dir);
}
