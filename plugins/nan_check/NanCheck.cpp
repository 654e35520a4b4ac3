// An in-tree plugin with a failure predicate and a backend, as a team would ship its own idea of
// "still failing" and its own compiler:
//   --predicate nonfinite[:OUTPUT]   an output (or output number OUTPUT) holds NaN or Inf
//   --backend flush-denormals        eager, then every float output's values below 1e-30 in
//                                    magnitude become 0 (a backend with its own numerics)
// Built as libfathom_nan_check.so; load with --plugin.
#include <cmath>
#include <string>

#include "engine/interp/DebugInterpreter.h"
#include "engine/interp/ExampleInputs.h"
#include "plugins/api/FathomPlugin.h"

namespace {

using namespace fathom;

// The first output (or output `only`) holding a NaN or Inf, as "output 1: 3 of 12 values are NaN or Inf".
std::string firstNonFinite(const ValueList& outs, int only) {
  for (size_t i = 0; i < outs.size(); ++i) {
    const auto* t = outs[i].tryAs<Tensor>();
    if (!t || !t->defined() || (only >= 0 && static_cast<int>(i) != only)) continue;
    int64_t bad = 0;
    for (int64_t k = 0; k < t->numel(); ++k) bad += !std::isfinite(t->atLinear(k));
    if (bad > 0) return "output " + std::to_string(i) + ": " + std::to_string(bad) + " of " + std::to_string(t->numel()) + " values are NaN or Inf";
  }
  return "";
}

minify::Verdict nonFinite(const minify::Candidate& c, const minify::Backend& backend, const std::string& arg) {
  auto inputs = materializeInputs(c.inputs);
  if (!inputs.ok()) return {false, "inputs: " + inputs.error().str()};
  auto outs = backend.run(c.graph, std::move(*inputs));
  if (!outs.ok()) return {false, "raised: " + outs.error().str()};
  const std::string found = firstNonFinite(*outs, arg.empty() ? -1 : std::stoi(arg));
  return {!found.empty(), found.empty() ? "every output is finite" : found};
}

Result<ValueList> flushDenormals(const Graph& g, ValueList inputs) {
  auto outs = DebugInterpreter(g).run(std::move(inputs));
  if (!outs.ok()) return outs;
  for (auto& v : *outs)
    if (v.is<Tensor>() && v.as<Tensor>().defined() && isFloating(v.as<Tensor>().dtype())) {
      Tensor& t = v.as<Tensor>();
      for (int64_t k = 0; k < t.numel(); ++k)
        if (std::abs(t.atLinear(k)) < 1e-30) t.setLinear(k, 0.0);
    }
  return outs;
}

}  // namespace

FATHOM_PLUGIN("nan-check", "1.0", registrar) {
  registrar.predicate({"nonfinite", "an output (or output number ARG) holds NaN or Inf", nonFinite, false});
  registrar.backend({"flush-denormals", "eager, then values below 1e-30 in magnitude become 0", flushDenormals, {}});
}
