#include "damas/core/file_check.h"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "damas/core/platform.h"

namespace damas {
namespace {

namespace fs = std::filesystem;

std::string named(std::string_view what, const std::string& path) { return std::string(what) + " " + path; }

std::string too_large(std::string_view what, const std::string& path, std::uintmax_t size,
                      std::uintmax_t max) {
  return named(what, path) + ": " + std::to_string(size) + " bytes, over the limit of " +
         std::to_string(max) + " bytes";
}

std::string not_regular(std::string_view what, const std::string& path, fs::file_type type) {
  const char* kind = type == fs::file_type::directory                                   ? "a directory"
                     : type == fs::file_type::character || type == fs::file_type::block ? "a device"
                     : type == fs::file_type::fifo                                      ? "a pipe"
                     : type == fs::file_type::socket                                    ? "a socket"
                                                                                        : "not a plain file";
  return named(what, path) + ": not a regular file (" + kind + ")";
}

// Reads the checked file into `out` (a std::string or a byte vector).
template <typename Buffer>
Status read_into(const std::string& path, std::string_view what, std::uintmax_t max_bytes, Buffer& out) {
  if (Status s = check_regular_file(path, what, max_bytes); !s) return s;
  // Opened so that a pipe put in the file's place since the check cannot make the read wait.
  const platform::ReadOnlyFile file = platform::open_regular_file(path);
  if (!file) return Error{"cannot open " + named(what, path) + ": " + file.error};
  if (file.size > max_bytes) return Error{too_large(what, path, file.size, max_bytes)};
  out.resize(static_cast<std::size_t>(file.size));
  std::size_t done = 0;
  while (done < out.size()) {
    const std::size_t n = std::fread(out.data() + done, 1, out.size() - done, file.stream.get());
    if (n == 0 && std::ferror(file.stream.get()))
      return Error{"cannot read " + named(what, path) + ": " + std::generic_category().message(errno)};
    if (n == 0) break;  // the file shrank while being read: what is there
    done += n;
  }
  out.resize(done);
  if (done == file.size && std::fgetc(file.stream.get()) != EOF)
    return Error{named(what, path) + ": the file grows while being read"};
  return Ok{};
}

}  // namespace

Status check_regular_file(const std::string& path, std::string_view what, std::uintmax_t max_bytes) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec) return Error{"cannot open " + named(what, path) + ": " + ec.message()};
  if (st.type() != fs::file_type::regular) return Error{not_regular(what, path, st.type())};
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) return Error{"cannot open " + named(what, path) + ": " + ec.message()};
  if (size > max_bytes) return Error{too_large(what, path, size, max_bytes)};
  return Ok{};
}

Status check_directory(const std::string& path, std::string_view what) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec) return Error{named(what, path) + ": " + ec.message()};
  if (st.type() != fs::file_type::directory) return Error{named(what, path) + ": not a directory"};
  return Ok{};
}

Status check_output_file(const std::string& path, std::string_view what) {
  if (path.empty()) return Error{"empty path for the " + std::string(what)};
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!ec) {
    if (st.type() != fs::file_type::regular) return Error{not_regular(what, path, st.type())};
    return Ok{};
  }
  if (ec != std::errc::no_such_file_or_directory)
    return Error{"cannot write " + named(what, path) + ": " + ec.message()};
  const fs::path parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  if (Status s = check_directory(folder, "folder of the " + std::string(what)); !s)
    return Error{"cannot write " + named(what, path) + ": " + s.error()};
  return Ok{};
}

Expected<std::string> read_checked_file(const std::string& path, std::string_view what,
                                        std::uintmax_t max_bytes) {
  std::string text;
  if (Status s = read_into(path, what, max_bytes, text); !s) return Error{s.error()};
  return text;
}

Expected<std::vector<unsigned char>> read_checked_bytes(const std::string& path, std::string_view what,
                                                        std::uintmax_t max_bytes) {
  std::vector<unsigned char> bytes;
  if (Status s = read_into(path, what, max_bytes, bytes); !s) return Error{s.error()};
  return bytes;
}

}  // namespace damas
