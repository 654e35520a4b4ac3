// arange, as ATen's RangeFactories.cpp computes it:
//   dtype: the given one, else int64 when start, end and step are all ints (or bools), else the
//     default float32;
//   length: for int64 results ceil((end - start + step - sign(step)) / step) in integer
//     arithmetic, for every other dtype ceil((end - start) / step) in double, after start/end/step
//     are converted to the dtype's accumulation type (int64 for integers, double for float32/64,
//     float for 16-bit floats) for the checks;
//   values: start + step * i in the accumulation type, then converted.
// Symbolic int bounds (arange(s0)) give a symbolic length when the result is int64 and the step
// is concrete; otherwise the bounds' hints are used.
#include "engine/ops/families/RangeFactories.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {
namespace {

struct RangeArgs {
  Value start, end, step;
  std::optional<DType> dtype;
};

// Argument positions differ per overload: (end), (start, end), (start, end, step); the options
// (dtype, layout, device, pin_memory) follow.
RangeArgs rangeArgs(const ValueList& args, int numBounds) {
  RangeArgs r{Value(int64_t{0}), Value(int64_t{0}), Value(int64_t{1}), std::nullopt};
  if (numBounds == 1) {
    r.end = args.at(0);
  } else {
    r.start = args.at(0);
    r.end = args.at(1);
    if (numBounds == 3) r.step = args.at(2);
  }
  const size_t options = static_cast<size_t>(numBounds);
  r.dtype = optionalDTypeArg(args, options);
  if (auto* d = args.at(options + 2).tryAs<Device>())
    FATHOM_CHECK(d->name == "cpu" || d->name == "meta", "unsupported device ", d->name);
  return r;
}

DType rangeDtype(const RangeArgs& r) {
  if (r.dtype) return *r.dtype;
  const bool integral = !r.start.is<double>() && !r.end.is<double>() && !r.step.is<double>();
  return integral ? DType::Int64 : DType::Float32;
}

// Scalar::to<acc_t>(): ints stay exact for integer results.
template <class Acc>
Acc toAcc(const ScalarArg& s) {
  return s.to<Acc>();
}

template <class Acc>
std::string accText(Acc v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// at::acc_type<T, /*is_cuda=*/false>: int64 for integers, float for 16-bit floats, else double.
template <class T>
using RangeAcc =
    std::conditional_t<std::is_integral_v<T>, int64_t, std::conditional_t<kIsReducedFloat<T>, float, double>>;

// The number of elements arange produces, with ATen's checks, in T's accumulation type.
template <class T>
int64_t rangeLength(const ScalarArg& start, const ScalarArg& end, const ScalarArg& step) {
  using Acc = RangeAcc<T>;
  const Acc xstart = toAcc<Acc>(start), xend = toAcc<Acc>(end), xstep = toAcc<Acc>(step);
  FATHOM_CHECK(xstep > 0 || xstep < 0, "step must be nonzero");
  FATHOM_CHECK(std::isfinite(static_cast<double>(xstart)) && std::isfinite(static_cast<double>(xend)),
               "unsupported range: ", accText(xstart), " -> ", accText(xend));
  FATHOM_CHECK((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart),
               "upper bound and larger bound inconsistent with step sign");
  double length;
  if constexpr (std::is_same_v<T, int64_t>) {
    const int64_t sign = (xstep > 0) - (xstep < 0);
    length = static_cast<double>((xend - xstart + xstep - sign) / xstep);
  } else {
    length = std::ceil((end.real - start.real) / step.real);
  }
  FATHOM_CHECK(length >= 0 && length <= static_cast<double>(std::numeric_limits<int64_t>::max()),
               "invalid size, possible overflow?");
  return static_cast<int64_t>(length);
}

// The symbolic length of an int64 arange over int bounds with a concrete step, or nullopt.
std::optional<SymInt> symbolicLength(const RangeArgs& r, DType dtype) {
  const auto* start = r.start.tryAs<SymInt>();
  const auto* end = r.end.tryAs<SymInt>();
  const auto* step = r.step.tryAs<SymInt>();
  if (dtype != DType::Int64 || !start || !end || !step || step->isSymbolic()) return std::nullopt;
  if (!start->isSymbolic() && !end->isSymbolic()) return std::nullopt;
  const int64_t s = step->hint();
  FATHOM_CHECK(s != 0, "step must be nonzero");
  const bool ordered = s > 0 ? symGe(*end, *start, "arange: bounds follow the step")
                             : symGe(*start, *end, "arange: bounds follow the step");
  FATHOM_CHECK(ordered, "upper bound and larger bound inconsistent with step sign");
  // Both operands of the division have the step's sign, so floor division is ATen's truncation.
  return floorDiv(*end - *start + SymInt(s - (s > 0 ? 1 : -1)), SymInt(s));
}

TensorMeta rangeLayout(const ValueList& args, int numBounds) {
  const RangeArgs r = rangeArgs(args, numBounds);
  const DType dtype = rangeDtype(r);
  FATHOM_CHECK(dtype != DType::Bool, "\"arange_cpu\" not implemented for 'Bool'");
  TensorMeta out;
  out.dtype = dtype;
  if (auto n = symbolicLength(r, dtype)) {
    out.sizes = {*n};
  } else {
    const ScalarArg start = scalarArg(r.start), end = scalarArg(r.end), step = scalarArg(r.step);
    out.sizes = {dispatchDType(dtype, [&](auto tag) {
      return rangeLength<typename decltype(tag)::type>(start, end, step);
    })};
  }
  out.strides = {SymInt(1)};
  return out;
}

ValueList rangeKernel(const ValueList& args, int numBounds) {
  Tensor out = allocateTensor(rangeLayout(metaArgs(args), numBounds));
  const RangeArgs r = rangeArgs(args, numBounds);
  const ScalarArg start = scalarArg(r.start), step = scalarArg(r.step);
  dispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      using Acc = RangeAcc<T>;
      const Acc xstart = toAcc<Acc>(start), xstep = toAcc<Acc>(step);
      T* data = out.dataAs<T>();
      parallelFor(out.numel(), 32768, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) data[i] = convertValue<T>(xstart + xstep * static_cast<Acc>(i));
      });
    }
  });
  return {out};
}

#define RANGE_OPTIONS "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"

}  // namespace

void registerRangeFactories(OpRegistry& registry) {
  const char* schemas[] = {
      "aten::arange(Scalar end, *, " RANGE_OPTIONS ") -> Tensor",
      "aten::arange.start(Scalar start, Scalar end, *, " RANGE_OPTIONS ") -> Tensor",
      "aten::arange.start_step(Scalar start, Scalar end, Scalar step=1, *, " RANGE_OPTIONS ") -> Tensor",
  };
  for (int bounds = 1; bounds <= 3; ++bounds) {
    (void)registry.add(
        schemas[bounds - 1], [bounds](const ValueList& args) { return ValueList{rangeLayout(args, bounds)}; },
        [bounds](const ValueList& args) { return rangeKernel(args, bounds); });
  }
}

#undef RANGE_OPTIONS

}  // namespace fathom
