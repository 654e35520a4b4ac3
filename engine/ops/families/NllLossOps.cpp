// nll_loss_forward and nll_loss_backward (PyTorch 1.13's CPU kernels).
//
// self is [C] or [N, C] log-probabilities, target [] or [N] class indices (int64 or uint8),
// weight an optional [C]; targets equal to ignore_index are skipped. Reduction: 0 none, 1 mean,
// anything else sum.
//   forward -> (output, total_weight), both fresh and of self's dtype: output is [N] for none on
//     [N, C] input (ignored rows 0), else a scalar; total_weight is the summed weight of the
//     counted rows (0 for none on [N, C]). Sums use ATen's cascade (8 levels of 16 partial sums,
//     in the element type), so float results are ATen's bit for bit; mean divides by the total.
//   backward -> grad_input contiguous of self's shape: zero except at [i, target[i]], which
//     holds -weight * grad_output (divided by total_weight for mean).
// Element-type checks (self floating, target Long or Byte, the other tensors self's dtype) are
// the kernels' (ATen's meta functions do not make them).
#include <cmath>

#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

constexpr int64_t kReductionNone = 0, kReductionMean = 1;

// The checks ATen's nll_loss_forward and nll_loss_backward meta functions share.
void checkInputAndTarget(const TensorMeta& self, const TensorMeta& target) {
  FATHOM_CHECK(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  FATHOM_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  if (self.dim() == 1 && target.dim() == 0) return;  // one sample, no batch dim
  FATHOM_CHECK(target.dim() == 1, "Dimension specified as 0 but tensor has no dimensions");
  FATHOM_CHECK(symEq(self.sizes[0], target.sizes[0], "nll_loss: batch sizes match"), "size mismatch (got input: ",
               sizesStr(self.sizes), ", target: ", sizesStr(target.sizes), ")");
}

// One weight per class. The forward also wants it 1-d, and says more when it is not.
void checkWeight(const ValueList& margs, size_t i, const TensorMeta& self, bool forward) {
  if (margs.at(i).isNone()) return;
  const TensorMeta& weight = metaArg(margs, i);
  const SymInt classes = self.sizes.back();
  const bool ok = (!forward || weight.dim() == 1) && symEq(weight.numel(), classes, "nll_loss: weight per class");
  FATHOM_CHECK(ok || forward, "weight tensor should be defined either for all or no classes");
  FATHOM_CHECK(ok, "weight tensor should be defined either for all ", classes.str(),
               " classes or no classes but got weight tensor of shape: ", sizesStr(weight.sizes));
}

bool batchedNone(const TensorMeta& self, int64_t reduction) { return reduction == kReductionNone && self.dim() == 2; }

std::pair<TensorMeta, TensorMeta> forwardLayout(const ValueList& margs) {
  const TensorMeta &self = metaArg(margs, 0), &target = metaArg(margs, 1);
  checkInputAndTarget(self, target);
  checkWeight(margs, 2, self, true);
  SymIntList sizes;
  if (batchedNone(self, intArg(margs, 3))) sizes.push_back(self.sizes[0]);
  return {contiguousOutput(self, std::move(sizes)), contiguousOutput(self, {})};
}

TensorMeta backwardLayout(const ValueList& margs) {
  const TensorMeta &grad = metaArg(margs, 0), &self = metaArg(margs, 1), &target = metaArg(margs, 2);
  const TensorMeta& totalWeight = metaArg(margs, 6);
  checkInputAndTarget(self, target);
  FATHOM_CHECK(symEq(totalWeight.numel(), 1, "nll_loss_backward: total_weight is one element"),
               "expected total_weight to be a  single element tensor, got: ", sizesStr(totalWeight.sizes), " (",
               totalWeight.numel().str(), " elements)");
  checkWeight(margs, 3, self, false);
  if (batchedNone(self, intArg(margs, 4))) {
    const bool ok = grad.dim() == 1 && symEq(grad.sizes[0], self.sizes[0], "nll_loss_backward: grad per sample");
    FATHOM_CHECK(ok, "Expected a tensor of dimension 1 and tensor.size[0] == ", self.sizes[0].str(),
                 " but got: dimension ", grad.dim(), " and tensor.size[0] = ", grad.dim() ? grad.sizes[0].str() : "?");
  } else {
    FATHOM_CHECK(grad.dim() <= 1 && symEq(grad.numel(), 1, "nll_loss_backward: scalar grad"),
                 "Expected a single element grad_output tensor, but got: ", sizesStr(grad.sizes));
  }
  return contiguousOutput(self, self.sizes);
}

// The kernels' element-type checks; `kernel` names ATen's kernel in its not-implemented error.
void checkDtypes(const Tensor& self, const Tensor& target, std::initializer_list<const Tensor*> sameAsSelf,
                 const char* kernel) {
  const DType t = self.dtype();
  FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16, "\"", kernel,
               "\" not implemented for '", scalarTypeName(t), "'");
  FATHOM_CHECK(target.dtype() == DType::Int64 || target.dtype() == DType::UInt8,
               "expected scalar type Long but found ", scalarTypeName(target.dtype()));
  for (const Tensor* other : sameAsSelf)
    FATHOM_CHECK(!other->defined() || other->dtype() == t, "expected scalar type ", scalarTypeName(t),
                 " but found ", scalarTypeName(other->dtype()));
}

