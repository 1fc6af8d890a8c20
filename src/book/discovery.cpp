#include "damas/book/discovery.h"

#include <filesystem>
#include <system_error>

namespace damas::book {

Places Places::of_process() {
  return Places{DataPlaces::of_process(), environment_value("DAMAS_BOOK"), DAMAS_SOURCE_DIR};
}

std::string book_file_name(Variant variant) { return std::string(to_string(variant)) + ".book"; }

std::string user_book(const Places& places, Variant variant) {
  return user_data_path(places, book_file_name(variant));
}

std::vector<Candidate> candidates(const Places& places, Variant variant) {
  const std::string name = book_file_name(variant);
  if (!places.env_file.empty()) {
    if (places.env_file == kNoBook) return {};
    return {Candidate{places.env_file, "DAMAS_BOOK"}};
  }
  std::vector<Candidate> out;
  if (std::string f = user_book(places, variant); !f.empty()) out.push_back({f, "user directory"});
  if (std::string f = installed_data_path(places, name); !f.empty()) out.push_back({f, "installed"});
  if (!places.source_dir.empty())
    out.push_back({(std::filesystem::path(places.source_dir) / "bench" / name).string(), "source tree"});
  return out;
}

Candidate find_book(const Places& places, Variant variant) {
  for (const Candidate& c : candidates(places, variant)) {
    std::error_code ec;
    // $DAMAS_BOOK names the book: when it is not there, reading it says so.
    if (c.source == "DAMAS_BOOK" || std::filesystem::is_regular_file(c.path, ec)) return c;
  }
  return {};
}

}  // namespace damas::book
