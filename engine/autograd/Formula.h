// Derivative formulas: for each differentiable ATen op, a function that computes the gradients
// of its inputs from the gradients of its outputs, written with the frontend's ops - so the same
// formula runs eagerly (the autograd engine on real tensors) and is traced into a graph (the
// backward half of AOT autograd's joint graph, static or symbolic).
//
//   registerDerivative("aten.mul.Tensor", [](GradContext& c) {
//     if (c.needs(0)) c.set(0, mul(c.grad(), c.tensor(1)));
//     if (c.needs(1)) c.set(1, mul(c.grad(), c.tensor(0)));
//   });
//
// Argument positions are schema positions (defaults filled in). A Tensor[] argument (cat's
// tensors) has one gradient slot per element: use needsElement/setElement.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/autograd/GradNode.h"
#include "engine/frontend/OpCall.h"

namespace fathom::autograd {

using frontend::Arg;
using frontend::SymValue;
using frontend::SymValues;

class GradContext {
 public:
  GradContext(std::string_view op, const std::vector<Arg>& args, const TensorList& outputs,
              const TensorList& grads, const std::vector<bool>& needed, const std::vector<size_t>& firstSlot);

  std::string_view op() const { return op_; }
  // Argument `pos` of the forward call.
  const Arg& arg(size_t pos) const { return args_[pos]; }
  const Tensor& tensor(size_t pos) const;   // an undefined Tensor for None
  const TensorList& tensors(size_t pos) const;  // a Tensor[] argument
  SymValues sizes(size_t pos) const { return tensor(pos).sizes(); }
  SymValue symInt(size_t pos) const;
  SymValues symList(size_t pos) const;
  int64_t integer(size_t pos) const;
  IntList intList(size_t pos) const;
  double number(size_t pos) const;
  bool flag(size_t pos) const;
  bool isNone(size_t pos) const;
  std::string string(size_t pos) const;

  // Forward outputs (without history) and the gradients that arrived for them (undefined when
  // none flowed to that output).
  const Tensor& output(size_t i = 0) const { return outputs_[i]; }
  const Tensor& grad(size_t i = 0) const { return grads_[i]; }
  size_t numOutputs() const { return outputs_.size(); }

  bool needs(size_t pos) const;
  bool needsElement(size_t pos, size_t element) const;
  bool needsAny() const;
  void set(size_t pos, Tensor grad);
  void setElement(size_t pos, size_t element, Tensor grad);

  TensorList takeResult() { return std::move(result_); }

 private:
  std::string_view op_;
  const std::vector<Arg>& args_;
  const TensorList& outputs_;
  const TensorList& grads_;
  const std::vector<bool>& needed_;
  const std::vector<size_t>& firstSlot_;  // schema position -> its first gradient slot
  TensorList result_;
};

using Formula = std::function<void(GradContext&)>;

// The formula for `op`, or null. Ops registered as non-differentiable have no formula and
// isNonDifferentiable() is true (their outputs never require grad: factories, comparisons,
// *_like constructors).
const Formula* findDerivative(std::string_view op);
bool isNonDifferentiable(std::string_view op);
// Names of every op with a formula (sorted), for coverage tests.
std::vector<std::string> differentiableOps();

void registerDerivative(std::string op, Formula formula);
void registerNonDifferentiable(std::string op);

}  // namespace fathom::autograd
