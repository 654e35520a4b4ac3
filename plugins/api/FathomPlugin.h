// Fathom's plugin API, version 1: what a shared library registers - custom ops, backends,
// minifier failure predicates, dump importers - and how it says which API it was built for.
//
// A plugin is a .so built against the same Fathom headers and compiler as the fathom that loads
// it (find_package(Fathom) gives the target Fathom::plugin). It links no Fathom library: the
// engine's symbols it calls (Tensor, Value, OpError...) resolve against the fathom executable
// that loads it, which exports them, so the registry it fills is that executable's own. The
// version check is explicit: fathom refuses a plugin whose fathom_plugin_api_version() is not
// its FATHOM_PLUGIN_API_VERSION, before calling anything else in it.
//
//   #include <fathom/plugins/api/FathomPlugin.h>
//   FATHOM_PLUGIN("my-ops", "1.0", registrar) {
//     registrar.op({"my::scale(Tensor x, float s) -> Tensor", myScaleMeta, myScaleKernel});
//     registrar.backend({"my-backend", "what it does", runIt, {}});
//   }
//
// Everything a plugin registers goes through a staging step: a name that already exists (a
// built-in op or backend, another plugin's) fails the whole plugin with an error naming both,
// and nothing of it stays registered. A plugin's code that crashes inside a minifier query
// crashes that query's worker process only.
#pragma once

#include <functional>
#include <string>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "engine/dump/DumpImporters.h"
#include "engine/ops/OpRegistry.h"
#include "minifier/Backends.h"
#include "minifier/CustomPredicates.h"
#include "minifier/Minify.h"

#define FATHOM_PLUGIN_API_VERSION 1

namespace fathom::plugin {

// A custom op: its ATen-style schema ("ns::name.overload(Tensor x, ...) -> Tensor"), its CPU
// kernel, and its meta function - optional: without one, Fathom infers the output layout by
// running the kernel (an `infer-meta` assumption the debug interpreter re-checks).
struct OpSpec {
  std::string schema;
  OpFn meta;  // may be empty
  OpFn kernel;
  OpTags tags = {};
};

// A failure predicate for `fathom minify --predicate NAME[:ARG]` and `fathom probe`: name,
// description, check(candidate, backend, arg) -> Verdict, needsWorkers (minifier/CustomPredicates.h).
using PredicateSpec = minify::CustomPredicate;

// A reader of another format into a dump, chosen by the file name's ending: name, suffix,
// load(path) -> Result<Dump> (engine/dump/DumpImporters.h).
using ImporterSpec = DumpImporter;

// What FATHOM_PLUGIN's body registers into.
class Registrar {
 public:
  virtual ~Registrar() = default;
  virtual void op(OpSpec op) = 0;
  virtual void backend(minify::Backend backend) = 0;
  virtual void predicate(PredicateSpec predicate) = 0;
  virtual void importer(ImporterSpec importer) = 0;
};

}  // namespace fathom::plugin

// The three entry points fathom looks up by name (C linkage: no mangling to agree on).
#define FATHOM_PLUGIN(NAME, VERSION, REGISTRAR)                                                     \
  extern "C" __attribute__((visibility("default"))) int fathom_plugin_api_version() {                \
    return FATHOM_PLUGIN_API_VERSION;                                                               \
  }                                                                                                 \
  extern "C" __attribute__((visibility("default"))) const char* fathom_plugin_name() { return NAME; } \
  extern "C" __attribute__((visibility("default"))) const char* fathom_plugin_version() {           \
    return VERSION;                                                                                 \
  }                                                                                                 \
  extern "C" __attribute__((visibility("default"))) void fathom_plugin_register(::fathom::plugin::Registrar& REGISTRAR)
