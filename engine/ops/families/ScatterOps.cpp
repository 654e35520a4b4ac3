// Writing into a copy of self at indexed places: scatter.src, scatter.value, scatter_add,
// scatter_reduce.two, select_scatter and masked_scatter.
//
// scatter / scatter_add (ATen's scatter_meta_impl): the result is a fresh contiguous tensor of
// self's sizes and dtype holding self's values, then for every position p of index
//   out[p with p[dim] = index[p]] = src[p]   (or value, or += src[p])
// after the dtype checks (index int64, src of self's dtype) and scatter_shape_check (index no
// larger than self apart from `dim`, nor than src); an empty index skips the checks and the
// writes. A 0-dim tensor counts as one element along one dim. Indices are checked before any
// write ("index 3 is out of bounds for dimension 0 with size 3"); where two positions write one
// place, the later in Fathom's loop order wins (ATen leaves the order unspecified).
// select_scatter: self cloned (preserve_format), then src copied into its select(dim, index).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/IndexedCopy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/cpu/MaskBytes.h"
#include "engine/ops/cpu/ScalarConvert.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/layout/ContiguousOutput.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

SymInt nonemptySize(const TensorMeta& t, int64_t d) { return t.dim() == 0 ? SymInt(1) : t.sizes[d]; }

// scatter_gather_dtype_check and scatter_shape_check; `src` is null for scatter.value.
void checkScatter(const TensorMeta& self, int64_t dim, const TensorMeta& index, const TensorMeta* src) {
  const bool empty = symEq(index.numel(), 0, "scatter: empty index");
  FATHOM_CHECK(empty || index.dtype == DType::Int64, "scatter(): Expected dtype int64 for index");
  FATHOM_CHECK(!src || self.dtype == src->dtype, "scatter(): Expected self.dtype to be equal to src.dtype");
  if (empty) return;
  const int64_t ndim = std::max<int64_t>(self.dim(), 1);
  FATHOM_CHECK(ndim == std::max<int64_t>(index.dim(), 1), "Index tensor must have the same number of dimensions as self tensor");
  bool wrongShape = false;
  for (int64_t d = 0; d < ndim && !wrongShape; ++d)
    wrongShape = d != dim && symLt(nonemptySize(self, d), nonemptySize(index, d), "scatter: index fits in self");
  for (int64_t d = 0; src && d < ndim && !wrongShape; ++d)
    wrongShape = symLt(nonemptySize(*src, d), nonemptySize(index, d), "scatter: index fits in src");
  if (src) {
    FATHOM_CHECK(ndim == std::max<int64_t>(src->dim(), 1), "Index tensor must have the same number of dimensions as src tensor");
    FATHOM_CHECK(!wrongShape, "Expected index ", sizesStr(index.sizes), " to be smaller than self ", sizesStr(self.sizes),
                 " apart from dimension ", dim, " and to be smaller size than src ", sizesStr(src->sizes));
  }
  FATHOM_CHECK(!wrongShape, "Expected index ", sizesStr(index.sizes), " to be smaller than self ", sizesStr(self.sizes),
               " apart from dimension ", dim);
}

// scatter.src / scatter_add (self, dim, index, src) and scatter.value (self, dim, index, value).
TensorMeta scatterLayout(const ValueList& margs) {
  const TensorMeta &self = metaArg(margs, 0), &index = metaArg(margs, 2);
  const int64_t dim = wrapDim(intArg(margs, 1), self.dim());
  const bool hasSrc = margs.at(3).is<TensorMeta>();
  checkScatter(self, dim, index, hasSrc ? &metaArg(margs, 3) : nullptr);
  if (!hasSrc) checkScalarFits(scalarArg(margs.at(3)), self.dtype);
  return contiguousOutput(self, self.sizes);
}

// How a write combines with what is there: scatter assigns, scatter_add adds, scatter_reduce
// folds (sum and mean add, mean dividing afterwards; amax/amin let NaN win, as ATen's do).
enum class ScatterMode { Assign, Add, Multiply, Max, Min };

template <class T> T combine(ScatterMode mode, T dst, T v) {
  using C = OpMath<T>;
  const C a = C(dst), b = C(v);
  bool nan = false;
  if constexpr (std::is_floating_point_v<C>) nan = std::isnan(b);
  switch (mode) {
    case ScatterMode::Assign: return v;
    case ScatterMode::Add: return T(a + b);
    case ScatterMode::Multiply: return T(a * b);
    case ScatterMode::Max: return nan ? v : T(std::max(a, b));
    case ScatterMode::Min: return nan ? v : T(std::min(a, b));
  }
  return v;
}

