// Reductions: sum.default, sum.dim_IntList, mean.dim.
//
// Layout (ATen's resize_reduction): the output is a fresh contiguous tensor of the reduced shape
// (reduced dims dropped, or kept as size 1 with keepdim), whatever the input's strides.
// Dtype: sum promotes integer and bool inputs to int64 unless a dtype is given; mean needs a
// floating dtype. Values: the input is first converted to the output dtype (ATen's
// make_reduction does self.to(dtype)), summed in double / int64, and mean divides the rounded
// sum by the number of reduced elements, as ATen's CPU mean does.
#include <cmath>

#include "engine/core/Error.h"
#include "engine/ops/Copy.h"
#include "engine/ops/Loops.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/Dispatch.h"

namespace fathom {
namespace {

struct ReductionLayout {
  TensorMeta output;
  std::vector<bool> reduced;  // per input dim
  SymInt count = 1;           // elements folded into each output element
};

// ATen's make_dim_mask: None or an empty list reduces every dim; repeated dims are an error.
std::vector<bool> reducedDims(const std::optional<IntList>& dims, int64_t ndim) {
  std::vector<bool> mask(static_cast<size_t>(ndim), !dims || dims->empty());
  if (!dims) return mask;
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(ndim, 1)), false);
  for (int64_t d : *dims) {
    const int64_t w = wrapDim(d, ndim);
    FATHOM_CHECK(!seen[w], "dim ", w, " appears multiple times in the list of dims");
    seen[w] = true;
    if (w < ndim) mask[w] = true;
  }
  return mask;
}

ReductionLayout reductionLayout(const TensorMeta& self, const std::optional<IntList>& dims, bool keepdim,
                                DType outDtype) {
  ReductionLayout r;
  r.reduced = reducedDims(dims, self.dim());
  SymIntList sizes;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!r.reduced[d]) sizes.push_back(self.sizes[d]);
    else {
      r.count = r.count * self.sizes[d];
      if (keepdim) sizes.push_back(SymInt(1));
    }
  }
  r.output.dtype = outDtype;
  r.output.device = self.device;
  r.output.strides = contiguousStrides(sizes);
  r.output.sizes = std::move(sizes);
  return r;
}

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
template <class T>
void reduceTyped(const Tensor& in, const Tensor& out, const ReductionLayout& r, bool mean) {
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

Tensor reduceKernel(const Tensor& self, const ReductionLayout& r, bool mean) {
  Tensor out = allocateTensor(r.output);
  TensorMeta converted = self.meta();
  converted.dtype = r.output.dtype;
  converted.strides = contiguousStrides(converted.sizes);
  converted.storageOffset = 0;
  const Tensor in = convertedTo(self, converted);
  dispatchDType(r.output.dtype, [&](auto tag) { reduceTyped<typename decltype(tag)::type>(in, out, r, mean); });
  return out;
}

// sum.default(self, *, dtype): every dim, no keepdim.
ReductionLayout sumLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  return reductionLayout(self, std::nullopt, false, sumDtype(self, optionalDTypeArg(margs, 1)));
}
// sum.dim_IntList / mean.dim (self, dim, keepdim, *, dtype).
ReductionLayout dimLayout(const ValueList& margs, bool mean) {
  const TensorMeta& self = metaArg(margs, 0);
  const auto dtype = optionalDTypeArg(margs, 3);
  return reductionLayout(self, optionalIntListArg(margs, 1), boolArg(margs, 2),
                         mean ? meanDtype(self, dtype) : sumDtype(self, dtype));
}

}  // namespace

void registerReductionOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{sumLayout(args).output}; },
      [](const ValueList& args) { return ValueList{reduceKernel(tensorArg(args, 0), sumLayout(metaArgs(args)), false)}; });
  (void)registry.add(
      "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{dimLayout(args, false).output}; },
      [](const ValueList& args) {
        return ValueList{reduceKernel(tensorArg(args, 0), dimLayout(metaArgs(args), false), false)};
      });
  (void)registry.add(
      "aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{dimLayout(args, true).output}; },
      [](const ValueList& args) {
        return ValueList{reduceKernel(tensorArg(args, 0), dimLayout(metaArgs(args), true), true)};
      });
}

}  // namespace fathom
