// The debug interpreter over an AOT dump's training step: the forward graph on the primals, the
// backward graph on what that forward really saved plus the tangents, and the joint graph on
// primals and tangents - every node of the three checked against its recorded meta.
#pragma once

#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "engine/interp/DebugInterpreter.h"

namespace fathom::aot {

struct GraphCheck {
  std::string graph;
  size_t checked = 0;
  std::vector<Mismatch> mismatches;
  std::vector<std::string> skipped;
};

// One graph on `inputs`; its outputs go to `outputs` when given.
Result<GraphCheck> checkGraph(const Graph& graph, ValueList inputs, CheckOptions options, ValueList* outputs = nullptr);

// The joint graph's inputs split into the forward graph's (`primals`, in the forward's placeholder
// order) and the rest (`tangents`, in the joint's order). The forward's are found by placeholder
// name when the joint has them all: a PyTorch export lists get_attr constants last in both graphs,
// so in the joint they follow the tangents. Otherwise the first ones are the forward's.
struct StepInputs {
  ValueList primals, tangents;
};
StepInputs splitJointInputs(const Dump& dump, const ValueList& jointInputs);

// The joint graph's inputs again, in its order (the inverse of splitJointInputs).
ValueList jointInputs(const Dump& dump, const ValueList& primals, const ValueList& tangents);

// What a forward graph saved for the backward: its outputs after the new values of mutated inputs
// and the model's outputs. An error when it returned fewer values than the partition says.
Result<ValueList> savedValues(const PartitionInfo& info, const ValueList& forwardOutputs);

// `primals` and `tangents` as splitJointInputs gives them. Needs dump.partition.
Result<std::vector<GraphCheck>> checkTrainingStep(const Dump& dump, const ValueList& primals, const ValueList& tangents,
                                                  const CheckOptions& options);

}  // namespace fathom::aot
