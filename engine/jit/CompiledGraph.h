// CompiledGraph: a graph compiled by the jit backend - its fusion plan, each pointwise and
// reduction kernel generated as machine code (engine/compile), and a runtime that runs the plan:
// generated kernels through their function pointers, everything else (matmuls, views, row-local
// composites, kernels the generator does not handle) on the eager kernels.
//
//   auto cg = CompiledGraph::compile(graph, {});          // plans, lowers, generates
//   Result<ValueList> outs = cg->run(inputs);             // checks the inputs, runs the kernels
//
// What it trusts, as Inductor does: the graph's recorded meta. Outputs of generated kernels get
// the recorded strides; kernels read their inputs with the recorded strides (symbols bound from the
// real inputs' sizes). Before running, each input's sizes and strides are checked against that
// meta (Inductor's assert_size_stride) and a mismatch fails naming the input, both layouts and the
// first kernel that trusts it; JitOptions::checkInputs = false (--unchecked) skips the check, so the
// kernels read a wrongly described input with the wrong strides - the silent wrong result users
// of a compiler meet.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/compile/FusionPlan.h"
#include "engine/compile/KernelIR.h"
#include "engine/compile/KernelJit.h"
#include "engine/core/Result.h"
#include "engine/graph/Graph.h"
#include "engine/jit/KernelLaunch.h"

namespace fathom {

class TraceLog;

struct JitOptions {
  bool checkInputs = true;
  FusionOptions fusion;
  bool keepIntermediates = false;  // keep every node's value after run() (kernel-by-kernel checks)
  // When set, compile() appends, at stage "compile": a kernel_compiled event per kernel (nodes,
  // code llvm|eager and why, where its code came from, compile ms) and a compile_assumption
  // event per input (the layout the kernels trust, who trusts it, checked at run time or not).
  TraceLog* traceLog = nullptr;
  std::string graphName;  // for the events
  std::string dumpPath;   // for the events: the dump the graph came from, when known
};

// One kernel of the plan as compiled: generated (fn set) or run on the eager kernels, and why.
struct CompiledKernel {
  const FusedKernel* planned = nullptr;
  std::optional<LoweredKernel> lowered;  // set when generated
  KernelFn fn = nullptr;
  std::string eagerReason;               // why not generated ("extern kernels run on ...")
};

// Who trusts an input's meta: the first generated kernel that reads it, and its nodes.
struct InputTrust {
  std::string kernel;
  std::vector<std::string> nodes;
};

class CompiledGraph {
 public:
  static Result<std::unique_ptr<CompiledGraph>> compile(const Graph& graph, JitOptions options = {});

  // Runs on real inputs (one per placeholder). With keepIntermediates, value() then gives each
  // node's value (None for values only inside a generated kernel).
  Result<ValueList> run(ValueList inputs);
  const Value& value(const std::string& node) const;

  const FusionPlan& plan() const { return plan_; }
  const std::vector<CompiledKernel>& kernels() const { return kernels_; }
  const JitStats& stats() const { return stats_; }
  int64_t generatedKernels() const;
  const Graph& graph() const { return graph_; }     // the source graph
  const Graph& ordered() const { return ordered_; }  // its nodes in the plan's order

 private:
  CompiledGraph() = default;
  Graph graph_;
  Graph ordered_;
  JitOptions options_;
  FusionPlan plan_;
  std::vector<CompiledKernel> kernels_;
  JitStats stats_;
  std::vector<int32_t> kernelOf_;   // by node index of ordered_: its generated kernel, or -1
  std::vector<InputTrust> trust_;       // per placeholder: the first kernel reading it
  std::vector<Value> kept_;  // by node index of ordered_
  std::unique_ptr<OutputPool> pool_ = std::make_unique<OutputPool>();  // kernel outputs, run to run
};

}  // namespace fathom
