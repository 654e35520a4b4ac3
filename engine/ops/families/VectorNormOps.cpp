// linalg_vector_norm (torch.linalg.vector_norm; torch 2.x lowers F.normalize and Tensor.norm to
// it): over `dim` (None or []: every dim), ord 2 is the square root of the sum of squares, 1 the
// sum of |x|, inf and -inf the largest and smallest |x| (a NaN wins), 0 the count of nonzeros, and
// any other p (sum |x|^p)^(1/p).
//
// Layout: ReductionLayout.h (the reduced shape, contiguous whatever the input's strides). Dtype:
// the input must be floating; the result is `dtype` when given (one the input converts to without
// narrowing), else the input's, and the input is converted to it first (ATen's make_reduction).
// Errors in the order of ATen's meta function: an integer input; ord < 0 or inf over an empty
// tensor or an empty reduced dim (no identity); a dtype that is not floating or narrows; the dims.
//
// Values as ATen's CPU norm kernel folds them (ReduceOpsKernel.cpp, SharedReduceOps.h's NormOps):
// one group at a time, its elements in TensorIterator's order (reduced dims by ascending stride:
// memory order), every step rounded to the accumulator type - float for float32, float16 and
// bfloat16 in torch 2.x, double for float64 (ATen's vectorized ord 2 path adds in lanes instead:
// the same precision, another order). PyTorch 1.13 (the oracle) differs in three ways, and Fathom
// with it on a 1.13 graph: it reads ord as a float (a float64 norm with p = 0.1 uses 0.1f); a
// float16 or bfloat16 input accumulates in its own dtype, every step rounded to 16 bits (a
// bfloat16 sum of |x| stalls once its spacing exceeds the terms), except bfloat16's ord 2 over one
// contiguous innermost run (its vectorized path, in float); and it has no shortcut where every
// reduced dim has size 1, where torch 2.x returns |x| (x != 0 for ord 0) without pow's round trip.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <type_traits>
#include <vector>

#include "engine/core/Error.h"
#include "engine/ops/AtenVersion.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/ops/cpu/ReductionLoop.h"
#include "engine/ops/families/ReductionFamilies.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/layout/ReductionLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

constexpr char kOp[] = "linalg.vector_norm";

// ord as c10's Scalar prints it in messages: "inf", "-1", "-2.5".
std::string ordText(const ScalarArg& ord) {
  std::ostringstream os;
  if (ord.isBool()) os << (ord.integer ? "true" : "false");
  else if (ord.isFloating()) os << ord.real;
  else os << ord.integer;
  return os.str();
}

// ord < 0 and inf have no identity: the input may not be empty where they reduce it.
void checkIdentity(const TensorMeta& self, const ScalarArg& ord, const std::optional<IntList>& dims) {
  FATHOM_CHECK(dims && !dims->empty(), kOp, " cannot compute the ", ordText(ord),
               " norm on an empty tensor because the operation does not have an identity");
  for (int64_t d : *dims)
    FATHOM_CHECK(!symEq(self.sizes[wrapDim(d, self.dim())], 0, "linalg_vector_norm: is the reduced dim empty"), kOp,
                 " cannot compute the ", ordText(ord), " norm on the dimension ", d,
                 "because this dimension is empty and the operation does not have an identity");
}

// linalg_vector_norm(self, ord, dim, keepdim, *, dtype)
ReductionLayout normLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  FATHOM_CHECK(isFloating(self.dtype), kOp, ": Expected a floating point or complex tensor as input. Got ",
               scalarTypeName(self.dtype));
  const ScalarArg ord = scalarArg(margs.at(1));
  const std::optional<IntList> dims = optionalIntListArg(margs, 2);
  if ((ord.real < 0 || ord.real == INFINITY) && symEq(self.numel(), 0, "linalg_vector_norm: is the input empty"))
    checkIdentity(self, ord, dims);
  const std::optional<DType> dtype = optionalDTypeArg(margs, 4);
  if (dtype) {
    FATHOM_CHECK(isFloating(*dtype), kOp, ": dtype should be floating point or complex, but got ",
                 scalarTypeName(*dtype));
    FATHOM_CHECK(promoteTypes(self.dtype, *dtype) == *dtype, kOp, ": the dtype of the input (",
                 scalarTypeName(self.dtype), ") should be convertible without narrowing to the specified dtype (",
                 scalarTypeName(*dtype), ")");
  }
  return reductionLayout(self, dims, boolArg(margs, 3), dtype.value_or(self.dtype));
}

