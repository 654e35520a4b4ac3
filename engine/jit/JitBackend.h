// The jit backend as a graph runner: what `--backend jit` plugs into every place that runs a graph
// (fathom run, the AOT training step, the minifier's candidates). Each graph is compiled once per
// runner (kernels also come from the process's and the disk's caches) and then run.
//
//   JitRun stats;
//   aot::GraphRunner run = jitGraphRunner({.checkInputs = !unchecked}, &stats);
//   auto step = aot::runPartitioned(fwd, bwd, info, primals, tangents, run);
#pragma once

#include <map>
#include <memory>
#include <string>

#include "engine/aot/TrainingStep.h"
#include "engine/jit/CompiledGraph.h"

namespace fathom {

// What the runner did, over every graph it ran.
struct JitRun {
  int64_t graphs = 0;
  int64_t kernels = 0, generated = 0;  // planned kernels, and those generated (the rest ran eagerly)
  JitStats compile;                   // summed over the graphs
  double compileSeconds = 0, runSeconds = 0;
};

// `stats`, when given, must outlive the runner. `names` name the graphs in the trace log's events
// (options.traceLog).
aot::GraphRunner jitGraphRunner(JitOptions options = {}, JitRun* stats = nullptr,
                                std::map<const Graph*, std::string> names = {});

// "2 graphs, 101 kernels (44 generated: 3 compiled in 21.4 ms, 41 from the disk cache); ..."
std::string jitRunText(const JitRun& run);

}  // namespace fathom
