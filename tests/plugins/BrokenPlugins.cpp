// Plugins that are wrong on purpose, one per way a plugin can fail to load (tests/app/plugins_test.sh),
// and one that loads but crashes inside a minifier query. Each is built from this file with one
// BROKEN_* macro defined (tests/plugins/CMakeLists.txt).
#include <csignal>

#include "engine/interp/DebugInterpreter.h"
#include "plugins/api/FathomPlugin.h"

#if defined(BROKEN_VERSION)
#undef FATHOM_PLUGIN_API_VERSION
#define FATHOM_PLUGIN_API_VERSION 99  // built for a future Fathom
#endif

#if defined(BROKEN_MISSING_SYMBOL)
void fathomFunctionThatDoesNotExist();  // declared, defined nowhere: dlopen's RTLD_NOW refuses
#endif

namespace {

[[maybe_unused]] fathom::Result<fathom::ValueList> crashOnLog(const fathom::Graph& g, fathom::ValueList inputs) {
  for (const auto& n : g.nodes())
    if (n.target == "aten.log.default") std::raise(SIGSEGV);  // a backend's bug on one op
  return fathom::DebugInterpreter(g).run(std::move(inputs));
}

}  // namespace

FATHOM_PLUGIN("broken", "0", registrar) {
#if defined(BROKEN_MISSING_SYMBOL)
  fathomFunctionThatDoesNotExist();
#elif defined(BROKEN_DUPLICATE)
  registrar.backend({"crash-on-log-twin", "fine", crashOnLog, {}});
  registrar.backend({"eager", "a second eager", crashOnLog, {}});  // the built-in's name
#elif defined(BROKEN_CRASH_AT_LOAD)
  volatile int* nowhere = nullptr;
  *nowhere = 1;
  (void)registrar;
#elif defined(BROKEN_CRASHING_BACKEND)
  registrar.backend({"crash-on-log", "dies with SIGSEGV on any graph holding aten.log", crashOnLog, {}});
#else
  (void)registrar;
#endif
}
