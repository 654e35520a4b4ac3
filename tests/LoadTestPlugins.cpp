// The faulty backends the tests inject bugs with are a plugin (plugins/faulty_backends). The test
// executables load it before any test runs - from the build tree, where CMake put it - and hand it
// on through FATHOM_PLUGIN_PATH to the fathom processes they start (the GUI's minifier panel).
#include <cstdio>

#include "plugins/host/PluginHost.h"

namespace {

const bool kFaultyBackendsLoaded = [] {
  const auto report = fathom::plugin::loadPlugins({FATHOM_FAULTY_BACKENDS_PLUGIN}, nullptr);
  for (const auto& e : report.errors) std::fprintf(stderr, "tests: %s: %s\n", e.path.c_str(), e.message.c_str());
  fathom::plugin::exportPluginPath();
  return report.errors.empty();
}();

}  // namespace
