// aten.native_batch_norm.default and aten.native_batch_norm_backward.default, as PyTorch 1.13's
// CPU batch_norm_cpu computes them.
//
// Layout: the result (and grad_input) is empty_like(input, input.suggest_memory_format());
// save_mean / save_invstd are [C] in training and [0] in evaluation, in the parameters' dtype
// (float32 for a bfloat16 input with float32 parameters, PyTorch's only mixed-dtype case).
// Training also updates running_mean / running_var in place with `momentum` and the unbiased
// variance. Stats follow ATen's order of rounding: the mean rounded to the compute type, squared
// deviations summed in double, the sum rounded, then invstd = 1 / sqrt(var + eps) in double.
#include <array>
#include <cmath>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/NnLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

const TensorMeta* optionalMeta(const ValueList& margs, size_t i) {
  return margs.at(i).isNone() ? nullptr : &metaArg(margs, i);
}
const Tensor* optionalTensor(const ValueList& args, size_t i) {
  return args.at(i).isNone() ? nullptr : &tensorArg(args, i);
}

// The dtype of save_mean / grad_weight: the parameters' (ATen's mixed-type rules), checked.
DType paramDtype(const TensorMeta& input, std::initializer_list<const TensorMeta*> params, const char* kernel) {
  const DType t = input.dtype;
  FATHOM_CHECK(t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16, "\"", kernel,
               "\" not implemented for '", scalarTypeName(t), "'");
  bool mixed = false;
  for (const TensorMeta* p : params) mixed = mixed || (p && p->dtype != t);
  if (!mixed) return t;
  for (const TensorMeta* p : params)
    FATHOM_CHECK(!p || p->dtype == DType::Float32, "mixed dtype (CPU): expect parameter to have scalar type of Float");
  FATHOM_CHECK(t == DType::BFloat16, "mixed dtype (CPU): expect input to have scalar type of BFloat16");
  return DType::Float32;
}

void checkInput(const TensorMeta& input) {
  FATHOM_CHECK(input.dim() >= 2, "batch_norm: expected an input with at least 2 dims [N, C, ...], but got input of size ",
               sizesText(input.sizes));
}

// Per-channel parameters must hold C elements (PyTorch reads C of them without checking).
void checkChannels(const TensorMeta* p, const char* name, const SymInt& channels) {
  if (!p) return;
  FATHOM_CHECK(p->dim() == 1 && symEq(p->sizes[0], channels, "batch_norm: parameter size"), name, " should contain ",
               channels.str(), " elements not ", p->numel().str());
}

struct BatchNormLayout {
  TensorMeta out, saveMean, saveInvstd;
};

// native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)
BatchNormLayout batchNormLayout(const ValueList& margs) {
  const TensorMeta& input = metaArg(margs, 0);
  checkInput(input);
  const TensorMeta *weight = optionalMeta(margs, 1), *bias = optionalMeta(margs, 2);
  const TensorMeta *mean = optionalMeta(margs, 3), *var = optionalMeta(margs, 4);
  const DType stats = paramDtype(input, {weight, bias, mean, var}, "batch_norm");
  const SymInt& channels = input.sizes[1];
  checkChannels(weight, "weight", channels);
  checkChannels(bias, "bias", channels);
  checkChannels(mean, "running_mean", channels);
  checkChannels(var, "running_var", channels);
  const bool training = boolArg(margs, 5);
  FATHOM_CHECK(training || (mean && var), "running_mean and running_var must be defined in evaluation mode");
  BatchNormLayout l;
  l.out = newTensorMeta(input, input.dtype, input.sizes, suggestMemoryFormat(input));
  l.saveMean = newTensorMeta(input, stats, {training ? channels : SymInt(0)}, SuggestedFormat::Contiguous);
  l.saveInvstd = l.saveMean;
  return l;
}

// `t` as a contiguous tensor of `dtype` (itself when it already is one).
Tensor denseAs(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype && t.isContiguous()) return t;
  TensorMeta m = t.meta();
  m.dtype = dtype;
  m.strides = contiguousStrides(m.sizes);
  m.storageOffset = 0;
  Tensor out = allocateTensor(m);
  copyInto(out, t);
  return out;
}

// A 1-d parameter's values in S (`fallback` everywhere when absent).
template <class S>
std::vector<S> vectorOf(const Tensor* t, int64_t n, S fallback) {
  std::vector<S> v(static_cast<size_t>(n), fallback);
  if (t)
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<S>(t->atLinear(i));
  return v;
}

