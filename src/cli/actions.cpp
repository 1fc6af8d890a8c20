#include <iostream>

#include "damas/cli/cli.h"

namespace damas::cli {

int run_action(std::string_view command, std::string_view usage, const std::vector<Action>& actions,
               const Args& args) {
  const std::string name = args.empty() ? "" : args.front();
  const Args rest(args.empty() ? args.begin() : args.begin() + 1, args.end());
  for (const Action& action : actions)
    if (name == action.name) return action.run(rest);
  if (name != "--help" && name != "-h") {
    std::cerr << command << ": unknown or missing action \"" << name << "\"\n"
              << usage << " (each has --help)\n";
    return 2;
  }
  std::cout << usage << "\n";
  for (const Action& action : actions) {
    std::cout << "\n";
    action.run({"--help"});
  }
  return 0;
}

}  // namespace damas::cli