// ---- the fold --------------------------------------------------------------------------------

// Precisions a value is rounded to (from a double holding it exactly or as the float64 result).
struct InDouble {
  static double apply(double x) { return x; }
};
struct InFloat {
  static double apply(double x) { return static_cast<float>(x); }
};
template <class T> struct InStorage {  // c10's Half and BFloat16 operators: float, then 16 bits
  static double apply(double x) { return static_cast<float>(T(static_cast<float>(x))); }
};

enum class NormKind { Zero, One, Two, Max, Min, Power };

// SharedReduceOps.h's norm ops over accumulator precision Acc; Compute is the precision of what
// pow and ord 2's square root return before meeting the accumulator (float unless float64).
template <class Acc, class Compute>
struct NormFold {
  NormKind kind;
  double power = 0, inverse = 0;  // p and 1/p, each rounded to Acc

  explicit NormFold(double ord)
      : kind(ord == 0 ? NormKind::Zero
             : ord == 1 ? NormKind::One
             : ord == 2 ? NormKind::Two
             : ord == INFINITY ? NormKind::Max
             : ord == -INFINITY ? NormKind::Min
                                : NormKind::Power),
        power(Acc::apply(ord)),
        inverse(Acc::apply(1.0 / power)) {}

  double init() const { return kind == NormKind::Min ? INFINITY : 0.0; }

  double step(double acc, double x) const {
    const double a = std::fabs(x);
    switch (kind) {
      case NormKind::Zero: return Acc::apply(acc + (x == 0 ? 0.0 : 1.0));
      case NormKind::One: return Acc::apply(acc + a);
      case NormKind::Two: return Acc::apply(acc + Acc::apply(a * a));
      case NormKind::Max: return std::isnan(acc) ? acc : std::isnan(a) ? a : (a > acc ? a : acc);
      case NormKind::Min: return std::isnan(acc) ? acc : std::isnan(a) ? a : (a < acc ? a : acc);
      // pow returns a float for 16-bit accumulators (no rounding before the sum: c10's
      // Half + float is a float)
      case NormKind::Power: return Acc::apply(acc + Compute::apply(std::pow(a, power)));
    }
    return acc;
  }

  double project(double acc) const {
    if (kind == NormKind::Two) return Compute::apply(std::sqrt(acc));
    if (kind == NormKind::Power) return Acc::apply(std::pow(acc, inverse));
    return acc;
  }
};

// `in` with its reduced dims in memory order (the largest stride first; kept dims stay where
// they are), so a group's runs come in TensorIterator's order.
Tensor reducedInMemoryOrder(const Tensor& in, const std::vector<bool>& reduced) {
  std::vector<int64_t> slots;
  for (int64_t d = 0; d < in.dim(); ++d)
    if (reduced[static_cast<size_t>(d)]) slots.push_back(d);
  std::vector<int64_t> order = slots;
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return in.stride(a) > in.stride(b); });
  IntList sizes = in.sizes(), strides = in.strides();
  for (size_t k = 0; k < slots.size(); ++k) {
    sizes[static_cast<size_t>(slots[k])] = in.size(order[k]);
    strides[static_cast<size_t>(slots[k])] = in.stride(order[k]);
  }
  auto view = in.asStrided(sizes, strides, in.storageOffset());
  FATHOM_CHECK(view.ok(), "linalg_vector_norm: ", view.ok() ? "" : view.error().message);
  return *view;
}

