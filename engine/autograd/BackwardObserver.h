// A window into the backward pass, for compiled autograd (engine/aot/CompiledAutograd.h): it is
// told each node as the engine runs it, and tensor hooks run through it (so a recorder can turn
// each hook call into a graph node). plannedOrder() is the order grad() would run the nodes in,
// computed without running any formula.
#pragma once

#include <optional>
#include <vector>

#include "engine/autograd/GradNode.h"

namespace fathom::autograd {

class BackwardObserver {
 public:
  virtual ~BackwardObserver() = default;
  // Node number `orderIndex` (0, 1, ... in execution order) is about to run.
  virtual void beforeNode(size_t orderIndex, GradNode& node) = 0;
  // Runs tensor hook number `hookIndex` of output `nr` of `node` (a leaf's hooks: its AccumulateGrad).
  virtual std::optional<Tensor> callHook(const TensorHook& hook, const Tensor& grad, GradNode& node, uint32_t nr,
                                         size_t hookIndex) = 0;
};

// Observes the backward passes of this thread while set (null: none). Returns the previous one.
BackwardObserver* setBackwardObserver(BackwardObserver* observer);

// The nodes grad(outputs, inputs) would run, in order; AccumulateGrad nodes are not run by grad().
std::vector<GradNode*> plannedOrder(const TensorList& outputs, const TensorList& inputs);

// What a node saved for its backward, as tensors: its tensor arguments (lists flattened) then its
// outputs. Empty for AccumulateGrad and after the saved values were released.
TensorList savedTensorsOf(const GradNode& node);

}  // namespace fathom::autograd
