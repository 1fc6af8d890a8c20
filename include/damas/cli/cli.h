// Subcommands of the `damas` executable. Each lives in its own src/tool_*.cpp (or front end)
// and receives the arguments after its name. main.cpp only dispatches.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "damas/core/expected.h"
#include "damas/engine/options.h"

namespace boost::program_options {
class options_description;
class positional_options_description;
class variables_map;
}  // namespace boost::program_options

namespace damas {
class Engine;
}  // namespace damas

namespace damas::cli {

using Args = std::vector<std::string>;

int perft_main(const Args& args);
int selfplay_main(const Args& args);
int tactics_main(const Args& args);
int safety_main(const Args& args);  // tool_safety.cpp: `safety check` and `safety mine`
int analyze_main(const Args& args);
int bench_main(const Args& args);
int dxp_main(const Args& args);
int serve_main(const Args& args);
int soak_main(const Args& args);  // tools/soak: load and attack of damas serve on loopback
int datagen_main(const Args& args);
int unbalanced_main(const Args& args);  // tool_unbalanced.cpp: unbalanced start positions from datagen files
int openings_main(const Args& args);    // tool_openings.cpp: balanced openings of a game for matches
int book_main(const Args& args);        // tool_book.cpp: the opening book: build, info, probe
int hub_main(const Args& args);         // also what `damas` runs without a subcommand
int match_main(const Args& args);
int puzzles_main(const Args& args);           // tool_puzzles.cpp
int egdb_main(const Args& args);              // build, verify, info, probe, convert, count
int egdb_convert_main(const Args& args);      // `egdb convert`: tool_egdb_convert.cpp
int egdb_ending_data_main(const Args& args);  // `egdb ending-data`: the same file

// The engine options of the registry (options.h) on the command line: one --<name> <value>
// each, so a name means the same thing on the command line and in `set-param`. User options only.
void add_engine_options(boost::program_options::options_description& desc);
// The tuning knobs (Visibility::Tuning) as a group of their own, for the commands that measure the
// search (bench, selfplay, hub); apply_engine_options applies them too.
void add_tuning_options(boost::program_options::options_description& desc);
// --variant alone, as the registry declares it (values, default), for the tools that take no
// other engine option (perft, egdb).
void add_variant_option(boost::program_options::options_description& desc);
// The variant of --variant (the default when absent); an unknown name is an error naming the values.
Expected<Variant> variant_option(const boost::program_options::variables_map& vm);
// Whether a command plays the games other than Brazilian (--variant): hub, analyze, selfplay and
// dxp do; the others (the board, the data tools) refuse another --variant rather than ignore it.
enum class VariantUse { BrazilianOnly, Any };
// Applies the engine options present in vm; the first bad value is returned as an error.
Status apply_engine_options(const boost::program_options::variables_map& vm, Options& options,
                            VariantUse use = VariantUse::BrazilianOnly);
// The same through any setter (e.g. Engine::set_option, which also checks files and sizes).
using OptionSetter = std::function<Status(std::string_view name, std::string_view value)>;
Status apply_engine_options(const boost::program_options::variables_map& vm, const OptionSetter& set,
                            VariantUse use = VariantUse::BrazilianOnly);
// The same on an engine (Engine::set_option, which also checks files and sizes).
Status apply_engine_options(const boost::program_options::variables_map& vm, Engine& engine,
                            VariantUse use = VariantUse::BrazilianOnly);

// The file named by the command-line option `name`, when given, may be written
// (core/file_check.h: a regular file or a new one in an existing folder).
Status check_output_option(const boost::program_options::variables_map& vm, const std::string& name,
                           std::string_view what);

// A data file shipped with damas (openings.txt, tactics.txt, ...): <exe>/../share/damas/<name>
// when installed, else the source tree's bench/<name>.
std::string data_file(std::string_view name);

// Parses a subcommand's arguments into vm (words without an option name by `positional`, when
// given). Returns the exit code when the command must end now: 0 after printing --help, 2 after a
// bad argument (reported on stderr). nullopt: go on.
std::optional<int> parse_command_line(
    std::string_view command, const Args& args, const boost::program_options::options_description& desc,
    boost::program_options::variables_map& vm,
    const boost::program_options::positional_options_description* positional = nullptr);

// A command made of actions (`damas egdb build`, `damas book info`, ...): runs the action named by
// the first word with the words after it. "--help" prints the usage and every action's help (the
// man page is made of it); an unknown or missing action is reported with the usage (exit code 2).
struct Action {
  const char* name;
  int (*run)(const Args& args);
};
int run_action(std::string_view command, std::string_view usage, const std::vector<Action>& actions,
               const Args& args);

// cutechess-cli style options: "-engine cmd=x name=y -each tc=10+0.1 -repeat". Every option
// of desc takes zero or more words; each occurrence is one group, in command-line order; both
// -name and --name are accepted. Returns the exit code when the command must end now (as
// parse_command_line), nullopt to go on.
struct OptionGroup {
  std::string name;
  std::vector<std::string> words;
};
std::optional<int> parse_grouped_command_line(std::string_view command, const Args& args,
                                              const boost::program_options::options_description& desc,
                                              std::vector<OptionGroup>& groups);

}  // namespace damas::cli
