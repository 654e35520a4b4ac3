// PReLU: aten.prelu and aten.prelu_backward as PyTorch 1.13 has them (prelu_cpu and
// prelu_backward_cpu, what 1.13's AOT graphs of nn.PReLU hold), and PyTorch 2.x's
// aten._prelu_kernel and aten._prelu_kernel_backward (the TensorIterator kernels 2.x's composite
// prelu calls after reshaping weight to broadcast over self).
//   forward:   x > 0 ? x : w * x
//   backward:  grad_input = x > 0 ? g : w * g,   grad_weight = x > 0 ? 0 : x * g
// where w is the weight of x's channel (dim 1; a 1-d input has one channel) or the one weight.
// prelu_backward sums grad_weight over every dim but the channel's into weight's shape, with
// Fathom's sum (1.13 calls at::sum on it); _prelu_kernel_backward returns it unsummed, with the
// broadcast shape, and the autograd engine sums it to weight's sizes.
//
// 1.13's layouts: prelu's result and prelu_backward's grad_input are laid out in self's
// suggested memory format (channels_last stays channels_last, anything else is contiguous);
// grad_weight is contiguous with weight's sizes. 2.x's: _prelu_kernel's result is
// empty_like(self); its backward's results are TensorIterator's over (self, weight, grad).
#include <type_traits>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ElementwiseLayout.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/layout/ViewGeometry.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

bool preluDtype(DType t, bool withHalf) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16 || (withHalf && t == DType::Float16);
}

// prelu's checks, in 1.13's order: the weight count against the channels, the weight's rank, the
// dtype the kernel dispatches on, then the weight's dtype.
void checkPrelu(const TensorMeta& self, const TensorMeta& weight, const char* kernel) {
  const SymInt count = weight.numel();
  if (!symEq(count, 1, "prelu: a single weight")) {
    FATHOM_CHECK(self.dim() > 0, "Not allow zero-dim input tensor.");
    const SymInt channels = self.dim() > 1 ? self.sizes[1] : SymInt(1);
    FATHOM_CHECK(symEq(channels, count, "prelu: one weight per channel"),
                 "Mismatch of parameter numbers and input channel size. Found parameter numbers = ", count.str(),
                 " and channel size = ", channels.str(), ".");
  }
  FATHOM_CHECK(weight.dim() <= 1, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = ", weight.dim());
  FATHOM_CHECK(preluDtype(self.dtype, false), "\"", kernel, "\" not implemented for '", scalarTypeName(self.dtype), "'");
  FATHOM_CHECK(weight.dtype == self.dtype, "Found dtype ", scalarTypeName(weight.dtype), " but expected ",
               scalarTypeName(self.dtype));
}

// The weight seen with self's sizes: its one element everywhere, or element c along dim 1.
TensorMeta weightView(const TensorMeta& self, const TensorMeta& weight) {
  SymIntList strides(self.sizes.size(), SymInt(0));
  if (!symEq(weight.numel(), 1, "prelu: a single weight")) strides[1] = weight.strides[0];
  return viewOf(weight, self.sizes, std::move(strides), weight.storageOffset);
}

// Loops over operands of one shape: outputs first, then (self, weight, grad) as given.
template <size_t N, class Body>
void preluLoop(const std::array<const Tensor*, N>& ops, const Body& body) {
  const IntList shape = ops[0]->sizes();
  std::vector<IntList> strides;
  std::array<std::byte*, N> ptrs{};
  for (size_t k = 0; k < N; ++k) strides.push_back(broadcastByteStrides(*ops[k], shape)), ptrs[k] = bytePtr(*ops[k]);
  const LoopPlan plan = planLoop(shape, std::move(strides));
  dispatchDType(ops[0]->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) {
      parallelForEachRun<N>(plan, ptrs, 32768, [&](const std::array<std::byte*, N>& p, const std::array<int64_t, N>& s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
          std::array<T*, N> at;
          for (size_t k = 0; k < N; ++k) at[k] = &elementAt<T>(p[k], s[k], i);
          body(at);
        }
      });
    }
  });
}