// Writes v into a 1-d tensor (a copy of the handle shares its storage).
template <class S>
void storeVector(const std::vector<S>& v, Tensor t) {
  for (size_t i = 0; i < v.size(); ++i) t.setLinear(static_cast<int64_t>(i), static_cast<double>(v[i]));
}

// The [N, C, S] geometry of a batch-norm input (S: everything after the channel dim).
struct Planes {
  int64_t n = 0, c = 0, s = 0;
  explicit Planes(const Tensor& t) : n(t.size(0)), c(t.size(1)) { s = n * c != 0 ? t.numel() / (n * c) : 0; }
  int64_t count() const { return n * s; }  // elements per channel
};

template <class S>
void channelStats(const S* x, const Planes& p, double eps, std::vector<S>& mean, std::vector<S>& invstd,
                  std::vector<double>& varSum) {
  parallelFor(p.c, 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      double sum = 0;
      for (int64_t n = 0; n < p.n; ++n)
        for (const S *q = x + (n * p.c + c) * p.s, *end = q + p.s; q < end; ++q) sum += *q;
      const S m = static_cast<S>(sum / static_cast<double>(p.count()));
      double sq = 0;
      for (int64_t n = 0; n < p.n; ++n)
        for (const S *q = x + (n * p.c + c) * p.s, *end = q + p.s; q < end; ++q) sq += static_cast<double>((*q - m) * (*q - m));
      const double var = static_cast<double>(static_cast<S>(sq));
      mean[c] = m;
      varSum[c] = var;
      const double v = var / static_cast<double>(p.count());
      invstd[c] = static_cast<S>(v == 0 && eps == 0 ? 0.0 : 1.0 / std::sqrt(v + eps));
    }
  });
}

template <class S>
ValueList batchNormTyped(const ValueList& args, const BatchNormLayout& l) {
  const Tensor& input = tensorArg(args, 0);
  const Tensor *weight = optionalTensor(args, 1), *bias = optionalTensor(args, 2);
  const Tensor *runMean = optionalTensor(args, 3), *runVar = optionalTensor(args, 4);
  const bool training = boolArg(args, 5);
  const double momentum = args.at(6).toDouble(), eps = args.at(7).toDouble();
  const DType computeType = std::is_same_v<S, double> ? DType::Float64 : DType::Float32;
  const Planes p(input);
  const Tensor x = denseAs(input, computeType);
  std::vector<S> mean(p.c), invstd(p.c);
  Tensor saveMean = allocateTensor(l.saveMean), saveInvstd = allocateTensor(l.saveInvstd);
  if (training) {
    std::vector<double> varSum(p.c);
    channelStats(x.dataAs<S>(), p, eps, mean, invstd, varSum);
    storeVector(mean, saveMean);
    storeVector(invstd, saveInvstd);
    // Running averages, in place, in double as ATen's accscalar_t.
    Tensor rm = runMean ? *runMean : Tensor(), rv = runVar ? *runVar : Tensor();
    for (int64_t c = 0; c < p.c; ++c) {
      if (runMean) rm.setLinear(c, momentum * mean[c] + (1 - momentum) * rm.atLinear(c));
      if (runVar) rv.setLinear(c, momentum * (varSum[c] / static_cast<double>(p.count() - 1)) + (1 - momentum) * rv.atLinear(c));
    }
  } else {
    mean = vectorOf<S>(runMean, p.c, 0);
    const std::vector<S> var = vectorOf<S>(runVar, p.c, 1);
    for (int64_t c = 0; c < p.c; ++c) invstd[c] = S(1) / std::sqrt(var[c] + static_cast<S>(eps));
  }
  // out = x * alpha + beta with alpha = invstd * weight and beta = bias - mean * alpha, as ATen's
  // contiguous kernel folds them.
  const std::vector<S> w = vectorOf<S>(weight, p.c, 1), b = vectorOf<S>(bias, p.c, 0);
  Tensor out = allocateTensor(l.out);
  Tensor y = out.dtype() == computeType && out.isContiguous() ? out : allocateTensor(x.meta());
  const S* xs = x.dataAs<S>();
  S* ys = y.dataAs<S>();
  parallelFor(p.n * p.c, std::max<int64_t>(1, 32768 / std::max<int64_t>(p.s, 1)), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t c = r % p.c;
      const S alpha = invstd[c] * w[c], beta = b[c] - mean[c] * alpha;
      for (int64_t i = r * p.s; i < (r + 1) * p.s; ++i) ys[i] = xs[i] * alpha + beta;
    }
  });
  if (!y.sharesStorageWith(out)) copyInto(out, y);
  return {out, saveMean, saveInvstd};
}

