// Subcommands of the `damas` executable. Each lives in its own src/tool_*.cpp (or front end)
// and receives the arguments after its name. main.cpp only dispatches.
#pragma once

#include <string>
#include <vector>

namespace damas::cli {

using Args = std::vector<std::string>;

int perft_main(const Args& args);
int selfplay_main(const Args& args);
int tactics_main(const Args& args);
int analyze_main(const Args& args);
int bench_main(const Args& args);
int dxp_main(const Args& args);

}  // namespace damas::cli