// Folds every group of `in` (of the result's dtype T) into `out`.
template <class T, class Acc, class Compute>
void foldGroups(const Tensor& in, const Tensor& out, const ReductionGeometry& g, double ord) {
  const NormFold<Acc, Compute> fold(ord);
  const bool sizeOneShortcut = g.groupSize == 1 && atenVersion().atLeast(2, 0);
  const auto read = [](const std::byte* p) {
    return static_cast<double>(static_cast<OpMath<T>>(*reinterpret_cast<const T*>(p)));
  };
  T* o = out.dataAs<T>();
  forEachGroup(g, bytePtr(in), [&](int64_t i, const std::byte* first) {
    if (sizeOneShortcut) {  // torch 2.x: abs(x), or x != 0 for ord 0
      const double x = read(first);
      o[i] = convertValue<T>(ord == 0 ? (x != 0 ? 1.0 : 0.0) : std::fabs(x));
      return;
    }
    double acc = fold.init();
    forEachRunInGroup(g, first, [&](const std::byte* p, int64_t s, int64_t n, int64_t) {
      for (int64_t k = 0; k < n; ++k) acc = fold.step(acc, read(p + k * s));
    });
    o[i] = convertValue<T>(fold.project(acc));
  });
}

// The accumulator ATen uses for a result of dtype T (see the file comment).
template <class T>
void foldInAtensPrecision(const Tensor& in, const Tensor& out, const ReductionGeometry& g, double ord) {
  if constexpr (std::is_same_v<T, double>) {
    foldGroups<T, InDouble, InDouble>(in, out, g, ord);
  } else if constexpr (kIsReducedFloat<T>) {
    const bool vectorizedTwo = std::is_same_v<T, BFloat16> && ord == 2 && g.reducedSizes.size() == 1 &&
                               g.reducedStrides[0] == static_cast<int64_t>(sizeof(T));
    if (atenVersion().atLeast(2, 0) || vectorizedTwo) foldGroups<T, InFloat, InFloat>(in, out, g, ord);
    else foldGroups<T, InStorage<T>, InFloat>(in, out, g, ord);
  } else if constexpr (std::is_same_v<T, float>) {
    foldGroups<T, InFloat, InFloat>(in, out, g, ord);
  }
}

Tensor normKernel(const Tensor& self, const ScalarArg& ordArg, const ReductionLayout& r) {
  Tensor out = allocateTensor(r.output);
  const DType dtype = r.output.dtype;
  // 1.13's kernel narrows ord to float; torch 2.x keeps the double.
  const double ord = atenVersion().atLeast(2, 0) ? ordArg.real : static_cast<float>(ordArg.real);
  if (out.numel() == 0) return out;
  if (self.numel() == 0) {  // empty groups: ATen fills with 0 (inf for ord < 0, which the checks refuse)
    for (int64_t i = 0; i < out.numel(); ++i) out.setLinear(i, ord < 0 ? INFINITY : 0.0);
    return out;
  }
  const Tensor in = self.dtype() == dtype
                        ? self
                        : convertedTo(self, freshLike(self.meta(), dtype, likeStrides(self.meta(), std::nullopt)));
  const Tensor ordered = reducedInMemoryOrder(in, r.reduced);
  const ReductionGeometry g = reductionGeometry(ordered, r.reduced);
  dispatchDType(dtype, [&](auto tag) { foldInAtensPrecision<typename decltype(tag)::type>(ordered, out, g, ord); });
  return out;
}

}  // namespace

void registerVectorNormOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
      "ScalarType? dtype=None) -> Tensor",
      [](const ValueList& args) { return ValueList{normLayout(args).output}; },
      [](const ValueList& args) {
        return ValueList{normKernel(tensorArg(args, 0), scalarArg(args.at(1)), normLayout(metaArgs(args)))};
      });
}

}  // namespace fathom