ValueList batchNormKernel(const ValueList& args) {
  const BatchNormLayout l = batchNormLayout(metaArgs(args));
  if (tensorArg(args, 0).dtype() == DType::Float64) return batchNormTyped<double>(args, l);
  return batchNormTyped<float>(args, l);
}

// ---- native_batch_norm_backward -----------------------------------------------------------

struct BackwardLayout {
  std::array<bool, 3> mask{};
  TensorMeta gradInput, gradWeight, gradBias;
};

// native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean,
//                            save_invstd, train, eps, output_mask)
BackwardLayout backwardLayout(const ValueList& margs) {
  const TensorMeta &gradOut = metaArg(margs, 0), &input = metaArg(margs, 1);
  checkInput(input);
  const TensorMeta* weight = optionalMeta(margs, 2);
  const TensorMeta *runMean = optionalMeta(margs, 3), *runVar = optionalMeta(margs, 4);
  const TensorMeta *saveMean = optionalMeta(margs, 5), *saveInvstd = optionalMeta(margs, 6);
  const bool train = boolArg(margs, 7);
  const DType params = paramDtype(input, {weight, runMean, runVar, saveMean, saveInvstd}, "batch_norm_backward_cpu");
  FATHOM_CHECK(gradOut.dtype == input.dtype, "expected grad_out to have dtype ", scalarTypeName(input.dtype),
               " like input, but got ", scalarTypeName(gradOut.dtype));
  bool sameSizes = gradOut.dim() == input.dim();
  for (int64_t d = 0; sameSizes && d < input.dim(); ++d)
    sameSizes = symEq(gradOut.sizes[d], input.sizes[d], "batch_norm_backward: grad_out size");
  FATHOM_CHECK(sameSizes, "batch_norm_backward: expected grad_out of the input's size ", sizesText(input.sizes),
               ", but got ", sizesText(gradOut.sizes));
  const SymInt& channels = input.sizes[1];
  checkChannels(weight, "weight", channels);
  if (train) {
    FATHOM_CHECK(saveMean && saveInvstd, "save_mean and save_invstd must be defined when train=True");
    checkChannels(saveMean, "save_mean", channels);
    checkChannels(saveInvstd, "save_invstd", channels);
  } else {
    FATHOM_CHECK(runMean && runVar, "running_mean and running_var must be defined in evaluation mode");
    checkChannels(runMean, "running_mean", channels);
    checkChannels(runVar, "running_var", channels);
  }
  BackwardLayout l;
  l.mask = outputMaskArg(margs.at(9));
  l.gradInput = newTensorMeta(input, input.dtype, input.sizes, suggestMemoryFormat(input));
  l.gradWeight = newTensorMeta(input, params, {channels}, SuggestedFormat::Contiguous);
  l.gradBias = l.gradWeight;
  return l;
}

