// Sum-like reductions: sum.default, sum.dim_IntList, mean.default, mean.dim, var.correction, var.dim. The other
// reductions live in the files ReductionFamilies.h lists; this file's registration calls them.
//
// Layout: ReductionLayout.h (a fresh contiguous tensor of the reduced shape).
// Dtype: sum promotes integer and bool inputs to int64 unless a dtype is given; mean needs a
// floating dtype; var keeps the input's floating dtype. Values: sum and mean first convert the
// input to the output dtype (ATen's make_reduction does self.to(dtype)), sum in double / int64,
// and mean divides the rounded sum by the number of reduced elements, as ATen's CPU mean does.
// var is two-pass in double: mean, then squared deviations over max(N - correction, 0).
#include <cmath>
#include <limits>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/families/ReductionFamilies.h"
#include "engine/ops/layout/ReductionLayout.h"
#include "engine/ops/cpu/ReductionLoop.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

// ATen's get_dtype_from_self(self, dtype, promote_integers=true).
DType sumDtype(const TensorMeta& self, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return isIntegral(self.dtype, /*includeBool=*/true) ? DType::Int64 : self.dtype;
}

DType meanDtype(const TensorMeta& self, std::optional<DType> dtype) {
  const DType d = dtype.value_or(self.dtype);
  FATHOM_CHECK(isFloating(d), "mean(): could not infer output dtype. ", dtype ? "Optional" : "Input",
               " dtype must be either a floating point or complex dtype. Got: ", scalarTypeName(d));
  return d;
}

// Sums `in` (already of the output dtype) into `out` per the layout; divides by count if mean.
// The accumulators are visited in the input's memory order, so large inputs stream.
template <class T>
void sumTyped(const Tensor& in, const Tensor& out, const ReductionLayout& r, bool mean) {
  using Acc = std::conditional_t<std::is_floating_point_v<OpMath<T>>, double, int64_t>;
  std::vector<Acc> acc(static_cast<size_t>(out.numel()), Acc(0));
  // The accumulator viewed over the input's shape: stride 0 along reduced dims.
  IntList accStrides(in.dim(), 0), inStrides;
  int64_t running = static_cast<int64_t>(sizeof(Acc));
  for (int64_t d = in.dim() - 1; d >= 0; --d) {
    inStrides.insert(inStrides.begin(), in.stride(d) * static_cast<int64_t>(sizeof(T)));
    if (r.reduced[d]) continue;
    accStrides[d] = running;
    running *= std::max<int64_t>(in.size(d), 1);
  }
  const LoopPlan plan = planLoop(in.sizes(), {accStrides, inStrides}, /*keyOperand=*/1);
  forEachRun<2>(plan, {reinterpret_cast<std::byte*>(acc.data()), bytePtr(in)}, [](auto& p, auto& s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      Acc& a = elementAt<Acc>(p[0], s[0], i);
      const T v = elementAt<T>(p[1], s[1], i);
      if constexpr (std::is_floating_point_v<Acc>) a += static_cast<double>(static_cast<OpMath<T>>(v));
      else a = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(static_cast<int64_t>(v)));
    }
  });
  // `out` is contiguous, so its elements are in accumulator order.
  T* o = out.dataAs<T>();
  const auto count = static_cast<OpMath<T>>(r.count.hint());
  for (size_t i = 0; i < acc.size(); ++i) {
    const T sum = convertValue<T>(acc[i]);
    o[i] = mean ? T(static_cast<OpMath<T>>(sum) / count) : sum;
  }
}

Tensor sumKernel(const Tensor& self, const ReductionLayout& r, bool mean) {
  Tensor out = allocateTensor(r.output);
  TensorMeta converted = self.meta();
  converted.dtype = r.output.dtype;
  converted.strides = contiguousStrides(converted.sizes);
  converted.storageOffset = 0;
  const Tensor in = convertedTo(self, converted);
  dispatchDType(r.output.dtype, [&](auto tag) { sumTyped<typename decltype(tag)::type>(in, out, r, mean); });
  return out;
}

