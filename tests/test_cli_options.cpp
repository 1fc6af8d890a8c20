// The subcommands' option names: each subcommand adds the engine options of the registry to its
// own, and a name of its own that is also an engine option (`book --seed`, today's `unbalanced
// --order-seed`, and the engine's `seed`) reached the user as an uncaught bad_any_cast. Every
// --help is read and no name may appear twice.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "command_helpers.h"
#include "damas/core/types.h"

namespace {

// The first group of `pattern` in each line of `text` that it matches.
std::vector<std::string> line_captures(const std::string& text, const std::regex& pattern) {
  std::vector<std::string> found;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, pattern)) found.push_back(m[1].str());
  }
  return found;
}

// The long option names at the start of the option lines of a boost --help text
// ("  --threads arg ...", "  -h [ --help ] ..."), with how often each appears.
std::map<std::string, int> option_name_counts(const std::string& help) {
  static const std::regex option_line(R"(^  (?:-[A-Za-z] \[ )?--([a-z0-9][a-z0-9-]*))");
  std::map<std::string, int> counts;
  for (const std::string& name : line_captures(help, option_line)) ++counts[name];
  return counts;
}

std::vector<std::string> repeated_names(const std::string& help) {
  std::vector<std::string> repeated;
  for (const auto& [name, count] : option_name_counts(help))
    if (count > 1) repeated.push_back(name);
  return repeated;
}

// What `damas <command> --help` prints; it must succeed.
std::string help_of(const std::string& command) {
  std::string help;
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + (command.empty() ? "" : " " + command) + " --help",
                            help) == 0);
  return help;
}

// The subcommands `damas --help` lists ("  name      summary").
std::vector<std::string> subcommands() {
  static const std::regex row(R"(^  ([a-z][a-z-]*) )");
  return line_captures(help_of(""), row);
}

}  // namespace

TEST_CASE("command line: the option-name reader finds a name given twice", "[cli]") {
  const std::string help =
      "damas unbalanced:\n  -h [ --help ]         show this help\n  --seed arg            order seed\n"
      "  --threads arg         threads\n\nEngine options:\n  --seed value          engine seed\n";
  const std::map<std::string, int> counts = option_name_counts(help);
  CHECK(counts.size() == 3);
  CHECK(counts.at("help") == 1);
  CHECK(counts.at("threads") == 1);
  CHECK(repeated_names(help) == std::vector<std::string>{"seed"});
}

TEST_CASE("command line: no subcommand offers two options of the same name", "[cli]") {
  std::vector<std::string> commands = subcommands();
  // The list is the dispatcher's: a change of `damas --help` must not leave this test empty.
  REQUIRE(commands.size() >= 14);
  for (const char* expected : {"hub", "match", "analyze", "unbalanced", "egdb", "serve", "dxp"})
    REQUIRE(std::find(commands.begin(), commands.end(), expected) != commands.end());
  // egdb's, safety's and book's --help list all of their own subcommands together; each one is checked alone.
  for (const char* egdb : {"build", "verify", "info", "probe", "convert", "count", "ending-data"})
    commands.push_back(std::string("egdb ") + egdb);
  std::erase(commands, "egdb");
  for (const char* safety : {"check", "mine"}) commands.push_back(std::string("safety ") + safety);
  std::erase(commands, "safety");
  for (const char* book : {"build", "info", "probe"}) commands.push_back(std::string("book ") + book);
  std::erase(commands, "book");

  for (const std::string& command : commands) {
    INFO("damas " << command << " --help");
    const std::string help = help_of(command);
    CHECK(option_name_counts(help).count("help") == 1);
    CHECK(repeated_names(help).empty());
  }
}

TEST_CASE("command line: every subcommand that searches accepts the engine options", "[cli]") {
  // The engine options come from the registry (cli_options.cpp); `seed` and `threads` are two.
  for (const char* command :
       {"hub", "analyze", "puzzles", "unbalanced", "book build", "selfplay", "dxp", "serve"}) {
    INFO("damas " << command << " --help");
    const std::map<std::string, int> counts = option_name_counts(help_of(command));
    CHECK(counts.count("threads") == 1);
    CHECK(counts.count("hash") == 1);
  }
}