// The optional weight argument, contiguous (ATen reads weight.contiguous()'s data by class).
Tensor optionalWeight(const ValueList& args, size_t i) {
  if (args.at(i).isNone()) return Tensor();
  const Tensor& w = tensorArg(args, i);
  if (w.isContiguous()) return w;
  Tensor copy = allocateTensor(contiguousOutput(w.meta(), w.meta().sizes));
  copyInto(copy, w);
  return copy;
}

// The class each sample targets (target's values in sample order), and a bounds check.
std::vector<int64_t> targetsOf(const Tensor& target) {
  std::vector<int64_t> out(static_cast<size_t>(target.numel()));
  for (int64_t i = 0; i < target.numel(); ++i) out[i] = static_cast<int64_t>(target.atLinear(i));
  return out;
}
void checkTarget(int64_t t, int64_t classes) {
  FATHOM_CHECK(t >= 0 && t < classes, "Target ", t, " is out of bounds.");
}

// Element [sample, cls] of a 1-d or 2-d tensor.
template <class T> T elementOf(const Tensor& t, int64_t sample, int64_t cls) {
  const T* p = t.dataAs<T>();
  return t.dim() == 1 ? p[cls * t.stride(0)] : p[sample * t.stride(0) + cls * t.stride(1)];
}
// `weight` is contiguous (or undefined: every class weighs 1).
template <class T> T weightOf(const Tensor& weight, int64_t cls) {
  return weight.defined() ? weight.dataAs<T>()[cls] : T(1);
}

template <class T>
void forwardTyped(const Tensor& self, const std::vector<int64_t>& targets, const Tensor& weight, int64_t reduction,
                  int64_t ignoreIndex, const Tensor& output, const Tensor& totalWeight) {
  const int64_t classes = self.size(self.dim() - 1), batch = static_cast<int64_t>(targets.size());
  T* out = output.dataAs<T>();
  totalWeight.dataAs<T>()[0] = T(0);
  if (output.dim() == 1) {
    for (int64_t i = 0; i < batch; ++i) {
      if (targets[i] == ignoreIndex) { out[i] = T(0); continue; }
      checkTarget(targets[i], classes);
      out[i] = T(-static_cast<OpMath<T>>(elementOf<T>(self, i, targets[i])) * weightOf<T>(weight, targets[i]));
    }
    return;
  }
  if (batch == 0) {
    out[0] = reduction == kReductionMean ? T(NAN) : T(0);
    return;
  }
  // ATen's cascade sum: level j+1 absorbs level j whenever the sample number's j-th group of
  // 4 bits is zero.
  constexpr int kLevels = 8, kLevelPower = 4;
  constexpr int64_t kLevelMask = (int64_t{1} << kLevelPower) - 1;
  T loss[kLevels] = {}, weights[kLevels] = {};
  int64_t ignored = 0;
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t t = targets[b];
    if (t == ignoreIndex) { ++ignored; continue; }
    checkTarget(t, classes);
    const T x = elementOf<T>(self, b, t);
    if (weight.defined()) {
      const T w = weightOf<T>(weight, t);
      loss[0] = T(loss[0] - T(x * w));
      weights[0] = T(weights[0] + w);
    } else {
      loss[0] = T(loss[0] - x);
    }
    for (int j = 0; j + 1 < kLevels && (b & (kLevelMask << (j * kLevelPower))) == 0; ++j) {
      weights[j + 1] = T(weights[j + 1] + weights[j]);
      loss[j + 1] = T(loss[j + 1] + loss[j]);
      weights[j] = loss[j] = T(0);
    }
  }
  T total = weight.defined() ? T(0) : T(static_cast<OpMath<T>>(batch - ignored)), sum = T(0);
  for (int j = 0; j < kLevels; ++j) {
    if (weight.defined()) total = T(total + weights[j]);
    sum = T(sum + loss[j]);
  }
  out[0] = reduction == kReductionMean ? T(sum / total) : sum;
  totalWeight.dataAs<T>()[0] = total;
}

