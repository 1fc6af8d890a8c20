// The option registry on the command line (`--threads 2`, `--numbering a1`, ...).
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "damas/cli/cli.h"
#include "damas/core/data_places.h"
#include "damas/core/file_check.h"
#include "damas/engine/engine.h"

namespace po = boost::program_options;

namespace damas::cli {
namespace {

std::string describe(const OptionSpec& spec) {
  std::string text = spec.help;
  if (spec.type == OptionType::Int)
    text += " (" + std::to_string(spec.min) + ".." + std::to_string(spec.max) + ")";
  if (spec.type == OptionType::Enum) {
    text += " (";
    for (std::size_t i = 0; i < spec.values.size(); ++i) text += (i ? "|" : "") + spec.values[i];
    text += ")";
  }
  if (spec.type == OptionType::Bool) text += " (true|false)";
  const std::string default_text = OptionSpec::text(spec.default_value);
  text += default_text.empty() ? "" : "; default " + default_text;
  return text;
}

void add_options(po::options_description& desc, Visibility visibility) {
  for (const OptionSpec& spec : option_specs()) {
    if (spec.visibility != visibility) continue;
    po::typed_value<std::string>* value = po::value<std::string>()->value_name("value");
    if (spec.type == OptionType::Bool) value->implicit_value("true");
    desc.add_options()(spec.name.c_str(), value, describe(spec).c_str());
  }
}

}  // namespace

void add_engine_options(po::options_description& desc) { add_options(desc, Visibility::User); }

void add_variant_option(po::options_description& desc) {
  const OptionSpec& spec = *find_option(option::kVariant);
  desc.add_options()(spec.name.c_str(), po::value<std::string>()->value_name("value"),
                     describe(spec).c_str());
}

Expected<Variant> variant_option(const po::variables_map& vm) {
  const OptionSpec& spec = *find_option(option::kVariant);
  if (!vm.count(spec.name))
    return parse_variant(OptionSpec::text(spec.default_value)).value_or(Variant::Brazilian);
  const std::string& given = vm[spec.name].as<std::string>();
  if (const std::optional<Variant> v = parse_variant(given)) return *v;
  return Error{"--variant: unknown variant \"" + given + "\" (one of: " + spec.values_text() + ")"};
}

void add_tuning_options(po::options_description& desc) {
  po::options_description knobs("Tuning knobs of the search (for measurements; not offered to GUIs)");
  add_options(knobs, Visibility::Tuning);
  desc.add(knobs);
}

Status apply_engine_options(const po::variables_map& vm, const OptionSetter& set, VariantUse use) {
  const std::string variant_name(option::kVariant);
  if (use == VariantUse::BrazilianOnly && vm.count(variant_name) &&
      parse_variant(vm[variant_name].as<std::string>()) != Variant::Brazilian)
    return Error{
        "--variant " + vm[variant_name].as<std::string>() +
        ": this command plays Brazilian draughts only (other games: damas hub, analyze, perft, match, "
        "selfplay, dxp)"};
  for (const OptionSpec& spec : option_specs()) {
    if (!vm.count(spec.name)) continue;
    if (Status s = set(spec.name, vm[spec.name].as<std::string>()); !s) return s;
  }
  return Ok{};
}

Status apply_engine_options(const po::variables_map& vm, Engine& engine, VariantUse use) {
  return apply_engine_options(
      vm, [&engine](std::string_view name, std::string_view value) { return engine.set_option(name, value); },
      use);
}

Status apply_engine_options(const po::variables_map& vm, Options& options, VariantUse use) {
  if (Status s = apply_engine_options(
          vm, [&options](std::string_view name, std::string_view value) { return options.set(name, value); },
          use);
      !s)
    return s;
  return check_option_files(options);
}

Status check_output_option(const po::variables_map& vm, const std::string& name, std::string_view what) {
  if (!vm.count(name) || vm[name].as<std::string>().empty()) return Ok{};  // absent or "": no file
  if (Status s = check_output_file(vm[name].as<std::string>(), what); !s)
    return Error{"--" + name + ": " + s.error()};
  return Ok{};
}

std::string data_file(std::string_view name) {
  std::error_code ec;
  const std::string installed = installed_data_path(DataPlaces::of_process(), name);
  if (!installed.empty() && std::filesystem::exists(installed, ec)) return installed;
  return std::string(DAMAS_SOURCE_DIR) + "/bench/" + std::string(name);
}

std::optional<int> parse_command_line(std::string_view command, const Args& args,
                                      const po::options_description& desc, po::variables_map& vm,
                                      const po::positional_options_description* positional) {
  try {
    po::command_line_parser parser(args);
    parser.options(desc);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    // --help before notify(), which would insist on the required options.
    if (vm.count("help")) {
      std::cout << desc;
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "damas " << command << ": " << e.what() << " (see damas " << command << " --help)\n";
    return 2;
  }
  return std::nullopt;
}

std::optional<int> parse_grouped_command_line(std::string_view command, const Args& args,
                                              const po::options_description& desc,
                                              std::vector<OptionGroup>& groups) {
  namespace style = po::command_line_style;
  try {
    const po::parsed_options parsed =
        po::command_line_parser(args)
            .options(desc)
            .style((style::default_style | style::allow_long_disguise) & ~style::allow_guessing)
            .run();
    for (const po::option& o : parsed.options) {
      if (o.string_key == "help") {
        std::cout << desc;
        return 0;
      }
      groups.push_back(OptionGroup{o.string_key, o.value});
    }
  } catch (const po::error& e) {
    std::cerr << "damas " << command << ": " << e.what() << " (see damas " << command << " --help)\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace damas::cli
