// What `damas egdb build` says before it starts: the memory a build needs (egdb.h), and a build
// the machine cannot hold refused with both figures.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "command_helpers.h"
#include "damas/egdb/egdb.h"

using namespace damas;

TEST_CASE("egdb build memory: a byte per number of every slice and the largest slice's work", "[egdb]") {
  // Up to 2 pieces: 4 slices; the largest (a man against a man: 28 x 28 numbers a side) works.
  std::uint64_t all = 0, largest = 0;
  for (const egdb::Material& m : egdb::slices_up_to(2)) {
    const std::uint64_t numbers = 2 * egdb::SliceIndex(m).size();
    all += numbers;
    largest = std::max(largest, numbers);
  }
  CHECK(egdb::build_memory_bytes(2) == all + 8 * largest);
  // bench/egdb.md's plan for 6 pieces: 5,431,976,216 numbers and a largest slice of 257,826,240.
  CHECK(egdb::build_memory_bytes(6) == 5431976216ULL + 8 * 257826240ULL);
  CHECK(egdb::build_memory_bytes(7) > egdb::build_memory_bytes(6));
  CHECK(egdb::memory_text(egdb::build_memory_bytes(6)) == "6.98 GiB");
  CHECK(egdb::memory_text(std::uint64_t{3} << 29) == "1.50 GiB");
  CHECK(egdb::memory_text(std::uint64_t{5} << 19) == "2.5 MiB");
}

TEST_CASE("egdb build memory: a build the machine cannot hold is refused before it starts", "[egdb]") {
  const std::uint64_t six = egdb::build_memory_bytes(6);
  CHECK(egdb::check_build_memory(6, six).has_value());
  CHECK(egdb::check_build_memory(6, 0).has_value());  // an unknown size is not refused
  const Status refused = egdb::check_build_memory(6, std::uint64_t{4} << 30);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error() ==
        "a build up to 6 pieces needs about 6.98 GiB of memory and this machine has 4.00 GiB: build fewer "
        "pieces here, or on a larger machine (or a cluster, --mpi)");

  // The command: 8 pieces need far more than any machine this runs on; nothing is written.
  const std::string dir = "/tmp/damas-egdb-memory-" + std::to_string(getpid());
  std::string out;
  CHECK(test::run_command(std::string(DAMAS_BINARY) + " egdb build --pieces 8 --dir " + dir, out) == 2);
  CHECK(out.find("damas egdb build: a build up to 8 pieces needs about ") != std::string::npos);
  CHECK(test::run_command("test -e " + dir, out) != 0);
  // A small build says what it needs first, and logs its slices off a terminal.
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " egdb build --pieces 2 --dir " + dir, out) == 0);
  CHECK(out.find("egdb build: up to 2 pieces into " + dir +
                 "; needs about 0.0 MiB of memory (this machine has") != std::string::npos);
  CHECK(out.find("[1/4 wm0wk1bm0bk1]") != std::string::npos);
  REQUIRE(test::run_command("rm -r " + dir, out) == 0);
}
