#include "engine/jit/JitBackend.h"

#include <chrono>
#include <cstdio>

namespace fathom {

aot::GraphRunner jitGraphRunner(JitOptions options, JitRun* stats, std::map<const Graph*, std::string> names) {
  // Compiled graphs by the graph's address: a runner serves graphs that outlive it.
  auto compiled = std::make_shared<std::map<const Graph*, std::unique_ptr<CompiledGraph>>>();
  return [compiled, options, stats, names](const Graph& g, ValueList inputs) -> Result<ValueList> {
    using Clock = std::chrono::steady_clock;
    auto& slot = (*compiled)[&g];
    if (!slot) {
      const auto t0 = Clock::now();
      JitOptions named = options;
      if (auto it = names.find(&g); it != names.end()) named.graphName = it->second;
      auto cg = CompiledGraph::compile(g, named);
      FATHOM_TRY(cg);
      slot = std::move(*cg);
      if (stats) {
        stats->graphs += 1;
        stats->kernels += static_cast<int64_t>(slot->kernels().size());
        stats->generated += slot->generatedKernels();
        const JitStats& s = slot->stats();
        stats->compile.kernels += s.kernels;
        stats->compile.fromMemory += s.fromMemory;
        stats->compile.fromDisk += s.fromDisk;
        stats->compile.compiled += s.compiled;
        stats->compile.compileMs += s.compileMs;
        stats->compile.optimizeMs += s.optimizeMs;
        stats->compile.machineCodeMs += s.machineCodeMs;
        stats->compile.loadMs += s.loadMs;
        stats->compileSeconds += std::chrono::duration<double>(Clock::now() - t0).count();
      }
    }
    const auto t1 = Clock::now();
    auto out = slot->run(std::move(inputs));
    if (stats) stats->runSeconds += std::chrono::duration<double>(Clock::now() - t1).count();
    return out;
  };
}

std::string jitRunText(const JitRun& r) {
  char text[320];
  std::snprintf(text, sizeof text,
                "%lld graph%s, %lld kernels (%lld generated: %lld compiled in %.1f ms, %lld from the disk cache, %lld already "
                "in memory; the rest eager); compile %.1f ms, run %.1f ms",
                static_cast<long long>(r.graphs), r.graphs == 1 ? "" : "s", static_cast<long long>(r.kernels),
                static_cast<long long>(r.generated), static_cast<long long>(r.compile.compiled), r.compile.compileMs,
                static_cast<long long>(r.compile.fromDisk), static_cast<long long>(r.compile.fromMemory),
                r.compileSeconds * 1e3, r.runSeconds * 1e3);
  return text;
}

}  // namespace fathom
