#include "engine/autograd/GradNode.h"

#include <limits>

#include "engine/frontend/Functional.h"

namespace fathom::autograd {

uint64_t nextSequenceNr() {
  thread_local uint64_t next = 0;
  return next++;
}

GradNode::GradNode(std::string name) : name_(std::move(name)), sequenceNr_(nextSequenceNr()) {}

AccumulateGrad::AccumulateGrad(std::shared_ptr<AutogradMeta> leaf, Tensor templ)
    : GradNode("AccumulateGrad"), leaf_(std::move(leaf)) {
  setSequenceNr(std::numeric_limits<uint64_t>::max());
  outputMetas_.push_back(std::move(templ));
}

TensorList AccumulateGrad::apply(const TensorList& gradOutputs, const std::vector<bool>&) {
  const Tensor& g = gradOutputs.at(0);
  if (g.defined()) leaf_->grad = leaf_->grad.defined() ? frontend::add(leaf_->grad, g) : g;
  return {};
}

}  // namespace fathom::autograd
