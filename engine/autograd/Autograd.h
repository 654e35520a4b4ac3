// The autograd API over frontend tensors - torch.autograd's, on both real tensors (the eager
// engine, the reference every compiled result is compared with) and traced ones (AOT autograd
// traces the same engine's backward pass into the joint graph).
//
//   setRequiresGrad(w);                      // a leaf
//   Tensor loss = sum(mul(x, w), {});        // records MulBackward0, SumBackward1
//   backward({loss});                        // gradOf(w) == x
//   TensorList g = grad({loss}, {x});        // only what x's gradient needs runs
//
// Engine rules, as PyTorch's: among ready nodes the one with the highest sequence number runs
// first (AccumulateGrad highest of all); a node runs when every edge into it has delivered;
// gradients meeting at a node are summed. grad() runs only nodes on a path to a requested input
// and tells each formula which input gradients are wanted, so a linear layer asked only for its
// input's gradient never computes its weight's. Hooks run in PyTorch's order: a tensor's hooks
// (registration order), then retains_grad, then the node's pre-hooks; the node; its post-hooks.
// Anomaly mode checks every gradient a node produces for NaN/Inf and names the forward call that
// created the node.
//
// Errors throw frontend::FrontendError (catchErrors() turns them into a Result).
#pragma once

#include <memory>
#include <string>

#include "engine/autograd/GradMode.h"
#include "engine/autograd/GradNode.h"

namespace fathom::autograd {

// Makes `t` a leaf that requires grad (floating-point dtypes only). `name` labels it in errors.
void setRequiresGrad(Tensor& t, bool on = true, std::string name = {});
bool requiresGrad(const Tensor& t);
bool isLeaf(const Tensor& t);
std::shared_ptr<GradNode> gradFn(const Tensor& t);
// The accumulated gradient of a leaf, or the retained one of a non-leaf (undefined if none).
Tensor gradOf(const Tensor& t);
void zeroGrad(const Tensor& t);
// A non-leaf keeps its gradient in gradOf() after backward.
void retainGrad(const Tensor& t);
bool retainsGrad(const Tensor& t);
// Runs `hook` on t's gradient when it is computed; the hook may replace it.
void registerHook(const Tensor& t, TensorHook hook);

struct BackwardOptions {
  bool retainGraph = false;  // keep saved values so the graph can be run again
};

// Accumulates into every leaf's gradOf(). `rootGrads` default to ones for one-element roots.
void backward(const TensorList& roots, const TensorList& rootGrads = {}, const BackwardOptions& options = {});

struct GradOptions {
  bool retainGraph = false;
  bool allowUnused = false;  // an input no root depends on gets an undefined gradient, not an error
};

// The gradients of `outputs` with respect to `inputs`, accumulating nothing.
TensorList grad(const TensorList& outputs, const TensorList& inputs, const TensorList& gradOutputs = {},
                const GradOptions& options = {});

}  // namespace fathom::autograd
