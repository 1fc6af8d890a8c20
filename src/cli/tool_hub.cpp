// `damas` / `damas hub`: the Hub protocol on stdin/stdout. The only place that reads stdin for
// the protocol; everything else is in hub.cpp.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/core/platform.h"
#include "damas/hub/hub.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

void write_line(std::string_view line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

}  // namespace

int hub_main(const Args& args) {
  po::options_description desc(
      "damas [hub] [OPTIONS]: speaks the Hub protocol on stdin/stdout (see protocol/hub.md)\n"
      "Engine options (also settable with set-param)");
  desc.add_options()("help,h", "show this help");
  add_engine_options(desc);
  add_tuning_options(desc);
  po::variables_map vm;
  if (const std::optional<int> exit_code = parse_command_line("hub", args, desc, vm)) return *exit_code;
  Options options;
  if (const Status s = apply_engine_options(vm, options, VariantUse::Any); !s) {
    std::cerr << "damas hub: " << s.error() << "\n";
    return 2;
  }

  // A GUI that goes away must end the session through EOF, not kill it with SIGPIPE.
  platform::prepare_standard_streams();
  hub::Frontend frontend(write_line, options);
  hub::LineSplitter splitter(hub::kMaxLineBytes);
  bool quit = false;
  const hub::LineSplitter::Handler handle = [&](std::string_view line, bool too_long) {
    if (quit) return;
    if (too_long) frontend.reject_long_line();
    else if (frontend.process_line(line) == hub::Frontend::Next::Quit) quit = true;
  };
  char buffer[1 << 16];
  while (!quit) {
    const std::ptrdiff_t n = platform::read_standard_input(buffer, sizeof buffer);
    if (n <= 0) {  // end of input (or a broken pipe): the GUI is gone
      splitter.finish(handle);
      break;
    }
    splitter.feed(std::string_view(buffer, static_cast<std::size_t>(n)), handle);
  }
  frontend.finish();
  return 0;
}

}  // namespace damas::cli