// The writes, over index's positions; `src` undefined means the value argument. `counts`, when
// given, counts the writes into each element of the contiguous `out`.
void scatterInto(const Tensor& out, int64_t dim, const Tensor& index, const Tensor& src, const Value& value,
                 ScatterMode mode, std::vector<int64_t>* counts = nullptr) {
  const int64_t bound = out.dim() == 0 ? 1 : out.size(dim);
  checkIndexRange(index, bound, [&](int64_t i) {
    return "index " + std::to_string(i) + " is out of bounds for dimension " + std::to_string(dim) + " with size " +
           std::to_string(bound);
  });
  const IntList shape = index.sizes();
  const int64_t es = static_cast<int64_t>(elementSize(out.dtype()));
  IntList outStrides, srcStrides;
  for (int64_t d = 0; d < index.dim(); ++d) {  // a 0-dim out or src is one element along dim 0
    outStrides.push_back(d == dim || d >= out.dim() ? 0 : out.stride(d) * es);
    srcStrides.push_back(src.defined() && d < src.dim() ? src.stride(d) * es : 0);
  }
  const int64_t dimStride = (out.dim() == 0 ? 0 : out.stride(dim)) * es;
  const LoopPlan plan = planLoop(shape, {outStrides, srcStrides, broadcastByteStrides(index, shape)}, 2);
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T fill = src.defined() ? T() : checkedScalarTo<T>(scalarArg(value));
    const std::byte* srcBase = src.defined() ? bytePtr(src) : nullptr;
    std::byte* outBase = bytePtr(out);
    forEachRun<3>(plan, {outBase, const_cast<std::byte*>(srcBase), bytePtr(index)}, [&](auto& p, auto& s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        std::byte* at = p[0] + i * s[0] + elementAt<int64_t>(p[2], s[2], i) * dimStride;
        T& dst = *reinterpret_cast<T*>(at);
        dst = combine<T>(mode, dst, srcBase ? elementAt<T>(p[1], s[1], i) : fill);
        if (counts) ++(*counts)[static_cast<size_t>((at - outBase) / es)];
      }
    });
  });
}

ValueList scatterKernel(const ValueList& args, ScatterMode mode) {
  const TensorMeta layout = scatterLayout(metaArgs(args));
  Tensor out = allocateTensor(layout);
  copyInto(out, tensorArg(args, 0));
  const Tensor& index = tensorArg(args, 2);
  if (index.numel() == 0) return {out};
  const Tensor src = args.at(3).is<Tensor>() ? tensorArg(args, 3) : Tensor();
  scatterInto(out, wrapDim(intArg(args, 1), out.dim()), index, src, args.at(3), mode);
  return {out};
}

// ---- scatter_reduce.two(self, dim, index, src, reduce, *, include_self=True) -----------------

ScatterMode reduceMode(const std::string& reduce) {
  if (reduce == "sum" || reduce == "mean") return ScatterMode::Add;
  if (reduce == "prod") return ScatterMode::Multiply;
  if (reduce == "amax") return ScatterMode::Max;
  if (reduce == "amin") return ScatterMode::Min;
  throwOpError("reduce argument must be either sum, prod, mean, amax or amin, got " + reduce);
}

TensorMeta scatterReduceLayout(const ValueList& margs) {
  (void)reduceMode(margs.at(4).as<std::string>());
  return scatterLayout(margs);
}

// Without include_self, the places written start from the reduction's identity (mean's count
// then excludes self); mean divides by the count (at least 1), flooring for integers.
ValueList scatterReduceKernel(const ValueList& args) {
  Tensor out = allocateTensor(scatterReduceLayout(metaArgs(args)));
  copyInto(out, tensorArg(args, 0));
  const Tensor &index = tensorArg(args, 2), &src = tensorArg(args, 3);
  if (index.numel() == 0) return {out};
  const std::string reduce = args.at(4).as<std::string>();
  const ScatterMode mode = reduceMode(reduce);
  const bool includeSelf = boolArg(args, 5), mean = reduce == "mean";
  const int64_t dim = wrapDim(intArg(args, 1), out.dim());
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (includeSelf) return;
    using C = OpMath<T>;
    C identity = C(mode == ScatterMode::Multiply ? 1 : 0);
    if constexpr (std::is_floating_point_v<C>) {
      if (mode == ScatterMode::Max) identity = -std::numeric_limits<C>::infinity();
      if (mode == ScatterMode::Min) identity = std::numeric_limits<C>::infinity();
    } else {
      if (mode == ScatterMode::Max) identity = std::numeric_limits<C>::lowest();
      if (mode == ScatterMode::Min) identity = std::numeric_limits<C>::max();
    }
    Tensor ids = allocateTensor(contiguousOutput(src.meta(), src.meta().sizes));
    for (int64_t i = 0; i < ids.numel(); ++i) ids.dataAs<T>()[i] = T(identity);
    scatterInto(out, dim, index, ids, Value(), ScatterMode::Assign);
  });
  std::vector<int64_t> counts(static_cast<size_t>(out.numel()), includeSelf ? 1 : 0);
  scatterInto(out, dim, index, src, Value(), mode, mean ? &counts : nullptr);
  if (!mean) return {out};
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = OpMath<T>;
    T* o = out.dataAs<T>();
    for (size_t i = 0; i < counts.size(); ++i) {
      const C n = C(std::max<int64_t>(counts[i], 1));
      if constexpr (std::is_floating_point_v<C>) o[i] = T(C(o[i]) / n);
      else if constexpr (!std::is_same_v<C, bool>) o[i] = T(C(std::floor(static_cast<double>(o[i]) / static_cast<double>(n))));
    }
  });
  return {out};
}

