// Backward helpers the derivative formulas need besides the fused ones of each op family:
//   slice_backward / select_backward / diagonal_backward: zeros of the input's sizes with the gradient written into
//     the region the forward viewed (grad_input.slice(...).copy_(grad), as ATen does)
//   native_dropout_backward: grad * mask * scale
// Meta functions give a fresh contiguous tensor of the gradient's dtype.
#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

ValueList zerosMeta(const ValueList& margs) {
  return {contiguousOutput(metaArg(margs, 0), toSymIntList(margs.at(1)))};
}

// Runs `viewOp`'s kernel on a zero tensor of the input's sizes with `viewArgs` after the
// tensor, and copies the gradient into that view.
ValueList scatterInto(const ValueList& args, std::string_view viewOp, ValueList viewArgs) {
  const Tensor& grad = tensorArg(args, 0);
  auto zeros = Tensor::empty(toIntList(args.at(1)), grad.dtype());
  FATHOM_CHECK(zeros.ok(), zeros.ok() ? "" : zeros.error().message);
  const OpDef* view = OpRegistry::global().find(viewOp);
  FATHOM_CHECK(view != nullptr, "missing op ", viewOp);
  viewArgs.insert(viewArgs.begin(), *zeros);
  auto region = callKernel(*view, viewArgs);
  FATHOM_CHECK(region.ok(), region.ok() ? "" : region.error().message);
  const Tensor& dst = (*region)[0].as<Tensor>();
  FATHOM_CHECK(dst.sizes() == grad.sizes(), viewOp, " backward: gradient of sizes ", sizesStr(grad.meta().sizes),
               " does not match the viewed region ", sizesStr(dst.meta().sizes));
  copyInto(dst, grad);
  return {*zeros};
}

ValueList dropoutBackwardMeta(const ValueList& margs) {
  const OpDef* mul = OpRegistry::global().find("aten.mul.Tensor");
  auto out = callMeta(*mul, {margs.at(0), margs.at(1), Value(1)});
  if (!out.ok()) throwOpError(out.error().message);
  return *out;
}

ValueList dropoutBackwardKernel(const ValueList& args) {
  const auto& reg = OpRegistry::global();
  auto masked = callKernel(*reg.find("aten.mul.Tensor"), {args.at(0), args.at(1), Value(1)});
  if (!masked.ok()) throwOpError(masked.error().message);
  auto scaled = callKernel(*reg.find("aten.mul.Scalar"), {(*masked)[0], args.at(2)});
  if (!scaled.ok()) throwOpError(scaled.error().message);
  return *scaled;
}

}  // namespace

void registerGradientOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end, SymInt step) "
      "-> Tensor",
      zerosMeta, [](const ValueList& a) { return scatterInto(a, "aten.slice.Tensor", {a.at(2), a.at(3), a.at(4), a.at(5)}); });
  (void)registry.add("aten::select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor",
                     zerosMeta,
                     [](const ValueList& a) { return scatterInto(a, "aten.select.int", {a.at(2), a.at(3)}); });
  (void)registry.add(
      "aten::diagonal_backward(Tensor grad_output, SymInt[] input_sizes, int offset, int dim1, int dim2) -> Tensor",
      zerosMeta, [](const ValueList& a) { return scatterInto(a, "aten.diagonal.default", {a.at(2), a.at(3), a.at(4)}); });
  (void)registry.add("aten::native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor",
                     dropoutBackwardMeta, dropoutBackwardKernel);
}

}  // namespace fathom
