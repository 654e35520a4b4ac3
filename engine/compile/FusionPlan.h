// FusionPlan: which of a graph's call nodes one generated kernel computes together - the first
// step of the compiling backend (issue 21), as Inductor's scheduler groups nodes before codegen.
// No code is generated here; the plan says what a later codegen fuses and what stays a call to
// the eager kernels.
//
//   auto plan = planFusion(graph);          // or planFusion(graph, {.maxNodesPerKernel = 16})
//   for (const FusedKernel& k : plan->kernels) ... k.kind, k.nodes, k.inputs, k.outputs, k.sizes
//
// Invariants (FusionPlanTest checks them on every sample): every call node is in exactly one
// kernel; the kernels are in an order that runs (each kernel's inputs come from the graph's
// placeholders or from kernels before it); each kernel's nodes are in graph order. The rules
// (FusionRules.h) are in engine/compile/README.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"

namespace fathom {

enum class KernelKind {
  Pointwise,  // elementwise ops over one iteration space, read at the same index
  Reduction,  // a reduction, with the pointwise ops that feed it at its input's index
  RowLocal,   // a composite that works row by row (softmax, layer norm and their backwards)
  Extern,     // one call to an eager kernel: matmuls, views, indexing, factories, unknown ops
};
std::string_view kernelKindName(KernelKind k);  // "pointwise", "reduction", "row-local", "extern"

struct FusedKernel {
  std::string name;              // "pointwise_3": the kind and the position in the plan
  KernelKind kind = KernelKind::Extern;
  std::vector<NodeRef> nodes;    // in graph order; getitems sit with the node they pick from
  std::vector<NodeRef> inputs;   // values made outside (other kernels, placeholders), first use first
  std::vector<NodeRef> outputs;  // its values read by a later kernel or returned by the graph
  SymIntList sizes;              // iteration sizes: the (first) tensor of its last computing node
};

struct FusionOptions {
  // Inductor's max_fusion_size: a kernel takes no node once it holds this many.
  int64_t maxNodesPerKernel = 64;
};

struct FusionSummary {
  int64_t kernels = 0;
  int64_t pointwise = 0, pointwiseOps = 0;  // kernels of that kind, and the nodes they cover
  int64_t reduction = 0, reductionOps = 0;
  int64_t rowLocal = 0;
  int64_t extern_ = 0;
};

struct FusionPlan {
  std::vector<FusedKernel> kernels;  // in the order they run
  FusionSummary summary() const;
};

// Groups the call nodes of `graph` into kernels. Fails only on a bad option (a cap below 1) or
// a graph that is not topologically ordered (an argument defined after its use).
Result<FusionPlan> planFusion(const Graph& graph, FusionOptions options = {});

}  // namespace fathom
