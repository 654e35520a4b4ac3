// aot_autograd for a frontend Model: trace the joint graph (static or symbolic), functionalize,
// partition, "compile" both halves, and put everything in one dump (graphs "joint", "forward",
// "backward", the partition, the shape env).
//
// Compiling a half re-propagates fake values through it under the shape environment (what a
// backend compiler does before it generates code); the guards that creates get stage
// "aot-forward" / "aot-backward". With dynamic shapes the backward is traced and compiled
// before the forward's guards are installed, so every guard is in the one guard set the
// first call checks. The lazy mode (BackwardTiming::Lazy) installs the forward's guards first,
// as a compiled function would return from its first call, and forms the backward after: any
// guard added then is a *late guard* - a check the installed guard set does not make - and is
// reported with its provenance.
#pragma once

#include <memory>
#include <vector>

#include "engine/aot/JointGraph.h"
#include "engine/aot/Partition.h"
#include "engine/frontend/ShapeTracing.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::aot {

enum class BackwardTiming { Eager, Lazy };

struct AotOptions {
  ShapeTraceOptions shapes;  // dynamic or static, shape env options, trace log
  Partitioner partitioner = Partitioner::Default;
  BackwardTiming backward = BackwardTiming::Eager;
};

struct LateGuard {
  size_t index;  // in the env's guards()
  std::string expr;
  sym::GuardContext where;
  std::string reason;
};

struct AotCompiled {
  Dump dump;                               // joint, forward, backward, partition, shape env
  JointGraph joint;
  std::shared_ptr<sym::ShapeEnv> env;
  size_t installedGuards = 0;              // guards in the set installed after the forward
  std::vector<LateGuard> lateGuards;       // guards added after that (lazy mode)
  double traceMs = 0, partitionMs = 0, compileMs = 0;
};

Result<AotCompiled> aotCompile(frontend::Model& model, const AotOptions& options);

// Re-propagates fake values through `graph` from its placeholders' recorded meta, checking each
// node's recorded value against the recomputed one (rank and dtype) - the compile step.
Status propagateFake(const Graph& graph);

}  // namespace fathom::aot
