#include "engine/jit/CompileEvents.h"

#include "engine/core/TraceEvents.h"
#include "engine/core/TraceLog.h"
#include "engine/jit/InputLayoutCheck.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {
namespace {

std::vector<std::string> texts(const SymIntList& list) {
  std::vector<std::string> out;
  for (const auto& s : list) out.push_back(s.str());
  return out;
}

}  // namespace

void emitCompileEvents(const CompiledGraph& cg, const JitOptions& options) {
  TraceLog* log = options.traceLog;
  if (!log) return;
  const JitStats& stats = cg.stats();
  const double perCompiled = stats.compiled ? stats.compileMs / static_cast<double>(stats.compiled) : 0.0;
  const auto dump = options.dumpPath.empty() ? std::nullopt : std::optional<std::string>(options.dumpPath);
  size_t generated = 0;
  for (const CompiledKernel& k : cg.kernels()) {
    KernelCompiledEvent event;
    event.graph = options.graphName;
    event.kernel = k.planned->name;
    event.kind = std::string(kernelKindName(k.planned->kind));
    for (NodeRef n : k.planned->nodes) event.nodes.push_back(cg.graph().node(n).name);
    event.code = k.fn ? "llvm" : "eager";
    event.dump = dump;
    if (k.fn) {
      const KernelSource source = generated < stats.sources.size() ? stats.sources[generated] : KernelSource::Compiled;
      ++generated;
      event.source = std::string(kernelSourceName(source));
      event.compileMs = source == KernelSource::Compiled ? perCompiled : 0.0;
    } else {
      event.why = k.eagerReason;
    }
    log->emit(0, "compile", event);
  }
  const auto trust = inputTrust(cg.ordered(), cg.kernels());
  const auto placeholders = cg.ordered().placeholders();
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const Node& p = cg.ordered().node(placeholders[i]);
    const auto* m = p.val.tryAs<TensorMeta>();
    if (!m || trust[i].kernel.empty()) continue;
    log->emit(0, "compile",
              CompileAssumptionEvent{options.graphName, p.name, texts(m->sizes), texts(m->strides), trust[i].kernel,
                                     trust[i].nodes, options.checkInputs ? "runtime" : "unchecked", dump});
  }
}

}  // namespace fathom
