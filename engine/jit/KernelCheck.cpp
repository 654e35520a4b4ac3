#include "engine/jit/KernelCheck.h"

#include <cstdio>

#include "engine/interp/Interpreter.h"
#include "engine/interp/ValueDiff.h"
#include "engine/jit/KernelLaunch.h"

namespace fathom {
namespace {

// The first way `got` differs from `want`, if any.
std::optional<KernelDivergence> compare(const Tensor& got, const Tensor& want, const KernelCheckOptions& o) {
  KernelDivergence d;
  if (got.dtype() != want.dtype()) {
    d.field = "dtype";
    d.expected = std::string(dtypeName(want.dtype()));
    d.actual = std::string(dtypeName(got.dtype()));
  } else if (got.sizes() != want.sizes()) {
    d.field = "sizes";
    d.expected = intListText(want.sizes());
    d.actual = intListText(got.sizes());
  } else if (got.strides() != want.strides() && got.numel() > 1) {
    d.field = "strides";
    d.expected = intListText(want.strides());
    d.actual = intListText(got.strides());
  } else {
    const ValueDiff v = diffValues(Value(got), Value(want), o.rtol, o.atol);
    if (v.ok) return std::nullopt;
    d.field = "values";
    d.maxAbsDiff = v.maxAbsDiff;
    d.scale = v.scale;
    char text[128];
    std::snprintf(text, sizeof text, "max |diff| %.3g (largest |x| %.3g)", v.maxAbsDiff, v.scale);
    d.actual = text;
    std::snprintf(text, sizeof text, "within rtol %g, atol %g", o.rtol, o.atol);
    d.expected = text;
  }
  return d;
}

// The eager values of every node, by the source graph's node index.
Result<std::vector<Value>> eagerValues(const Graph& graph, const ValueList& inputs) {
  Interpreter interp(graph, InterpreterOptions{.keepIntermediates = true});
  FATHOM_TRY(interp.start(inputs));
  while (!interp.done()) FATHOM_TRY(interp.step());
  std::vector<Value> values;
  for (size_t i = 0; i < graph.size(); ++i) values.push_back(interp.value(NodeRef{static_cast<int32_t>(i)}));
  return values;
}

}  // namespace

Result<KernelCheckReport> checkKernels(const Graph& graph, const ValueList& inputs, KernelCheckOptions options) {
  auto compiled = CompiledGraph::compile(graph, options.jit);
  FATHOM_TRY(compiled);
  auto eager = eagerValues(graph, inputs);
  if (!eager.ok()) return eager.error().within("eager run");
  SymbolBinding binding;
  const auto placeholders = graph.placeholders();
  for (size_t i = 0; i < placeholders.size() && i < inputs.size(); ++i) binding.bindFrom(graph.node(placeholders[i]).val, inputs[i]);
  const ValueByName valueOf = [&](const std::string& name) -> const Value* {
    auto ref = graph.find(name);
    return ref ? &(*eager)[static_cast<size_t>(ref->index)] : nullptr;
  };
  KernelCheckReport report;
  report.kernels = static_cast<int64_t>((*compiled)->kernels().size());
  for (const CompiledKernel& ck : (*compiled)->kernels()) {
    if (!ck.fn) continue;
    ++report.generated;
    auto outs = launchKernel(*ck.lowered, ck.fn, graph, binding, valueOf);
    if (!outs.ok()) return outs.error().within("kernel " + ck.lowered->name);
    for (const auto& [name, got] : *outs) {
      const Value* want = valueOf(name);
      const Tensor* w = want ? want->tryAs<Tensor>() : nullptr;
      if (!w) continue;
      auto d = compare(got, *w, options);
      if (!d) continue;
      d->kernel = ck.lowered->name;
      d->nodes = ck.lowered->nodes;
      d->value = name;
      report.divergences.push_back(std::move(*d));
    }
  }
  return report;
}

std::string divergenceText(const KernelDivergence& d) {
  std::string nodes;
  for (size_t i = 0; i < d.nodes.size(); ++i) nodes += (i ? ", %" : "%") + d.nodes[i];
  return "kernel " + d.kernel + " (" + nodes + "): %" + d.value + " " + d.field + " " + d.actual + ", eager " + d.expected;
}

}  // namespace fathom
