// Plugins on the command line: `--plugin PATH` (any number, anywhere after `fathom`) and
// FATHOM_PLUGIN_PATH load before the command line is parsed, so a plugin's backends and
// predicates are valid choices (and listed in --help); `fathom plugins [--json]` says what loaded
// and what each registered. A plugin named by --plugin that fails is the command's error (exit 2);
// one found on FATHOM_PLUGIN_PATH is a warning and the command goes on without it. Loaded plugins
// are put on FATHOM_PLUGIN_PATH for the processes fathom starts (a minifier's script predicate, a
// cluster node's `fathom probe` through srun, which passes the environment on).
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "app/PluginFlags.h"
#include "plugins/api/FathomPlugin.h"
#include "plugins/host/PluginHost.h"

namespace fathom::cli {
namespace {

Json pluginJson(const plugin::LoadedPlugin& p) {
  return {{"path", p.path}, {"name", p.name},         {"version", p.version},       {"ops", p.ops},
          {"backends", p.backends}, {"predicates", p.predicates}, {"importers", p.importers}, {"ops_without_meta", p.opsWithoutMeta}};
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

int listPlugins(bool json) {
  const auto& loaded = plugin::loadedPlugins();
  if (json) {
    Json list = Json::array(), errors = Json::array();
    for (const auto& p : loaded) list.push_back(pluginJson(p));
    for (const auto& e : plugin::loadErrors()) errors.push_back({{"path", e.path}, {"error", e.message}});
    printJson({{"api_version", FATHOM_PLUGIN_API_VERSION}, {"plugins", list}, {"errors", errors}});
    return kExitOk;
  }
  if (loaded.empty() && plugin::loadErrors().empty()) std::cout << "no plugins loaded (load one with --plugin PATH or FATHOM_PLUGIN_PATH)\n";
  for (const auto& p : loaded) {
    std::cout << p.name << " " << p.version << " (" << p.path << ")\n";
    for (const auto& [what, names] : {std::pair{"ops", p.ops}, {"backends", p.backends}, {"predicates", p.predicates}, {"importers", p.importers}})
      if (!names.empty()) std::cout << "  " << what << ": " << joined(names) << "\n";
    if (!p.opsWithoutMeta.empty()) std::cout << "  layouts inferred from the kernel: " << joined(p.opsWithoutMeta) << "\n";
  }
  for (const auto& e : plugin::loadErrors()) std::cout << "not loaded: " << e.path << ": " << e.message << "\n";
  return kExitOk;
}

}  // namespace

int takePluginFlags(int& argc, char** argv, std::vector<std::string>* paths) {
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--plugin") {
      if (i + 1 >= argc) return usageError("--plugin needs the path of a plugin (a .so built with plugins/api/FathomPlugin.h)");
      paths->push_back(argv[++i]);
    } else if (arg.rfind("--plugin=", 0) == 0) {
      paths->push_back(arg.substr(9));
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  argv[argc] = nullptr;
  return kExitOk;
}

int loadCommandPlugins(const std::vector<std::string>& asked) {
  const std::string error = plugin::loadProgramPlugins(asked, [](const std::string& line) { printErrorLine(line); });
  return error.empty() ? kExitOk : usageError(error);
}

Command addPluginsCommand(CLI::App& parent) {
  auto json = std::make_shared<bool>(false);
  CLI::App* app = parent.add_subcommand("plugins", "List the loaded plugins (--plugin PATH, FATHOM_PLUGIN_PATH) and what each registered");
  app->add_flag("--json", *json,
                "Print JSON: {api_version, plugins: [{path, name, version, ops, backends, predicates, importers, ops_without_meta}], "
                "errors: [{path, error}]}");
  return {app, [json] { return listPlugins(*json); }};
}

}  // namespace fathom::cli
