/// @file src/profiler/flag_parser.h
/// The `--name=value` command line shared by cutlass_profiler and cutlass_bench: each program
/// keeps a table of flag parsers; this walks the arguments once against it.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cutlass {
namespace profiler {

/// One flag: parses its value into the options; false with `error` set on a bad value.
template <typename OptionsT>
using FlagParser = std::function<bool(std::string const &value, OptionsT &options, std::string *error)>;

template <typename OptionsT>
using FlagTable = std::map<std::string, FlagParser<OptionsT>>;

/// Applies every argument to `options` through `table`. "--help" and "-h" set *help. A flag for
/// which is_boolean(name) holds may omit "=value" (it means "true"); every other flag needs one.
/// Unknown flags, flags given twice, missing values and bad values are errors. Returns the first
/// error as a sentence, or "" when the command line is valid. `given` (optional) receives the
/// names of the flags on the command line, for checks between flags.
template <typename OptionsT, typename IsBoolean>
std::string parse_flags(std::vector<std::string> const &arguments, FlagTable<OptionsT> const &table,
                        IsBoolean is_boolean, OptionsT &options, bool *help, std::set<std::string> *given = nullptr) {
  std::set<std::string> local;
  std::set<std::string> &seen = given ? *given : local;
  for (std::string const &argument : arguments) {
    if (argument == "--help" || argument == "-h") {
      *help = true;
      continue;
    }
    if (argument.compare(0, 2, "--") != 0) return "unexpected argument '" + argument + "' (flags are --name=value)";
    size_t const equals = argument.find('=');
    std::string const name = argument.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    auto const flag = table.find(name);
    if (flag == table.end()) return "unknown flag '--" + name + "' (see --help)";
    if (!seen.insert(name).second) return "--" + name + " is given twice";
    std::string value;
    if (equals != std::string::npos) {
      value = argument.substr(equals + 1);
    } else if (is_boolean(name)) {
      value = "true";
    } else {
      return "--" + name + " needs a value (--" + name + "=<value>)";
    }
    std::string error;
    if (!flag->second(value, options, &error)) return "--" + name + ": " + error;
  }
  return "";
}

/// The first (by name) of the `given` flags that is not one of `allowed` (a mode's own flags), or
/// "" when every one is.
inline std::string first_flag_outside(std::set<std::string> const &given, std::set<std::string> const &allowed) {
  for (std::string const &name : given) {
    if (allowed.count(name) == 0) return name;
  }
  return "";
}

}  // namespace profiler
}  // namespace cutlass
