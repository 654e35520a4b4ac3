// AOT autograd's joint graph: forward and backward traced together on fake tensors (static or
// symbolic) into one graph, as PyTorch's aot_function traces its joint function:
//
//   joint(primals..., tangents...) -> [new values of mutated inputs..., outputs..., grads...]
//
// Primals are the parameters, then the buffers, then the model's inputs (AOTAutograd's lifted
// order); parameters require grad. One tangent per output that requires grad (contiguous, the
// output's sizes). One gradient per primal, None where it needs none. The backward is the
// eager autograd engine (engine/autograd) run on the traced tensors, so every derivative is the
// same formula the eager reference uses; its nodes have stage "backward", and the guards its
// meta functions add have stage "aot-backward".
#pragma once

#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"
#include "engine/frontend/Model.h"

namespace fathom::aot {

struct JointGraph {
  Graph graph;
  size_t numPrimals = 0;
  size_t numTangents = 0;
  std::vector<size_t> mutatedInputs;  // primal index of each leading mutation output
  size_t numForwardOutputs = 0;       // the model's outputs, after the mutation outputs
  std::vector<bool> requiresGrad;     // per primal
  std::vector<size_t> tangentOutputs; // per tangent: the model output (index) it is the gradient of
  std::vector<ExampleInput> inputs;   // primals then tangents

  std::vector<NodeRef> primals() const;
  std::vector<NodeRef> tangents() const;
  // The output node's values, flattened: mutations, outputs, grads.
  const ValueList& outputs() const;
};

struct JointTraceOptions {
  frontend::TraceHooks hooks;
  // Called between the forward and the backward of the trace (lazy mode: the forward's guards
  // are installed there, so guards the backward adds are late guards).
  std::function<void()> afterForward;
};

// Traces the model's forward and its backward into a functionalized joint graph.
Result<JointGraph> traceJoint(frontend::Model& model, const JointTraceOptions& options = {});

}  // namespace fathom::aot