// out = x > 0 ? x : w * x over same-shaped (w broadcast) tensors; rounded once to T.
void preluForward(const Tensor& out, const Tensor& x, const Tensor& w) {
  preluLoop<3>({&out, &x, &w}, [](auto at) {
    using T = std::remove_pointer_t<typename decltype(at)::value_type>;
    using C = OpMath<T>;
    const C v = convertValue<C>(*at[1]);
    *at[0] = convertValue<T>(v > C(0) ? v : convertValue<C>(*at[2]) * v);
  });
}

// gradInput = x > 0 ? g : w * g; gradWeight = x > 0 ? 0 : x * g (per element, rounded to T).
void preluBackward(const Tensor& gradInput, const Tensor& gradWeight, const Tensor& x, const Tensor& w,
                   const Tensor& g) {
  preluLoop<5>({&gradInput, &gradWeight, &x, &w, &g}, [](auto at) {
    using T = std::remove_pointer_t<typename decltype(at)::value_type>;
    using C = OpMath<T>;
    const C v = convertValue<C>(*at[2]), gv = convertValue<C>(*at[4]);
    const bool positive = v > C(0);
    *at[0] = convertValue<T>(positive ? gv : convertValue<C>(*at[3]) * gv);
    *at[1] = convertValue<T>(positive ? C(0) : v * gv);
  });
}

// ---- 1.13: prelu, prelu_backward --------------------------------------------------------

TensorMeta preluOutput(const TensorMeta& self) {
  return newTensorMeta(self, self.dtype, self.sizes, suggestMemoryFormat(self));
}

ValueList preluMeta(const ValueList& args) {
  const TensorMeta &self = metaArg(args, 0), &weight = metaArg(args, 1);
  checkPrelu(self, weight, "prelu_cpu");
  return {preluOutput(self)};
}

ValueList preluKernel(const ValueList& args) {
  const Tensor &self = tensorArg(args, 0), &weight = tensorArg(args, 1);
  checkPrelu(self.meta(), weight.meta(), "prelu_cpu");
  Tensor out = allocateTensor(preluOutput(self.meta()));
  preluForward(out, self, realizeView(weight, weightView(self.meta(), weight.meta())));
  return {out};
}

void checkPreluBackward(const TensorMeta& grad, const TensorMeta& self, const TensorMeta& weight) {
  checkPrelu(self, weight, "prelu_backward_cpu");
  bool same = grad.dim() == self.dim();
  for (int64_t d = 0; same && d < self.dim(); ++d) same = symEq(grad.sizes[d], self.sizes[d], "prelu_backward: grad size");
  FATHOM_CHECK(same, "prelu_backward: expected grad_output of self's size ", sizesStr(self.sizes), ", but got ",
               sizesStr(grad.sizes));
  FATHOM_CHECK(grad.dtype == self.dtype, "prelu_backward: expected grad_output of dtype ", scalarTypeName(self.dtype),
               ", but got ", scalarTypeName(grad.dtype));
}

TensorMeta preluWeightGrad(const TensorMeta& weight) {
  return newTensorMeta(weight, weight.dtype, weight.sizes, SuggestedFormat::Contiguous);
}

ValueList preluBackwardMeta(const ValueList& args) {
  const TensorMeta &grad = metaArg(args, 0), &self = metaArg(args, 1), &weight = metaArg(args, 2);
  checkPreluBackward(grad, self, weight);
  return {preluOutput(self), preluWeightGrad(weight)};
}

// The per-element weight gradients summed into weight's shape: over every dim but 1 (the
// channel's) for one weight per channel, over everything for a single weight.
Tensor sumToWeight(const Tensor& collector, const TensorMeta& weight) {
  const OpDef* sum = OpRegistry::global().find("aten.sum.dim_IntList");
  FATHOM_CHECK(sum != nullptr, "prelu_backward: missing op aten.sum.dim_IntList");
  ValueList dims;
  const bool perChannel = !symEq(weight.numel(), 1, "prelu: a single weight");
  for (int64_t d = 0; d < collector.dim(); ++d)
    if (!(perChannel && d == 1)) dims.emplace_back(d);
  auto r = callKernel(*sum, {Value(collector), Value(std::move(dims)), Value(false), Value(None{})});
  if (!r.ok()) throwOpError(r.error().message);
  const Tensor& summed = (*r)[0].as<Tensor>();  // contiguous, weight's element count
  const TensorMeta want = preluWeightGrad(weight);
  return realizeView(summed, viewOf(summed.meta(), want.sizes, want.strides, SymInt(0)));
}

