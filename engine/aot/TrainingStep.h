// One training step (forward + backward) three ways, so they can be compared:
//   runPartitioned  the aot_eager backend: the forward graph, its input mutations copied back
//                   into the inputs, then the backward graph on the saved values and tangents
//   runJoint        the joint graph in one go
//   runEagerStep    the eager autograd engine on the model itself - the reference
// Each starts the default random generator at its default seed, so dropout draws the same masks
// in all of them (the graphs run their dropouts in the model's order).
#pragma once

#include "engine/aot/JointGraph.h"
#include "engine/graph/PartitionInfo.h"

#include <functional>
#include <string>
#include <vector>

namespace fathom::aot {

struct TrainingStep {
  ValueList outputs;        // the model's outputs
  ValueList grads;          // per primal: its gradient, None when it has none
  ValueList updatedInputs;  // per mutated input (PartitionInfo::mutatedInputs order): its new value
  ValueList saved;          // partitioned runs: what the forward saved for the backward
};

// For each joint placeholder, the index of the forward placeholder of the same name (-1: none, a
// tangent); empty when some forward placeholder has no namesake in the joint. A PyTorch export
// lists get_attr constants after the tangents, so the joint's inputs go to the forward by name.
std::vector<int64_t> forwardIndexByName(const Graph& forward, const Graph& joint);

// The backward graph's inputs: the saved values (in the forward's order, as the partition lists
// them) then the tangents. Each saved value goes to the backward placeholder of its name, so a
// backward that takes them in another order works too (torch 2.x takes saved SymInts first).
ValueList backwardInputs(const Graph& backward, const PartitionInfo& info, const ValueList& saved, const ValueList& tangents);

// Runs one graph on real inputs: the interpreter (aot_eager), or a compiling backend's runtime.
using GraphRunner = std::function<Result<ValueList>(const Graph& graph, ValueList inputs)>;

// `primals` are written into when the forward mutates an input (as the runtime wrapper does).
// Both graphs run with `run` (the interpreter when empty).
Result<TrainingStep> runPartitioned(const Graph& forward, const Graph& backward, const PartitionInfo& info,
                                    const ValueList& primals, const ValueList& tangents, const GraphRunner& run = {});
Result<TrainingStep> runJoint(const JointGraph& joint, const ValueList& primals, const ValueList& tangents);
// Runs the model eagerly on `inputs` (its example-input order) with its parameters as leaves,
// then the engine's backward with `tangents` for the outputs listed in `tangentOutputs`.
// Buffers the model writes (running stats) are reported as updatedInputs, in `mutatedBuffers` order
// (indices into parameters-then-buffers).
Result<TrainingStep> runEagerStep(frontend::Model& model, const ValueList& inputs, const ValueList& tangents,
                                  const std::vector<size_t>& tangentOutputs, const std::vector<size_t>& mutatedPrimals);

}  // namespace fathom::aot

namespace fathom::aot {

// The eager autograd reference for a partitioned dump: the joint graph's forward part replayed
// through the frontend (GraphReplay.h) on `primals` - those named in info.gradInputs as leaves
// that require grad - then the engine's grad() with `tangents`. `primals` are in the forward
// graph's placeholder order (splitJointInputs), bound to the joint's placeholders of those names.
Result<TrainingStep> runReplayedStep(const Graph& joint, const Graph& forward, const PartitionInfo& info,
                                     const ValueList& primals, const ValueList& tangents);

// One compared value: the largest |difference| against the largest |reference| element.
struct StepDiff {
  std::string what;   // "output", "grad", "updated input"
  size_t index = 0;
  std::string name;   // the primal, for gradients and updated inputs
  double maxAbsDiff = 0, scale = 0;
  bool sizesMatch = true;
  bool ok = true;
  // Set by judgeByFloat64: decided by PyTorch's accuracy rule, with its two errors.
  bool byFloat64 = false;
  double error = 0, referenceError = 0, allowed = 0;
};

// Compares two steps value by value; `rtol` is relative to each value's largest element.
std::vector<StepDiff> compareSteps(const TrainingStep& got, const TrainingStep& want, const PartitionInfo& info,
                                   double rtol = 1e-4, double atol = 1e-5);

// The float values compareSteps found apart, judged again by PyTorch's accuracy rule
// (interp/AccuracyRule.h) against `fp64`, the same step run in float64 (replayedStepInFloat64):
// `got` passes when its error against float64 is within a multiple of `want`'s own. Summing in
// another order (the jit's fused reductions, over a batch norm's N*H*W values) passes; a wrong
// value does not. Without a float64 step (null) the strict verdicts stand.
void judgeByFloat64(std::vector<StepDiff>& diffs, const TrainingStep& got, const TrainingStep& want, const TrainingStep& fp64);

// runReplayedStep in float64: the graphs' float dtype arguments widened, the float primals and
// tangents converted (fresh copies: the caller's values are not written).
Result<TrainingStep> replayedStepInFloat64(const Graph& joint, const Graph& forward, const PartitionInfo& info,
                                           const ValueList& primals, const ValueList& tangents);

}  // namespace fathom::aot
