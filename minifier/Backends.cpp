#include "minifier/Backends.h"

#include "engine/interp/DebugInterpreter.h"
#include "engine/jit/CompiledGraph.h"

namespace fathom::minify {
namespace {

Result<ValueList> eager(const Graph& g, ValueList inputs) { return DebugInterpreter(g).run(std::move(inputs)); }

// The compiling backend: fused kernels generated with LLVM that trust the recorded strides; with
// the input checks (a wrongly described input fails naming it) or without them (the kernels read
// it with the recorded strides: a silent wrong result, as from a compiler that trusted its meta).
Result<ValueList> jit(const Graph& g, ValueList inputs, bool checked) {
  JitOptions options;
  options.checkInputs = checked;
  auto compiled = CompiledGraph::compile(g, options);
  FATHOM_TRY(compiled);
  return (*compiled)->run(std::move(inputs));
}
Result<ValueList> jitChecked(const Graph& g, ValueList inputs) { return jit(g, std::move(inputs), true); }
Result<ValueList> jitUnchecked(const Graph& g, ValueList inputs) { return jit(g, std::move(inputs), false); }

Graph recordedMeta(const Graph& g) { return g; }

std::deque<Backend>& registry() {
  static std::deque<Backend> all = {
      {"eager", "the interpreter, op by op", eager, recordedMeta},
      {"jit", "fused kernels generated with LLVM, inputs checked against their recorded layout", jitChecked, recordedMeta},
      {"jit-unchecked", "the jit without input checks: kernels trust the recorded strides", jitUnchecked, recordedMeta},
  };
  return all;
}

}  // namespace

const std::deque<Backend>& backends() { return registry(); }

Status registerBackend(Backend b) {
  if (b.name.empty() || !b.run) return invalidInput("backend '" + b.name + "' needs a name and a run function");
  if (findBackend(b.name)) return invalidInput("backend '" + b.name + "' is already registered");
  if (!b.meta) b.meta = recordedMeta;
  registry().push_back(std::move(b));
  return {};
}

bool isBuiltinBackend(std::string_view name) { return name == "eager" || name == "jit" || name == "jit-unchecked"; }

const Backend* findBackend(std::string_view name) {
  for (const auto& b : backends())
    if (b.name == name) return &b;
  return nullptr;
}

std::string backendNames() {
  std::string out;
  for (const auto& b : backends()) out += (out.empty() ? "" : ", ") + b.name;
  return out;
}

}  // namespace fathom::minify
