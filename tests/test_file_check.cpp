// Hostile paths (issue 22): every file damas reads goes through core/file_check.h, which refuses
// devices, pipes, directories, oversized files and names the system refuses with one error value,
// never an abort or an endless read; and every command and option that takes a path says so.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "damas/core/file_check.h"
#include "damas/core/text_lines.h"
#include "damas/engine/engine.h"

using namespace damas;

namespace {

// A scratch folder with a small file, a FIFO and a sparse file just over a limit.
struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    dir = std::filesystem::temp_directory_path() / ("damas-file-check-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "small.txt") << "22-18 11-15\n";
    ::mkfifo((dir / "fifo").c_str(), 0600);
    std::filesystem::resize_file(dir / "small.txt", 12);
    std::ofstream(dir / "big.bin").close();
    std::filesystem::resize_file(dir / "big.bin", file_limit::kWeights + 1);  // sparse: no disk used
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::string path(const char* name) const { return (dir / name).string(); }
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs the damas binary with these arguments (and a time limit: a hang is a failure), its output.
struct Run {
  int status;
  std::string output;
};
Run run_damas(const std::string& arguments) {
  const std::string command =
      "timeout 60 " + std::string(DAMAS_BINARY) + " " + arguments + " 2>&1 </dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string output;
  char buf[4096];
  while (const std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) output.append(buf, n);
  const int raw = ::pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, output};
}

}  // namespace

TEST_CASE("file check: a regular file is read whole", "[file]") {
  const Scratch s;
  const Expected<std::string> text = read_checked_file(s.path("small.txt"), "test file", 100);
  REQUIRE(text.has_value());
  CHECK(*text == "22-18 11-15\n");
  CHECK(check_regular_file(s.path("small.txt"), "test file", 100).has_value());
  CHECK(read_text_file(s.path("small.txt"), "test file").has_value());
}

TEST_CASE("file check: devices, pipes, directories, big files and bad names are one error each", "[file]") {
  const Scratch s;
  const std::string long_name(300, 'x');
  struct Case {
    std::string path;
    std::uintmax_t limit;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"/dev/zero", 1 << 20, "not a regular file (a device)"},
      {"/dev/urandom", 1 << 20, "not a regular file (a device)"},
      {s.path("fifo"), 1 << 20, "not a regular file (a pipe)"},
      {s.dir.string(), 1 << 20, "not a regular file (a directory)"},
      {s.path("big.bin"), file_limit::kWeights, "over the limit of"},
      {s.path("small.txt"), 5, "12 bytes, over the limit of 5 bytes"},
      {long_name, 1 << 20, "File name too long"},
      {s.path("missing"), 1 << 20, "No such file or directory"},
      {"", 1 << 20, "cannot open test file"},
  };
  for (const Case& c : cases) {
    INFO(c.path.substr(0, 80));
    const Expected<std::string> read = read_checked_file(c.path, "test file", c.limit);
    REQUIRE_FALSE(read.has_value());
    CHECK(contains(read.error(), c.says));
    CHECK(contains(read.error(), "test file"));
    const Expected<std::vector<unsigned char>> bytes = read_checked_bytes(c.path, "test file", c.limit);
    REQUIRE_FALSE(bytes.has_value());
    CHECK(bytes.error() == read.error());
    CHECK_FALSE(check_regular_file(c.path, "test file", c.limit).has_value());
  }
}

TEST_CASE("file check: directories and output files", "[file]") {
  const Scratch s;
  CHECK(check_directory(s.dir.string(), "folder").has_value());
  CHECK(contains(check_directory(s.path("small.txt"), "folder").error(), "not a directory"));
  CHECK(contains(check_directory(std::string(300, 'x'), "folder").error(), "File name too long"));
  CHECK(contains(check_directory("/dev/zero", "folder").error(), "not a directory"));
  CHECK(check_output_file(s.path("new.pdn"), "PDN file").has_value());
  CHECK(check_output_file(s.path("small.txt"), "PDN file").has_value());
  CHECK(contains(check_output_file("/dev/zero", "PDN file").error(), "not a regular file (a device)"));
  CHECK(contains(check_output_file(s.path("fifo"), "PDN file").error(), "a pipe"));
  CHECK(contains(check_output_file(s.dir.string(), "PDN file").error(), "a directory"));
  CHECK(contains(check_output_file(s.path("no/such/dir/x.pdn"), "PDN file").error(), "cannot write"));
  CHECK_FALSE(check_output_file("", "PDN file").has_value());
}

