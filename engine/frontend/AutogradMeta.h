// A tensor's autograd slot: whether it requires grad, the GradNode that made it, its gradient.
// The frontend defines it because its tensors and parameters carry one (a parameter requires
// grad from birth); engine/autograd fills it in and reads it (GradNode.h, Record.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/frontend/TensorHandle.h"

namespace fathom::autograd {

using frontend::Tensor;

class GradNode;  // engine/autograd/GradNode.h

// A tensor hook sees the gradient of that tensor and may replace it (return a tensor).
using TensorHook = std::function<std::optional<Tensor>(const Tensor& grad)>;

struct AutogradMeta {
  bool requiresGrad = false;
  std::shared_ptr<GradNode> gradFn;  // null for a leaf
  uint32_t outputNr = 0;             // which output of gradFn this tensor is
  std::weak_ptr<GradNode> accumulator;  // a leaf's AccumulateGrad, while the graph holds it
  std::vector<TensorHook> leafHooks;    // a leaf's hooks (its AccumulateGrad runs them)
  Tensor grad;                          // accumulated (leaf) or retained gradient
  bool retainsGrad = false;
  std::string name;                     // for messages ("layers.0.weight")
};

}  // namespace fathom::autograd
