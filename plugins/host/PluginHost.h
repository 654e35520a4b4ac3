// Loading plugins (plugins/api/FathomPlugin.h) into a fathom process: `--plugin PATH` on every
// command and in fathom-gui, and FATHOM_PLUGIN_PATH (files, or folders whose *.so are loaded).
//
// Containment: each plugin is first loaded in a child process (fork, dlopen, version check, its
// registrations staged and checked), so one that crashes while loading is an error naming it and
// fathom goes on; then it loads here. Whatever goes wrong - the file does not load (a missing
// symbol), it is not a Fathom plugin, its API version differs, it registers a name that exists
// (an op, a backend, a predicate, an importer: built in or another plugin's) - is one error
// naming the file and the name, and nothing of that plugin stays registered.
//
//   auto report = loadPlugins({"/opt/my/libmy_ops.so"}, std::getenv("FATHOM_PLUGIN_PATH"));
//   for (const auto& e : report.errors) ... e.path, e.message, e.asked
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/core/Result.h"

namespace fathom::plugin {

struct LoadedPlugin {
  std::string path, name, version;
  std::vector<std::string> ops, backends, predicates, importers;
  std::vector<std::string> opsWithoutMeta;  // their layouts are inferred from the kernel
};

struct PluginError {
  std::string path, message;
  bool asked = false;  // named by --plugin (the command fails) rather than found on FATHOM_PLUGIN_PATH
};

struct PluginLoadReport {
  std::vector<LoadedPlugin> loaded;
  std::vector<PluginError> errors;
};

// Loads one plugin (checked in a child process first): all it registers, or an error.
Result<LoadedPlugin> loadPlugin(const std::string& path);

// The --plugin paths (asked) and FATHOM_PLUGIN_PATH's entries (colon-separated; null or empty:
// none), each once; a path already loaded is skipped.
PluginLoadReport loadPlugins(const std::vector<std::string>& asked, const char* searchPath);

// Every plugin this process loaded, in order.
const std::vector<LoadedPlugin>& loadedPlugins();

// What fathom and fathom-gui do at start: loadPlugins(asked, $FATHOM_PLUGIN_PATH), then
// exportPluginPath(). A failure on FATHOM_PLUGIN_PATH goes to `warn` as one line ("warning: PATH
// (from FATHOM_PLUGIN_PATH): why; going on without it"); the first failure of a plugin named by
// --plugin comes back as "PATH: why" ("" when none), and the program stops on it.
std::string loadProgramPlugins(const std::vector<std::string>& asked, const std::function<void(const std::string&)>& warn);
// Every failure loadProgramPlugins met (for `fathom plugins`).
const std::vector<PluginError>& loadErrors();

// Puts every loaded plugin on this process's FATHOM_PLUGIN_PATH, so the processes it starts load
// them too (a script predicate's fathom, a cluster node's probe through srun, fathom-gui's
// `fathom minify`).
void exportPluginPath();

}  // namespace fathom::plugin
