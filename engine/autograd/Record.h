// Recording the tape: frontend::callOp calls recordOp after each op runs (eagerly or traced).
// When grad mode is on and a tensor argument requires grad, the op gets an OpGradNode holding
// its arguments and outputs (without their history, so nothing keeps itself alive) and its
// floating-point outputs get that node as their gradFn.
#pragma once

#include <source_location>
#include <vector>

#include "engine/autograd/GradNode.h"
#include "engine/frontend/OpCall.h"

namespace fathom {
struct OpDef;
}

namespace fathom::autograd {

bool anyRequiresGrad(const frontend::Args& args, const frontend::KwArgs& kwargs);

// `args`/`kwargs` as the call gave them; `outputs` get their autograd meta set.
void recordOp(const OpDef& op, const frontend::Args& args, const frontend::KwArgs& kwargs,
              std::vector<Tensor>& outputs, const std::source_location& loc);

// The edge a gradient for `t` flows along: its gradFn and output number, or (a leaf) its
// AccumulateGrad, created on first use. Invalid when `t` does not require grad.
Edge gradientEdge(const Tensor& t);

// "AddmmBackward0" for "aten.addmm.default", as PyTorch names grad_fn classes.
std::string backwardNodeName(std::string_view op);

}  // namespace fathom::autograd
