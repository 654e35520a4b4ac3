// `--plugin PATH` and FATHOM_PLUGIN_PATH for every fathom command (app/PluginsCommand.cpp).
#pragma once

#include <string>
#include <vector>

namespace fathom::cli {

// Takes every `--plugin PATH` / `--plugin=PATH` out of argv (argc shrinks) into *paths;
// kExitOk, else the exit code of the error it printed.
int takePluginFlags(int& argc, char** argv, std::vector<std::string>* paths);
// Loads them and FATHOM_PLUGIN_PATH's; kExitOk, else 2 after printing why the first plugin named
// by --plugin did not load (FATHOM_PLUGIN_PATH's failures are warnings).
int loadCommandPlugins(const std::vector<std::string>& asked);

}  // namespace fathom::cli
