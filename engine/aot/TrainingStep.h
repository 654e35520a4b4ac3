// One training step (forward + backward) three ways, so they can be compared:
//   runPartitioned  the aot_eager backend: the forward graph, its input mutations copied back
//                   into the inputs, then the backward graph on the saved values and tangents
//   runJoint        the joint graph in one go
//   runEagerStep    the eager autograd engine on the model itself - the reference
#pragma once

#include "engine/aot/JointGraph.h"
#include "engine/dump/PartitionInfo.h"

namespace fathom::aot {

struct TrainingStep {
  ValueList outputs;        // the model's outputs
  ValueList grads;          // per primal: its gradient, None when it has none
  ValueList updatedInputs;  // per mutated input (PartitionInfo::mutatedInputs order): its new value
  ValueList saved;          // partitioned runs: what the forward saved for the backward
};

// `primals` are written into when the forward mutates an input (as the runtime wrapper does).
Result<TrainingStep> runPartitioned(const Graph& forward, const Graph& backward, const PartitionInfo& info,
                                    const ValueList& primals, const ValueList& tangents);
Result<TrainingStep> runJoint(const JointGraph& joint, const ValueList& primals, const ValueList& tangents);
// Runs the model eagerly on `inputs` (its example-input order) with its parameters as leaves,
// then the engine's backward with `tangents` for the outputs listed in `tangentOutputs`.
// Buffers the model writes (running stats) are reported as updatedInputs, in `mutatedBuffers` order
// (indices into parameters-then-buffers).
Result<TrainingStep> runEagerStep(frontend::Model& model, const ValueList& inputs, const ValueList& tangents,
                                  const std::vector<size_t>& tangentOutputs, const std::vector<size_t>& mutatedPrimals);

}  // namespace fathom::aot
