// Plugins that are wrong on purpose, one per way a plugin can fail to load (tests/app/plugins_test.sh),
// and one that loads but crashes inside a minifier query. Each is built from this file with one
// BROKEN_* macro defined (tests/plugins/CMakeLists.txt).
#include <csignal>

#include "engine/core/Error.h"

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

[[maybe_unused]] fathom::ValueList twiceKernel(const fathom::ValueList& args) {
  auto in = args[0].as<fathom::Tensor>().contiguous();
  FATHOM_CHECK(in.ok(), "twice: ", in.ok() ? "" : in.error().message);
  auto out = fathom::Tensor::empty(in->sizes(), in->dtype());
  FATHOM_CHECK(out.ok(), "twice: no memory");
  for (int64_t k = 0; k < in->numel(); ++k) out->setLinear(k, 2 * in->atLinear(k));
  return {fathom::Value(std::move(*out))};
}

[[maybe_unused]] fathom::ValueList twiceWrongMeta(const fathom::ValueList& args) {
  fathom::TensorMeta m = args[0].as<fathom::TensorMeta>();
  m.strides = fathom::contiguousStrides(m.sizes);
  if (m.dim() == 2) m.strides = {fathom::SymInt(1), m.sizes[0]};  // column-major: the lie
  m.storageOffset = 0;
  return {fathom::Value(std::move(m))};
}

}  // namespace

FATHOM_PLUGIN("broken", "0", registrar) {
#if defined(BROKEN_MISSING_SYMBOL)
  fathomFunctionThatDoesNotExist();
#elif defined(BROKEN_DUPLICATE)
  registrar.backend({"crash-on-log-twin", "fine", crashOnLog, {}});
  registrar.backend({"eager", "a second eager", crashOnLog, {}});  // the built-in's name
#elif defined(BROKEN_CRASH_AT_LOAD)
  (void)registrar;
  std::raise(SIGSEGV);  // as a bad pointer would, without a sanitizer's report in between
#elif defined(BROKEN_CRASHING_BACKEND)
  registrar.backend({"crash-on-log", "dies with SIGSEGV on any graph holding aten.log", crashOnLog, {}});
#elif defined(BROKEN_WRONG_META)
  // Loads fine; its meta claims column-major strides for the kernel's row-major result (the
  // shape of pytorch #182328): caught against the kernel before its first use.
  registrar.op({"broken::twice(Tensor x) -> Tensor", twiceWrongMeta, twiceKernel});
#else
  (void)registrar;
#endif
}