// ---- select_scatter(Tensor self, Tensor src, int dim, int index) -----------------------------

// The select view of `out` (or its meta) through the registered select op.
template <class V>
V selected(const V& out, const ValueList& args, bool meta) {
  const OpDef* select = OpRegistry::global().find("aten.select.int");
  FATHOM_CHECK(select != nullptr, "missing op aten.select.int");
  auto r = meta ? callMeta(*select, {out, args.at(2), args.at(3)}) : callKernel(*select, {out, args.at(2), args.at(3)});
  if (!r.ok()) throwOpError(r.error().message);
  return (*r)[0].template as<V>();
}

TensorMeta selectScatterLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const TensorMeta out = freshLike(self, self.dtype, likeStrides(self, std::nullopt));
  const TensorMeta slice = selected(out, margs, true);
  const TensorMeta& src = metaArg(margs, 1);
  bool same = slice.sizes.size() == src.sizes.size();
  for (size_t d = 0; same && d < src.sizes.size(); ++d) same = symEq(slice.sizes[d], src.sizes[d], "select_scatter: src fits");
  FATHOM_CHECK(same, "expected src to have a size equal to the slice of self. src size = ", sizesStr(src.sizes),
               ", slice size = ", sizesStr(slice.sizes));
  return out;
}

ValueList selectScatterKernel(const ValueList& args) {
  Tensor out = allocateTensor(selectScatterLayout(metaArgs(args)));
  copyInto(out, tensorArg(args, 0));
  copyInto(selected(out, args, false), tensorArg(args, 1));
  return {out};
}

// ---- masked_scatter(Tensor self, Tensor mask, Tensor source) -----------------------------------

// expand_outplace(mask, self), then a contiguous clone of self written where the mask holds, in
// row-major order, from source's elements in row-major order. A mask of another dtype than bool
// is read as 1.13 reads it (MaskBytes.h).
TensorMeta maskedScatterLayout(const ValueList& margs) {
  const TensorMeta &self = metaArg(margs, 0), &mask = metaArg(margs, 1), &source = metaArg(margs, 2);
  const SymIntList sizes = broadcastShapes(mask.sizes, self.sizes);
  FATHOM_CHECK(self.dtype == source.dtype, "masked_scatter: expected self and source to have same dtypes but got",
               scalarTypeName(self.dtype), " and ", scalarTypeName(source.dtype));
  return contiguousOutput(self, sizes);
}

ValueList maskedScatterKernel(const ValueList& args) {
  Tensor out = allocateTensor(maskedScatterLayout(metaArgs(args)));
  copyInto(out, tensorArg(args, 0));
  const Tensor& source = tensorArg(args, 2);
  TensorMeta flat = contiguousOutput(source.meta(), source.meta().sizes);
  Tensor src = allocateTensor(flat);
  copyInto(src, source);
  TensorMeta maskMeta = out.meta();
  maskMeta.dtype = DType::Bool;
  Tensor mask = allocateTensor(maskMeta);
  const Tensor& given = tensorArg(args, 1);
  copyInto(mask, given.dtype() == DType::Bool ? given : maskBytes(given));  // broadcast to out's shape
  const bool* m = mask.dataAs<bool>();
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = out.dataAs<T>();
    const T* s = src.dataAs<T>();
    int64_t next = 0;
    for (int64_t i = 0; i < out.numel(); ++i) {
      if (!m[i]) continue;
      FATHOM_CHECK(next < src.numel(), "Number of elements of source < number of ones in mask");
      o[i] = s[next++];
    }
  });
  return {out};
}

}  // namespace

void registerScatterOps(OpRegistry& registry) {
  (void)registry.add("aten::masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor",
                     [](const ValueList& args) { return ValueList{maskedScatterLayout(args)}; }, maskedScatterKernel);
  auto meta = [](const ValueList& args) { return ValueList{scatterLayout(args)}; };
  (void)registry.add("aten::scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", meta,
                     [](const ValueList& args) { return scatterKernel(args, ScatterMode::Assign); });
  (void)registry.add("aten::scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", meta,
                     [](const ValueList& args) { return scatterKernel(args, ScatterMode::Assign); });
  (void)registry.add("aten::scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", meta,
                     [](const ValueList& args) { return scatterKernel(args, ScatterMode::Add); });
  (void)registry.add(
      "aten::scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) "
      "-> Tensor",
      [](const ValueList& args) { return ValueList{scatterReduceLayout(args)}; }, scatterReduceKernel);
  (void)registry.add("aten::select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor",
                     [](const ValueList& args) { return ValueList{selectScatterLayout(args)}; }, selectScatterKernel);
}

}  // namespace fathom
