// The layering of ARCHITECTURE.md, checked on the #include lines of include/damas/ and src/.
// A part may include only itself and the parts its row lists; anything else is reported with the
// file and line, so a wrong arrow fails the default suite.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// part -> the parts it may include besides itself. Keep in step with ARCHITECTURE.md.
const std::map<std::string, std::set<std::string>>& allowed_arrows() {
  static const std::map<std::string, std::set<std::string>> arrows = {
      {"core", {}},
      {"egdb", {"core"}},
      {"book", {"core"}},
      {"eval", {"core"}},
      {"search", {"eval", "egdb", "core"}},
      {"engine", {"search", "eval", "egdb", "book", "core"}},
      {"hub", {"engine", "core"}},
      {"dxp", {"engine", "core"}},
      {"checkerboard", {"engine", "core"}},
      {"match", {"hub", "engine", "core"}},
      {"review", {"engine", "core"}},
      {"web", {"review", "engine", "core"}},
      {"wasm", {"hub", "web", "engine", "core"}},
      {"cli", {"hub", "dxp", "match", "web", "review", "engine", "search", "eval", "egdb", "book", "core"}},
      {"main", {"cli"}},
  };
  return arrows;
}

struct Violation {
  std::string file;
  int line = 0;
  std::string text;
};

// The part a file belongs to: the folder below include/damas/ or src/; src/main.cpp is "main".
std::string part_of(const fs::path& relative) {
  auto it = relative.begin();
  const std::string top = it->string();
  ++it;
  if (top == "include") ++it;  // include/damas/<part>/...
  if (it == relative.end()) return {};
  const std::string next = it->string();
  if (top == "src" && next == "main.cpp") return "main";
  return next;
}

// Checks one file's text; `name` is only for the report.
std::vector<Violation> check_text(const std::string& part, const std::string& name, std::istream& in) {
  static const std::regex include_line(R"(^\s*#\s*include\s*"damas/([a-z_]+)/[^"]+")");
  std::vector<Violation> found;
  const auto& arrows = allowed_arrows();
  const auto row = arrows.find(part);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::smatch m;
    if (!std::regex_search(line, m, include_line)) {
      if (line.find("#include \"damas/") != std::string::npos)
        found.push_back({name, number, line + "  (not in a part folder)"});
      continue;
    }
    const std::string target = m[1];
    if (target == part) continue;
    if (row == arrows.end() || row->second.count(target) == 0)
      found.push_back({name, number, line + "  (" + part + " -> " + target + " not allowed)"});
  }
  if (row == arrows.end() && part != "")
    found.push_back({name, 0, "unknown part \"" + part + "\" (add it to ARCHITECTURE.md)"});
  return found;
}

std::vector<Violation> check_tree(const fs::path& root) {
  std::vector<Violation> found;
  for (const char* top : {"include/damas", "src"}) {
    const fs::path dir = root / top;
    if (!fs::exists(dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
      if (!entry.is_regular_file()) continue;
      const auto ext = entry.path().extension();
      if (ext != ".h" && ext != ".cpp") continue;
      const fs::path relative = fs::relative(entry.path(), root);
      std::string part = part_of(relative);
      if (entry.path().parent_path() == root / "include/damas") part = "";  // loose header
      std::ifstream in(entry.path());
      auto v = check_text(part, relative.string(), in);
      if (part.empty()) v.push_back({relative.string(), 0, "file outside a part folder"});
      found.insert(found.end(), v.begin(), v.end());
    }
  }
  return found;
}

std::string report(const std::vector<Violation>& violations) {
  std::ostringstream out;
  for (const auto& v : violations) out << v.file << ":" << v.line << ": " << v.text << "\n";
  return out.str();
}

}  // namespace

TEST_CASE("Layering: every include follows an allowed arrow", "[layering]") {
  const auto violations = check_tree(DAMAS_SOURCE_DIR);
  INFO(report(violations));
  CHECK(violations.empty());
}

TEST_CASE("Layering: a deliberately wrong include is reported with file and line", "[layering]") {
  const fs::path root = fs::temp_directory_path() / "damas_layering_test";
  fs::remove_all(root);
  fs::create_directories(root / "src/eval");
  fs::create_directories(root / "src/hub");
  fs::create_directories(root / "include/damas/core");
  {
    std::ofstream(root / "src/eval/eval.cpp") << "#include \"damas/eval/eval.h\"\n"
                                                 "#include \"damas/core/position.h\"\n"
                                                 "#include \"damas/search/search.h\"\n";
    std::ofstream(root / "src/hub/hub.cpp") << "#include \"damas/engine/engine.h\"\n"
                                               "  #include \"damas/dxp/dxp.h\"\n";
    std::ofstream(root / "include/damas/core/types.h") << "#include <vector>\n"
                                                          "#include \"damas/eval/eval.h\"\n";
  }
  auto violations = check_tree(root);
  fs::remove_all(root);
  INFO(report(violations));
  REQUIRE(violations.size() == 3);
  std::set<std::string> where;
  for (const auto& v : violations) where.insert(v.file + ":" + std::to_string(v.line));
  CHECK(where ==
        std::set<std::string>{"src/eval/eval.cpp:3", "src/hub/hub.cpp:2", "include/damas/core/types.h:2"});
}

TEST_CASE("Layering: hub never includes dxp or the search, and dxp never includes hub", "[layering]") {
  const auto& arrows = allowed_arrows();
  for (const char* front : {"hub", "dxp"}) {
    const auto& allowed = arrows.at(front);
    CHECK(allowed.count("search") == 0);
    CHECK(allowed.count("eval") == 0);
    CHECK(allowed.count(front == std::string("hub") ? "dxp" : "hub") == 0);
  }
  CHECK(arrows.at("egdb") == std::set<std::string>{"core"});
  CHECK(arrows.at("core").empty());
}
