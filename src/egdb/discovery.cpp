#include "damas/egdb/discovery.h"

#include <filesystem>
#include <system_error>

#include "damas/egdb/egdb.h"

namespace damas::egdb {

Places Places::of_process() { return Places{DataPlaces::of_process(), environment_value("DAMAS_EGDB")}; }

std::string user_dir(const Places& places) { return user_data_path(places, "egdb"); }

std::string installed_dir(const Places& places) { return installed_data_path(places, "egdb"); }

std::string variant_dir(const std::string& dir, Variant variant) {
  if (variant == Variant::Brazilian) return dir;
  return (std::filesystem::path(dir) / std::string(to_string(variant))).string();
}

std::vector<Candidate> candidates(const Places& places) {
  if (!places.env_dir.empty()) {
    if (places.env_dir == kNoDatabases) return {};
    return {Candidate{places.env_dir, "DAMAS_EGDB"}};
  }
  std::vector<Candidate> out;
  if (std::string d = user_dir(places); !d.empty()) out.push_back({d, "user directory"});
  if (std::string d = installed_dir(places); !d.empty()) out.push_back({d, "installed"});
  return out;
}

Found find_databases(const Places& places, int max_pieces, Variant variant) {
  Found best;
  for (const Candidate& c : candidates(places)) {
    const std::string dir = variant_dir(c.dir, variant);
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    const int pieces = complete_pieces(dir, max_pieces);
    if (pieces >= 2 && pieces > best.pieces) best = Found{dir, c.source, pieces};
  }
  return best;
}

}  // namespace damas::egdb