ValueList preluBackwardKernel(const ValueList& args) {
  const Tensor &grad = tensorArg(args, 0), &self = tensorArg(args, 1), &weight = tensorArg(args, 2);
  checkPreluBackward(grad.meta(), self.meta(), weight.meta());
  Tensor gradInput = allocateTensor(preluOutput(self.meta())), collector = allocateTensor(preluOutput(self.meta()));
  preluBackward(gradInput, collector, self, realizeView(weight, weightView(self.meta(), weight.meta())), grad);
  return {gradInput, sumToWeight(collector, weight.meta())};
}

// ---- 2.x: _prelu_kernel, _prelu_kernel_backward -----------------------------------------

void checkKernelDtypes(const std::vector<const TensorMeta*>& ts, const char* kernel) {
  const DType t = ts[0]->dtype;
  FATHOM_CHECK(preluDtype(t, true), "\"", kernel, "\" not implemented for '", scalarTypeName(t), "'");
  for (const TensorMeta* m : ts)
    FATHOM_CHECK(m->dtype == t, kernel, ": expected tensors of one dtype, but got ", scalarTypeName(t), " and ",
                 scalarTypeName(m->dtype));
}

// empty_like(self), which TensorIterator keeps when weight broadcasts to self's sizes.
TensorMeta kernelOutput(const TensorMeta& self, const TensorMeta& weight) {
  checkKernelDtypes({&self, &weight}, "prelu_cpu");
  const SymIntList shape = broadcastShapes(self.sizes, weight.sizes, "self", "weight");
  bool same = shape.size() == self.sizes.size();
  for (size_t d = 0; same && d < shape.size(); ++d) same = symEq(shape[d], self.sizes[d], "_prelu_kernel: weight broadcasts to self");
  FATHOM_CHECK(same, "output with shape ", sizesStr(self.sizes), " doesn't match the broadcast shape ", sizesStr(shape));
  return freshLike(self, self.dtype, likeStrides(self, std::nullopt));
}

TensorMeta kernelBackwardOutput(const TensorMeta& grad, const TensorMeta& self, const TensorMeta& weight) {
  checkKernelDtypes({&self, &weight, &grad}, "prelu_backward_cpu");
  return computeElementwiseLayout({{self}, {weight}, {grad}}, ElementwisePromotion::SameDtype).output;
}

ValueList kernelBackwardMeta(const ValueList& args) {
  const TensorMeta out = kernelBackwardOutput(metaArg(args, 0), metaArg(args, 1), metaArg(args, 2));
  return {out, out};
}

ValueList kernelBackwardKernel(const ValueList& args) {
  const Tensor &grad = tensorArg(args, 0), &self = tensorArg(args, 1), &weight = tensorArg(args, 2);
  const TensorMeta out = kernelBackwardOutput(grad.meta(), self.meta(), weight.meta());
  Tensor gradInput = allocateTensor(out), gradWeight = allocateTensor(out);
  preluBackward(gradInput, gradWeight, self, weight, grad);
  return {gradInput, gradWeight};
}

}  // namespace

void registerPreluOps(OpRegistry& registry) {
  (void)registry.add("aten::prelu(Tensor self, Tensor weight) -> Tensor", preluMeta, preluKernel);
  (void)registry.add("aten::prelu_backward(Tensor grad_output, Tensor self, Tensor weight) -> (Tensor, Tensor)",
                     preluBackwardMeta, preluBackwardKernel);
  (void)registry.add(
      "aten::_prelu_kernel(Tensor self, Tensor weight) -> Tensor",
      [](const ValueList& args) { return ValueList{kernelOutput(metaArg(args, 0), metaArg(args, 1))}; },
      [](const ValueList& args) {
        const Tensor &self = tensorArg(args, 0), &weight = tensorArg(args, 1);
        Tensor out = allocateTensor(kernelOutput(self.meta(), weight.meta()));
        preluForward(out, self, weight);
        return ValueList{out};
      });
  (void)registry.add(
      "aten::_prelu_kernel_backward(Tensor grad_output, Tensor self, Tensor weight) -> (Tensor, Tensor)",
      kernelBackwardMeta, kernelBackwardKernel);
}

}  // namespace fathom
