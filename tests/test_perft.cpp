// Perft against the independent counts in tests/data/perft-positions.txt (a copy of
// shared/rules/perft-positions.txt) and, from the initial position of each variant,
// tests/data/variant-perft.txt (of shared/rules/). Small counts run by default, all under [deep].
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "command_helpers.h"
#include "damas/core/movegen.h"
#include "damas/core/notation.h"
#include "damas/core/perft.h"

namespace {

struct PerftCase {
  std::string name;
  std::string fen;
  std::set<std::string> root_moves;  // Hub notation
  std::map<int, std::uint64_t> counts;
};

// "29x1[10,25]" -> "29x1x10x25" (captured squares ascending); "21-17" unchanged.
std::string to_hub(const std::string& listed) {
  const auto bracket = listed.find('[');
  if (bracket == std::string::npos) return listed;
  std::string out = listed.substr(0, bracket);
  std::vector<int> caps;
  std::stringstream ss(listed.substr(bracket + 1, listed.size() - bracket - 2));
  for (std::string item; std::getline(ss, item, ',');) caps.push_back(std::stoi(item));
  std::sort(caps.begin(), caps.end());
  for (int c : caps) out.append("x").append(std::to_string(c));
  return out;
}

std::vector<PerftCase> load_cases() {
  std::ifstream in(std::string(DAMAS_SOURCE_DIR) + "/tests/data/perft-positions.txt");
  REQUIRE(in.good());
  std::vector<PerftCase> cases;
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      cases.push_back(PerftCase{line.substr(1, line.find(']') - 1), "", {}, {}});
      in_table = false;
      continue;
    }
    if (cases.empty()) continue;
    PerftCase& c = cases.back();
    if (line.rfind("fen: ", 0) == 0) c.fen = line.substr(5);
    else if (line.rfind("moves: ", 0) == 0) {
      std::stringstream ss(line.substr(7));
      for (std::string m; ss >> m;) c.root_moves.insert(to_hub(m));
    } else if (line.rfind("depth", 0) == 0) {
      in_table = true;
    } else if (in_table && c.name != "start_deep") {
      std::stringstream ss(line);
      int depth = 0;
      std::uint64_t count = 0;
      if (ss >> depth >> count) c.counts[depth] = count;
    } else if (in_table && c.name == "start_deep") {
      // Columns: depth unique ...; "-" marks an unknown count.
      std::stringstream ss(line);
      int depth = 0;
      std::string unique;
      if (ss >> depth >> unique && unique != "-") c.counts[depth] = std::stoull(unique);
    }
  }
  return cases;
}

void check_counts(std::uint64_t max_leaves) {
  const std::vector<PerftCase> cases = load_cases();
  REQUIRE(cases.size() >= 9);
  int checked = 0;
  for (const PerftCase& c : cases) {
    INFO(c.name << " " << c.fen);
    const damas::Expected<damas::Position> p = damas::parse_fen(c.fen);
    REQUIRE(p.has_value());
    for (const auto& [depth, expected] : c.counts) {
      if (expected > max_leaves) continue;
      INFO("depth " << depth);
      CHECK(damas::perft(*p, depth) == expected);
      ++checked;
    }
  }
  CHECK(checked > 50);
}

// The start position counts of one variant in variant-perft.txt: "russian  1:7 2:49 ...".
std::map<int, std::uint64_t> variant_counts(std::string_view variant) {
  std::ifstream in(std::string(DAMAS_SOURCE_DIR) + "/tests/data/variant-perft.txt");
  REQUIRE(in.good());
  std::map<int, std::uint64_t> counts;
  for (std::string line; std::getline(in, line);) {
    std::stringstream ss(line);
    std::string name;
    if (!(ss >> name) || name != variant) continue;
    for (std::string entry; ss >> entry;) {
      const auto colon = entry.find(':');
      REQUIRE(colon != std::string::npos);
      counts[std::stoi(entry.substr(0, colon))] = std::stoull(entry.substr(colon + 1));
    }
  }
  return counts;
}

void check_variant_counts(damas::Variant variant, int max_depth) {
  const std::map<int, std::uint64_t> counts = variant_counts(damas::to_string(variant));
  REQUIRE(counts.size() >= 12);
  const damas::Position start = damas::Position::start(variant);
  for (const auto& [depth, expected] : counts) {
    if (depth > max_depth) break;
    INFO(damas::to_string(variant) << " depth " << depth);
    CHECK(damas::perft(start, depth) == expected);
  }
}

}  // namespace

TEST_CASE("perft: the start position counts of each variant, to depth 7", "[perft][russian]") {
  for (const damas::Variant variant : damas::kVariants) check_variant_counts(variant, 7);
}

TEST_CASE("perft: the start position counts of each variant, to depth 11", "[perft][russian][deep]") {
  for (const damas::Variant variant : damas::kVariants) check_variant_counts(variant, 11);
}

TEST_CASE("perft: root moves of the tricky positions match the independent list", "[perft]") {
  for (const PerftCase& c : load_cases()) {
    if (c.root_moves.empty()) continue;
    INFO(c.name);
    const damas::Expected<damas::Position> p = damas::parse_fen(c.fen);
    REQUIRE(p.has_value());
    damas::MoveList list;
    damas::generate_legal_moves(*p, list);
    std::set<std::string> ours;
    for (const damas::Move& m : list) ours.insert(damas::to_hub_move(m));
    CHECK(ours == c.root_moves);
  }
}

TEST_CASE("perft: every count up to 5 million leaves", "[perft]") { check_counts(5'000'000); }

TEST_CASE("perft: start position to depth 9", "[perft]") {
  CHECK(damas::perft(damas::Position::start(), 9) == 4431766);
}

TEST_CASE("perft: divide sums to the total", "[perft]") {
  const damas::Position p =
      *damas::parse_fen("W:W17,21,22,23,25,26,27,28,30,31,32:B1,2,3,4,6,7,9,10,11,12,15");
  std::uint64_t sum = 0;
  for (const auto& entry : damas::perft_divide(p, 5)) sum += entry.second;
  CHECK(sum == 7150);
}

TEST_CASE("perft: every count of the data file", "[perft][deep]") { check_counts(~std::uint64_t{0}); }

TEST_CASE("perft: start position to depth 12", "[perft][deep]") {
  CHECK(damas::perft(damas::Position::start(), 11) == 105491257);
  CHECK(damas::perft(damas::Position::start(), 12) == 511882477);
}

TEST_CASE("perft command: --variant chooses the rules, Brazilian by default", "[perft][russian]") {
  const std::string perft = std::string(DAMAS_BINARY) + " perft --depth 5";
  std::string out;
  REQUIRE(test::run_command(perft, out) == 0);
  CHECK(out.find("perft depth 5: 7473 leaves") != std::string::npos);
  REQUIRE(test::run_command(perft + " --variant russian", out) == 0);
  CHECK(out.find("perft depth 5: 7482 leaves") != std::string::npos);
  CHECK(test::run_command(perft + " --variant italian", out) == 2);
  CHECK(out.find("unknown variant \"italian\"") != std::string::npos);
}