// Per channel: sum(grad_out) and dot(x - mean, grad_out); then the three gradients.
template <class S>
ValueList backwardTyped(const ValueList& args, const BackwardLayout& l) {
  const Tensor& input = tensorArg(args, 1);
  const bool train = boolArg(args, 7);
  const double eps = args.at(8).toDouble();
  const DType computeType = std::is_same_v<S, double> ? DType::Float64 : DType::Float32;
  const Planes p(input);
  const Tensor x = denseAs(input, computeType), go = denseAs(tensorArg(args, 0), computeType);
  const std::vector<S> w = vectorOf<S>(optionalTensor(args, 2), p.c, 1);
  std::vector<S> mean, invstd;
  if (train) {
    mean = vectorOf<S>(optionalTensor(args, 5), p.c, 0);
    invstd = vectorOf<S>(optionalTensor(args, 6), p.c, 0);
  } else {
    mean = vectorOf<S>(optionalTensor(args, 3), p.c, 0);
    invstd = vectorOf<S>(optionalTensor(args, 4), p.c, 1);
    for (S& v : invstd) v = S(1) / std::sqrt(v + static_cast<S>(eps));
  }
  const S *xs = x.dataAs<S>(), *gs = go.dataAs<S>();
  std::vector<S> sum(p.c), dot(p.c);
  parallelFor(p.c, 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      double s = 0, d = 0;
      for (int64_t n = 0; n < p.n; ++n)
        for (int64_t i = (n * p.c + c) * p.s, end = i + p.s; i < end; ++i) {
          s += gs[i];
          d += static_cast<double>(xs[i] - mean[c]) * gs[i];
        }
      sum[c] = static_cast<S>(s), dot[c] = static_cast<S>(d);
    }
  });
  ValueList result(3, Value(None{}));
  if (l.mask[0]) {
    Tensor gradInput = allocateTensor(l.gradInput);
    Tensor gx = gradInput.dtype() == computeType && gradInput.isContiguous() ? gradInput : allocateTensor(x.meta());
    S* out = gx.dataAs<S>();
    const S count = static_cast<S>(p.count());
    parallelFor(p.n * p.c, std::max<int64_t>(1, 32768 / std::max<int64_t>(p.s, 1)), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const int64_t c = r % p.c;
        const S k = dot[c] * invstd[c] * invstd[c] / count, gradMean = sum[c] / count;
        for (int64_t i = r * p.s; i < (r + 1) * p.s; ++i)
          out[i] = train ? (gs[i] - gradMean - (xs[i] - mean[c]) * k) * invstd[c] * w[c] : gs[i] * invstd[c] * w[c];
      }
    });
    if (!gx.sharesStorageWith(gradInput)) copyInto(gradInput, gx);
    result[0] = gradInput;
  }
  if (l.mask[1]) {
    std::vector<S> gw(p.c);
    for (int64_t c = 0; c < p.c; ++c) gw[c] = dot[c] * invstd[c];
    Tensor t = allocateTensor(l.gradWeight);
    storeVector(gw, t);
    result[1] = t;
  }
  if (l.mask[2]) {
    Tensor t = allocateTensor(l.gradBias);
    storeVector(sum, t);
    result[2] = t;
  }
  return result;
}

ValueList backwardKernel(const ValueList& args) {
  const BackwardLayout l = backwardLayout(metaArgs(args));
  if (tensorArg(args, 1).dtype() == DType::Float64) return backwardTyped<double>(args, l);
  return backwardTyped<float>(args, l);
}

ValueList backwardMeta(const ValueList& args) {
  const BackwardLayout l = backwardLayout(args);
  return {l.mask[0] ? Value(l.gradInput) : Value(None{}), l.mask[1] ? Value(l.gradWeight) : Value(None{}),
          l.mask[2] ? Value(l.gradBias) : Value(None{})};
}

// The functional form (PyTorch 2's _native_batch_norm_legit_functional) that functionalization
// turns a training-mode native_batch_norm into: the running stats are not written; their new
// values are returned as two more outputs (fresh contiguous tensors).
ValueList functionalMeta(const ValueList& args) {
  const BatchNormLayout l = batchNormLayout(args);
  const TensorMeta& mean = metaArg(args, 3);
  const TensorMeta& var = metaArg(args, 4);
  return {l.out, l.saveMean, l.saveInvstd, contiguousOutput(mean, mean.sizes), contiguousOutput(var, var.sizes)};
}

ValueList functionalKernel(const ValueList& args) {
  ValueList a = args;
  Tensor mean = allocateTensor(contiguousOutput(tensorArg(args, 3).meta(), tensorArg(args, 3).meta().sizes));
  Tensor var = allocateTensor(contiguousOutput(tensorArg(args, 4).meta(), tensorArg(args, 4).meta().sizes));
  copyInto(mean, tensorArg(args, 3));
  copyInto(var, tensorArg(args, 4));
  a[3] = mean;
  a[4] = var;
  ValueList out = batchNormKernel(a);
  out.push_back(mean);
  out.push_back(var);
  return out;
}

}  // namespace

void registerBatchNormOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, "
      "Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor "
      "running_mean_out, Tensor running_var_out)",
      functionalMeta, functionalKernel);
  (void)registry.add(
      "aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
      "Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
      [](const ValueList& args) {
        const BatchNormLayout l = batchNormLayout(args);
        return ValueList{l.out, l.saveMean, l.saveInvstd};
      },
      batchNormKernel);
  (void)registry.add(
      "aten::native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor? running_mean, "
      "Tensor? running_var, Tensor? save_mean, Tensor? save_invstd, bool train, float eps, bool[3] output_mask) "
      "-> (Tensor, Tensor, Tensor)",
      backwardMeta, backwardKernel);
}

}  // namespace fathom