// sum.default / mean.default(self, *, dtype): every dim, no keepdim.
ReductionLayout sumLayout(const ValueList& margs, bool mean = false) {
  const TensorMeta& self = metaArg(margs, 0);
  const auto dtype = optionalDTypeArg(margs, 1);
  return reductionLayout(self, std::nullopt, false, mean ? meanDtype(self, dtype) : sumDtype(self, dtype));
}
// sum.dim_IntList / mean.dim (self, dim, keepdim, *, dtype).
ReductionLayout dimLayout(const ValueList& margs, bool mean) {
  const TensorMeta& self = metaArg(margs, 0);
  const auto dtype = optionalDTypeArg(margs, 3);
  return reductionLayout(self, optionalIntListArg(margs, 1), boolArg(margs, 2),
                         mean ? meanDtype(self, dtype) : sumDtype(self, dtype));
}

// var.correction(self, dim, *, correction, keepdim); var.dim(self, dim, unbiased, keepdim).
ReductionLayout varLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  FATHOM_CHECK(isFloating(self.dtype), "std and var only support floating point and complex dtypes");
  return reductionLayout(self, optionalIntListArg(margs, 1), boolArg(margs, 3), self.dtype);
}

template <class T>
void varTyped(const Tensor& in, const Tensor& out, const ReductionLayout& r, int64_t correction) {
  const ReductionGeometry g = reductionGeometry(in, r.reduced);
  const double n = static_cast<double>(g.groupSize);
  const double divisor = std::max(n - static_cast<double>(correction), 0.0);
  T* o = out.dataAs<T>();
  forEachGroup(g, bytePtr(in), [&](int64_t i, const std::byte* first) {
    double sum = 0, squares = 0;
    forEachRunInGroup(g, first, [&](const std::byte* p, int64_t s, int64_t m, int64_t) {
      for (int64_t k = 0; k < m; ++k) sum += static_cast<double>(*reinterpret_cast<const T*>(p + k * s));
    });
    const double mean = sum / n;
    forEachRunInGroup(g, first, [&](const std::byte* p, int64_t s, int64_t m, int64_t) {
      for (int64_t k = 0; k < m; ++k) {
        const double d = static_cast<double>(*reinterpret_cast<const T*>(p + k * s)) - mean;
        squares += d * d;
      }
    });
    o[i] = convertValue<T>(squares / divisor);
  });
}

Tensor varKernel(const Tensor& self, const ReductionLayout& r, int64_t correction) {
  Tensor out = allocateTensor(r.output);
  if (self.numel() == 0) {  // ATen fills the result of an empty input with NaN, whatever the correction
    for (int64_t i = 0; i < out.numel(); ++i) out.setLinear(i, std::numeric_limits<double>::quiet_NaN());
    return out;
  }
  dispatchDType(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<OpMath<T>>) varTyped<T>(self, out, r, correction);
  });
  return out;
}

}  // namespace

void registerReductionOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{sumLayout(args).output}; },
      [](const ValueList& args) { return ValueList{sumKernel(tensorArg(args, 0), sumLayout(metaArgs(args)), false)}; });
  (void)registry.add(
      "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{dimLayout(args, false).output}; },
      [](const ValueList& args) {
        return ValueList{sumKernel(tensorArg(args, 0), dimLayout(metaArgs(args), false), false)};
      });
  (void)registry.add(
      "aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{sumLayout(args, true).output}; },
      [](const ValueList& args) { return ValueList{sumKernel(tensorArg(args, 0), sumLayout(metaArgs(args), true), true)}; });
  (void)registry.add(
      "aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{dimLayout(args, true).output}; },
      [](const ValueList& args) {
        return ValueList{sumKernel(tensorArg(args, 0), dimLayout(metaArgs(args), true), true)};
      });
  (void)registry.add(
      "aten::var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor",
      [](const ValueList& args) { return ValueList{varLayout(args).output}; },
      [](const ValueList& args) {
        const int64_t correction = args.at(2).isNone() ? 1 : intArg(args, 2);
        return ValueList{varKernel(tensorArg(args, 0), varLayout(metaArgs(args)), correction)};
      });
  // var.dim(self, dim, unbiased, keepdim): correction 1 when unbiased, else 0.
  (void)registry.add(
      "aten::var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
      [](const ValueList& args) { return ValueList{varLayout(args).output}; },
      [](const ValueList& args) {
        return ValueList{varKernel(tensorArg(args, 0), varLayout(metaArgs(args)), boolArg(args, 2) ? 1 : 0)};
      });
  registerMaxReductionOps(registry);
  registerFoldReductionOps(registry);
  registerSortOps(registry);
  registerScanOps(registry);
  registerVectorNormOps(registry);
}

}  // namespace fathom
