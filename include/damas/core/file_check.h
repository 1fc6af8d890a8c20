// Every path a person or a program gives damas is hostile until checked: it may name a device that
// never ends (/dev/zero), a pipe that never answers, a directory, a file of gigabytes, or a name the
// system refuses (too long, no access). These checks and the one bounded reader turn all of that
// into one clear error value; nothing here throws, blocks on a pipe or reads past its limit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"

namespace damas {

// Size limits of the files damas reads, in bytes: generous for real files, small enough that a
// wrong path cannot fill the memory.
namespace file_limit {
inline constexpr std::uintmax_t kText = std::uintmax_t{256} << 20;    // PDN, openings, tactics, text weights
inline constexpr std::uintmax_t kWeights = std::uintmax_t{64} << 20;  // learned-weights files
inline constexpr std::uintmax_t kTrainingData = std::uintmax_t{16} << 30;   // datagen output
inline constexpr std::uintmax_t kDatabaseSlice = std::uintmax_t{16} << 30;  // one endgame-database file
}  // namespace file_limit

// The path names (after symbolic links) a regular file of at most max_bytes. `what` names it in
// the error: "evaluation file /dev/zero: not a regular file".
Status check_regular_file(const std::string& path, std::string_view what, std::uintmax_t max_bytes);

// The path names (after symbolic links) a directory.
Status check_directory(const std::string& path, std::string_view what);

// Where a file may be written: the path is a regular file, or does not exist and its folder does.
Status check_output_file(const std::string& path, std::string_view what);

// The whole file after check_regular_file; never reads more than max_bytes (a file that grows
// while being read is refused too).
Expected<std::string> read_checked_file(const std::string& path, std::string_view what,
                                        std::uintmax_t max_bytes);
Expected<std::vector<unsigned char>> read_checked_bytes(const std::string& path, std::string_view what,
                                                        std::uintmax_t max_bytes);

}  // namespace damas