ValueList forwardKernel(const ValueList& args) {
  const auto layout = forwardLayout(metaArgs(args));
  Tensor output = allocateTensor(layout.first), totalWeight = allocateTensor(layout.second);
  const Tensor &self = tensorArg(args, 0), &target = tensorArg(args, 1);
  const Tensor weight = optionalWeight(args, 2);
  checkDtypes(self, target, {&weight}, "nll_loss_out_frame");
  const auto targets = targetsOf(target);
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>)
      forwardTyped<T>(self, targets, weight, intArg(args, 3), intArg(args, 4), output, totalWeight);
  });
  return {output, totalWeight};
}

template <class T>
void backwardTyped(const Tensor& grad, const std::vector<int64_t>& targets, const Tensor& weight, int64_t reduction,
                   int64_t ignoreIndex, const Tensor& totalWeight, const Tensor& gradInput) {
  const int64_t classes = gradInput.size(gradInput.dim() - 1);
  T* out = gradInput.dataAs<T>();
  const bool perSample = reduction == kReductionNone && gradInput.dim() == 2;
  // The scalar path's gradient, rounded to T as ATen computes it.
  const T scalarGrad = perSample ? T(0)
                       : reduction == kReductionMean
                           ? T(-T(grad.dataAs<T>()[0] / totalWeight.dataAs<T>()[0]))
                           : T(-grad.dataAs<T>()[0]);
  for (size_t i = 0; i < targets.size(); ++i) {
    const int64_t t = targets[i];
    if (t == ignoreIndex) continue;
    checkTarget(t, classes);
    const T w = weightOf<T>(weight, t);
    // ATen: per-sample -w * grad[i]; scalar path w * (-grad), or -grad without weight.
    const T g = perSample ? T(T(-w) * grad.dataAs<T>()[static_cast<int64_t>(i) * grad.stride(0)])
                          : (weight.defined() ? T(w * scalarGrad) : scalarGrad);
    out[static_cast<int64_t>(i) * classes + t] = g;
  }
}

ValueList backwardKernel(const ValueList& args) {
  Tensor gradInput = allocateTensor(backwardLayout(metaArgs(args)));
  const Tensor &grad = tensorArg(args, 0), &self = tensorArg(args, 1), &target = tensorArg(args, 2);
  const Tensor weight = optionalWeight(args, 3), totalWeight = tensorArg(args, 6);
  checkDtypes(self, target, {&grad, &totalWeight, &weight}, "nll_loss_backward_out_frame");
  const auto targets = targetsOf(target);
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>)
      backwardTyped<T>(grad, targets, weight, intArg(args, 4), intArg(args, 5), totalWeight, gradInput);
  });
  return {gradInput};
}

}  // namespace

void registerNllLossOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index) -> "
      "(Tensor output, Tensor total_weight)",
      [](const ValueList& args) {
        auto [output, total] = forwardLayout(args);
        return ValueList{output, total};
      },
      forwardKernel);
  (void)registry.add(
      "aten::nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, "
      "int ignore_index, Tensor total_weight) -> Tensor",
      [](const ValueList& args) { return ValueList{backwardLayout(args)}; }, backwardKernel);
}

}  // namespace fathom