TEST_CASE("file check: the engine's path options refuse hostile paths and keep their value", "[file]") {
  const Scratch s;
  Engine engine;
  for (const std::string& bad :
       {std::string("/dev/zero"), s.path("fifo"), s.dir.string(), s.path("big.bin"), std::string(300, 'x')}) {
    INFO(bad.substr(0, 80));
    const Status st = engine.set_option(option::kEvalFile, bad);
    REQUIRE_FALSE(st.has_value());
    CHECK(contains(st.error(), "evaluation file"));
    CHECK(engine.options().get(option::kEvalFile).empty());
  }
  for (const std::string& bad :
       {std::string("/dev/zero"), s.path("small.txt"), std::string(300, 'x'), s.path("missing")}) {
    INFO(bad.substr(0, 80));
    const Status st = engine.set_option(option::kEgdbPath, bad);
    REQUIRE_FALSE(st.has_value());
    CHECK(contains(st.error(), "endgame database directory"));
  }
  CHECK(engine.set_option(option::kEgdbPath, "none").has_value());
}

TEST_CASE("file check: every command taking a path refuses a hostile one with one clear error",
          "[file][pipe]") {
  const Scratch s;
  const std::string fifo = s.path("fifo");
  const std::string dir = s.dir.string();
  const std::string long_name(300, 'x');
  struct Case {
    std::string arguments;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"analyze --pdn /dev/zero", "PDN file /dev/zero: not a regular file"},
      {"analyze --pdn " + fifo, "not a regular file (a pipe)"},
      {"analyze --pdn " + s.path("small.txt") + " --out /dev/zero", "--out: annotated PDN file"},
      {"analyze --eval-file /dev/zero --depth 1", "evaluation file /dev/zero: not a regular file"},
      {"analyze --egdb-path " + long_name + " --depth 1", "File name too long"},
      {"analyze --eval-file " + s.path("big.bin") + " --depth 1", "over the limit"},
      {"selfplay --a lmr=false --b lmr=true --depth 1 --openings " + fifo, "openings file"},
      {"selfplay --a lmr=false --b lmr=true --depth 1 --pdn " + dir, "--pdn: PDN file"},
      {"tactics --file /dev/zero", "tactics file /dev/zero: not a regular file"},
      {"bench --file " + dir, "positions file"},
      {"datagen --output /dev/null --games 1", "training data /dev/null: not a regular file"},
      {"datagen --output " + s.path("o.bin") + " --ballots /dev/zero --games 1", "openings file /dev/zero"},
      {"egdb verify --dir " + long_name, "File name too long"},
      {"egdb info --dir /dev/zero", "not a directory"},
      {"egdb probe --fen W:W29:B4 --dir " + s.path("small.txt"), "not a directory"},
      {"egdb build --pieces 2 --dir /dev/zero", "Not a directory"},
      {"egdb convert --dir /dev/zero --depth 1", "endgame database directory /dev/zero: not a directory"},
      {"egdb ending-data --out " + s.path("o.bin") + " --dir /dev/zero", "not a directory"},
      {"bench --eval-file /dev/zero", "evaluation file /dev/zero: not a regular file"},
      {"egdb convert --positions /dev/zero --depth 1", "openings file /dev/zero"},
      {"egdb convert --save /dev/zero --depth 1", "--save: positions file"},
      {"dxp --openings /dev/zero", "openings file /dev/zero"},
      {"dxp --pdn /dev/zero", "--pdn: PDN file"},
      {"match -engine cmd=/bin/true -engine cmd=/bin/true -each depth=1 -openings file=/dev/zero",
       "openings file /dev/zero"},
      {"match -engine cmd=/bin/true -engine cmd=/bin/true -each depth=1 -pdnout /dev/zero",
       "PDN file /dev/zero"},
      {"serve --port 0 --eval-file /dev/zero", "evaluation file /dev/zero"},
      {"hub --eval-file " + fifo, "not a regular file (a pipe)"},
  };
  for (const Case& c : cases) {
    INFO(c.arguments.substr(0, 200));
    const Run r = run_damas(c.arguments);
    INFO(r.output.substr(0, 500));
    CHECK((r.status == 1 || r.status == 2));
    CHECK(contains(r.output, c.says));
  }
}
