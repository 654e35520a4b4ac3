#include "engine/jit/CompileEvents.h"

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
  size_t generated = 0;
  for (const CompiledKernel& k : cg.kernels()) {
    std::vector<std::string> nodes;
    for (NodeRef n : k.planned->nodes) nodes.push_back(cg.graph().node(n).name);
    std::vector<LogField> fields = {{"graph", options.graphName}, {"kernel", k.planned->name},
                                    {"kind", std::string(kernelKindName(k.planned->kind))}, {"nodes", nodes},
                                    {"code", std::string(k.fn ? "llvm" : "eager")}};
    if (!options.dumpPath.empty()) fields.push_back({"dump", options.dumpPath});
    if (k.fn) {
      const KernelSource source = generated < stats.sources.size() ? stats.sources[generated] : KernelSource::Compiled;
      ++generated;
      fields.push_back({"source", std::string(kernelSourceName(source))});
      fields.push_back({"compile_ms", source == KernelSource::Compiled ? perCompiled : 0.0});
    } else {
      fields.push_back({"why", k.eagerReason});
    }
    log->emit("kernel_compiled", 0, "compile", fields);
  }
  const auto trust = inputTrust(cg.ordered(), cg.kernels());
  const auto placeholders = cg.ordered().placeholders();
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const Node& p = cg.ordered().node(placeholders[i]);
    const auto* m = p.val.tryAs<TensorMeta>();
    if (!m || trust[i].kernel.empty()) continue;
    std::vector<LogField> fields = {{"graph", options.graphName}, {"input", p.name}, {"sizes", texts(m->sizes)},
                                    {"strides", texts(m->strides)}, {"kernel", trust[i].kernel}, {"nodes", trust[i].nodes},
                                    {"check", std::string(options.checkInputs ? "runtime" : "unchecked")}};
    if (!options.dumpPath.empty()) fields.push_back({"dump", options.dumpPath});
    log->emit("compile_assumption", 0, "compile", fields);
  }
}

}  // namespace fathom
