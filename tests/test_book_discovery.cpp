// Where the engine looks for its opening book (book/discovery.h): $DAMAS_BOOK alone when set, then
// the user's, the installed and the source tree's book, the first file found.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "damas/book/discovery.h"

using namespace damas::book;
namespace fs = std::filesystem;

TEST_CASE("book discovery: the search list and the first file found", "[book]") {
  const fs::path root = fs::temp_directory_path() / ("damas-book-discovery-" + std::to_string(getpid()));
  fs::create_directories(root / "home/.local/share/damas");
  fs::create_directories(root / "prefix/bin");
  fs::create_directories(root / "prefix/share/damas");
  fs::create_directories(root / "src/bench");
  Places places;
  places.home = (root / "home").string();
  places.exe_path = (root / "prefix/bin/damas").string();
  places.source_dir = (root / "src").string();

  const std::vector<Candidate> list = candidates(places);
  REQUIRE(list.size() == 3);
  CHECK(list[0].path == (root / "home/.local/share/damas/brazilian.book").string());
  CHECK(list[0].source == "user directory");
  CHECK(list[1].path == (root / "prefix/share/damas/brazilian.book").string());
  CHECK(list[2].path == (root / "src/bench/brazilian.book").string());

  CHECK(find_book(places).path.empty());
  std::ofstream(root / "src/bench/brazilian.book") << "x";
  CHECK(find_book(places).source == "source tree");
  std::ofstream(root / "prefix/share/damas/brazilian.book") << "x";
  CHECK(find_book(places).source == "installed");
  std::ofstream(root / "home/.local/share/damas/brazilian.book") << "x";
  CHECK(find_book(places).source == "user directory");

  // Each game looks for its own file in the same places: the Brazilian books are not Russian ones.
  const std::vector<Candidate> russian = candidates(places, damas::Variant::Russian);
  REQUIRE(russian.size() == 3);
  CHECK(russian[0].path == (root / "home/.local/share/damas/russian.book").string());
  CHECK(russian[2].path == (root / "src/bench/russian.book").string());
  CHECK(find_book(places, damas::Variant::Russian).path.empty());
  std::ofstream(root / "prefix/share/damas/russian.book") << "x";
  CHECK(find_book(places, damas::Variant::Russian).path ==
        (root / "prefix/share/damas/russian.book").string());
  CHECK(find_book(places).path == (root / "home/.local/share/damas/brazilian.book").string());

  places.xdg_data_home = (root / "xdg").string();
  CHECK(user_book(places) == (root / "xdg/damas/brazilian.book").string());
  places.xdg_data_home = "relative/xdg";  // not absolute: ignored
  CHECK(user_book(places) == (root / "home/.local/share/damas/brazilian.book").string());

  places.env_file = "/nowhere/my.book";  // decides alone, there or not
  CHECK(find_book(places).path == "/nowhere/my.book");
  CHECK(find_book(places).source == "DAMAS_BOOK");
  places.env_file = "none";
  CHECK(candidates(places).empty());
  CHECK(find_book(places).path.empty());
  fs::remove_all(root);
}

TEST_CASE(
    "book discovery: on Windows the user's folder is %APPDATA%\\damas and the book sits beside damas.exe",
    "[book][windows]") {
  // The places of a Windows process (platform_windows.cpp): its own user folder, data beside the program.
  Places places;
  places.home = "/home/someone";  // not used where the system names its own folder
  places.xdg_data_home = "/xdg";
  places.user_folder = "C:/Users/someone/AppData/Roaming/damas";
  places.exe_path = "C:/Programs/damas-0.1.0/damas.exe";
  places.data_beside_program = true;
  CHECK(user_book(places) == (fs::path(places.user_folder) / "brazilian.book").string());
  const std::vector<Candidate> list = candidates(places);
  REQUIRE(list.size() >= 2);
  CHECK(list[0].source == "user directory");
  CHECK(list[1].path == (fs::path("C:/Programs/damas-0.1.0") / "brazilian.book").string());
  CHECK(list[1].source == "installed");
}