TEST_CASE("command line: the tuning knobs are on the commands that measure the search only", "[cli]") {
  for (const char* command : {"hub", "selfplay", "bench"}) {
    INFO("damas " << command << " --help");
    const std::map<std::string, int> counts = option_name_counts(help_of(command));
    CHECK(counts.count("lmr-divisor") == 1);
    CHECK(counts.count("probcut") == 1);
  }
  for (const char* command : {"analyze", "puzzles", "unbalanced", "book build", "dxp", "serve"}) {
    INFO("damas " << command << " --help");
    const std::map<std::string, int> counts = option_name_counts(help_of(command));
    CHECK(counts.count("threads") == 1);
    CHECK(counts.count("lmr-divisor") == 0);
    CHECK(counts.count("probcut") == 0);
  }
}

TEST_CASE("command line: --variant russian plays Russian in analyze, an unknown game is refused",
          "[cli][russian]") {
  std::string out;
  // f6 takes e7, is crowned on d8 and goes on over b6 as a king (Brazilian: the man stops on d8).
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) +
                                " analyze --variant russian --fen W:W11,30:B4,7,9:H0:F1 --depth 3 --board no",
                            out) == 0);
  CHECK_THAT(out, Catch::Contains("best move: 11x13"));
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " analyze --fen W:W11,30:B4,7,9 --depth 3 --board no",
                            out) == 0);
  CHECK_THAT(out, Catch::Contains("best move: 11x2"));
  CHECK(test::run_command(std::string(DAMAS_BINARY) + " analyze --variant italian --depth 1 --board no",
                          out) == 2);
  CHECK_THAT(out, Catch::Contains("brazilian russian spanish portuguese pool czech"));
  // The board plays both: its --variant is the game of a new board; an unknown game is refused.
  CHECK(test::run_command("timeout 20 " + std::string(DAMAS_BINARY) + " serve --port 0 --variant italian",
                          out) == 2);
  CHECK_THAT(out, Catch::Contains("brazilian russian spanish portuguese pool czech"));
}

TEST_CASE("command line: analyze and perft start from each game's own start, in its own squares",
          "[cli][games]") {
  std::string out;
  for (const damas::Variant v : damas::kVariants) {
    const std::string game(damas::to_string(v));
    INFO(game);
    REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " perft --variant " + game + " --depth 1 --divide",
                              out) == 0);
    CHECK_THAT(out, Catch::Contains("perft depth 1: 7 leaves"));
    REQUIRE(test::run_command(
                std::string(DAMAS_BINARY) + " analyze --variant " + game + " --depth 2 --board no", out) ==
            0);
    CHECK_THAT(out, Catch::Contains("best move: "));
  }
  // Spanish squares: White's men on 1-12, so its first moves leave 9-12.
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " perft --variant spanish --depth 1 --divide", out) ==
          0);
  CHECK_THAT(out, Catch::Contains("9-13 1") && Catch::Contains("12-16 1") && !Catch::Contains("21-17"));
}

TEST_CASE("command line: selfplay --variant russian plays Russian games from the openings file",
          "[cli][russian]") {
  const std::string pdn = "/tmp/damas-test-selfplay-russian-" + std::to_string(::getpid()) + ".pdn";
  std::string out;
  REQUIRE(test::run_command(std::string(DAMAS_BINARY) + " selfplay --variant russian --nodes 300 --games 2" +
                                " --max-plies 40 --hash 4 -q --pdn " + pdn,
                            out) == 0);
  CHECK_THAT(out, Catch::Contains("games 2"));
  REQUIRE(test::run_command("cat " + pdn, out) == 0);
  CHECK_THAT(out, Catch::Contains("[GameType \"25\"]"));
  CHECK_THAT(out, !Catch::Contains("[GameType \"26\"]"));
  // An engine told another game than the referee's is refused before a move is played.
  CHECK(test::run_command(std::string(DAMAS_BINARY) +
                              " selfplay --variant russian --nodes 300 --games 2 --a variant=brazilian",
                          out) == 2);
  CHECK_THAT(out, Catch::Contains("engine A: variant=brazilian contradicts the game played, russian"));
  std::remove(pdn.c_str());
}
