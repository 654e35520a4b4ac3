// Random ops: aten.native_dropout.default and aten.bernoulli_.float. Their values come from
// Fathom's generator (engine/core/Random.h), so they cannot equal PyTorch's; their layouts,
// dtypes, errors and statistics do.
//
// native_dropout(input, p, train): in training (train None or True) keeps each element with
// probability 1 - p (mask = bernoulli(1 - p), a bool tensor) and scales kept ones by 1 / (1 - p)
// (by 0 when p == 1), as input * mask * scale; otherwise returns a clone and an all-true mask.
// Both results are laid out like the input (preserve_format). An empty input is returned as is,
// with an empty mask of the input's dtype (PyTorch 1.13's early return).
//
// Element i (row-major) of a draw uses the generator's value i, so the same seed gives the same
// mask whatever the input's strides and the number of threads.
#include <cmath>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/core/Random.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

constexpr int64_t kGrain = 32768;

void checkProbability(double p) {
  FATHOM_CHECK(p >= 0 && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
}

bool isTraining(const Value& train) { return train.isNone() || train.as<bool>(); }

struct DropoutLayout {
  TensorMeta output, mask;
  bool passThrough = false;  // empty input: the input itself is the output
};

// native_dropout(input, p, train)
DropoutLayout dropoutLayout(const ValueList& margs) {
  const TensorMeta& input = metaArg(margs, 0);
  DropoutLayout l;
  const SymIntList strides = likeStrides(input, std::nullopt);
  if (symEq(input.numel(), 0, "native_dropout: empty input")) {
    l.passThrough = true;
    l.output = input;
    l.mask = freshLike(input, input.dtype, strides);
    return l;
  }
  if (isTraining(margs.at(2))) {
    checkProbability(1 - margs.at(1).toDouble());
    // input.mul(mask).mul_(scale): a float scale cannot be written back into an integer tensor.
    FATHOM_CHECK(isFloating(input.dtype), "result type Float can't be cast to the desired output type ",
                 scalarTypeName(input.dtype));
  }
  l.output = freshLike(input, input.dtype, strides);
  l.mask = freshLike(input, DType::Bool, strides);
  return l;
}

// `meta` laid out contiguously (offset 0).
TensorMeta contiguousMeta(TensorMeta meta) {
  meta.strides = contiguousStrides(meta.sizes);
  meta.storageOffset = 0;
  return meta;
}

// A contiguous tensor shaped like `target` that the caller fills, then `finish` copies into
// `target` when the two differ.
Tensor contiguousScratch(const Tensor& target) {
  return target.isContiguous() ? target : allocateTensor(contiguousMeta(target.meta()));
}
void finish(const Tensor& target, const Tensor& scratch) {
  if (!scratch.sharesStorageWith(target)) copyInto(target, scratch);
}

// mask[i] = u_i < keep, for a contiguous bool tensor.
void drawMask(const Tensor& mask, double keep) {
  const RandomDraw draw = defaultGenerator().draw(static_cast<uint64_t>(mask.numel()));
  bool* m = mask.dataAs<bool>();
  parallelFor(mask.numel(), kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) m[i] = draw.uniform(static_cast<uint64_t>(i)) < keep;
  });
}

ValueList dropoutKernel(const ValueList& args) {
  const DropoutLayout l = dropoutLayout(metaArgs(args));
  const Tensor& input = tensorArg(args, 0);
  if (l.passThrough) return {input, allocateTensor(l.mask)};
  Tensor output = allocateTensor(l.output), mask = allocateTensor(l.mask);
  if (!isTraining(args.at(2))) {
    copyInto(output, input);
    ScalarArg one;
    one.dtype = DType::Bool, one.integer = 1, one.real = 1;
    fillWith(mask, one);
    return {output, mask};
  }
  const double keep = 1 - args.at(1).toDouble();
  const double scale = keep == 0 ? 0.0 : 1.0 / keep;
  const Tensor m = contiguousScratch(mask), out = contiguousScratch(output);
  drawMask(m, keep);
  Tensor x = input;
  if (!x.isContiguous()) {
    x = allocateTensor(contiguousMeta(input.meta()));
    copyInto(x, input);
  }
  dispatchDType(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    if constexpr (std::is_floating_point_v<C>) {
      const T* xs = x.dataAs<T>();
      const bool* ms = m.dataAs<bool>();
      T* ys = out.dataAs<T>();
      const C s = static_cast<C>(scale);
      // input.mul(mask) rounds to T, then .mul_(scale) computes in OpMath: x * 0 keeps NaN and the sign.
      parallelFor(x.numel(), kGrain, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) ys[i] = T(C(T(C(xs[i]) * C(ms[i] ? 1 : 0))) * s);
      });
    }
  });
  finish(mask, m);
  finish(output, out);
  return {output, mask};
}

// bernoulli_(self, p, *, generator): self[i] = u_i < p, in place.
TensorMeta bernoulliLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  checkProbability(margs.at(1).toDouble());
  FATHOM_CHECK(self.dtype != DType::Float16, "\"bernoulli_scalar_cpu_\" not implemented for 'Half'");
  for (int64_t d = 0; d < self.dim(); ++d)
    FATHOM_CHECK(!(symEq(self.strides[d], 0, "bernoulli_: stride 0") && symLt(1, self.sizes[d], "bernoulli_: size > 1")),
                 "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                 "location. Please clone() the tensor before performing the operation.");
  return self;
}

ValueList bernoulliKernel(const ValueList& args) {
  (void)bernoulliLayout(metaArgs(args));
  const Tensor& self = tensorArg(args, 0);
  TensorMeta maskMeta = contiguousMeta(self.meta());
  maskMeta.dtype = DType::Bool;
  Tensor mask = allocateTensor(maskMeta);
  drawMask(mask, args.at(1).toDouble());
  copyInto(self, mask);  // bool -> self's dtype: 0 or 1
  return {self};
}

}  // namespace

void registerDropoutOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)",
      [](const ValueList& args) {
        const DropoutLayout l = dropoutLayout(args);
        return ValueList{l.output, l.mask};
      },
      dropoutKernel);
  (void)registry.add("aten::bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)",
                     [](const ValueList& args) { return ValueList{bernoulliLayout(args)}; }, bernoulliKernel);
}

}  // namespace fathom
