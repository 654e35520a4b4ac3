// Copies and fills for CPU kernels (see Copy.h).
#include "engine/ops/cpu/Copy.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/ops/cpu/Loops.h"
#include "engine/tensor/DTypeDispatch.h"

namespace fathom {

Tensor allocateTensor(const TensorMeta& meta) {
  auto t = Tensor::fromMeta(meta);
  if (!t.ok()) throw OpError(t.error().message, t.error().code);
  return std::move(*t);
}

namespace {

constexpr int64_t kCopyGrain = 32768;  // elements per parallel chunk

IntList byteStrides(const Tensor& t) {
  const int64_t es = static_cast<int64_t>(elementSize(t.dtype()));
  IntList out;
  for (int64_t s : t.strides()) out.push_back(s * es);
  return out;
}

// Runs forEachRun over `plan`, in parallel chunks of its outermost (slowest) dimension when the
// work is large; chunks write disjoint parts of operand 0.
template <size_t N, class Body>
void forEachRunParallel(const LoopPlan& plan, std::array<std::byte*, N> ptrs, Body&& body) {
  if (plan.empty || plan.shape.empty()) return forEachRun<N>(plan, ptrs, body);
  const int64_t outer = plan.shape.back();
  int64_t numel = 1;
  for (int64_t s : plan.shape) numel *= s;
  const int64_t inner = numel / outer;
  parallelFor(outer, std::max<int64_t>(1, kCopyGrain / inner), [&](int64_t begin, int64_t end) {
    LoopPlan part = plan;
    part.shape.back() = end - begin;
    std::array<std::byte*, N> p = ptrs;
    for (size_t k = 0; k < N; ++k) p[k] += begin * plan.strides[k].back();
    forEachRun<N>(part, p, body);
  });
}

template <class To, class From>
void copyRuns(const LoopPlan& plan, std::byte* dst, const std::byte* src) {
  forEachRunParallel<2>(plan, {dst, const_cast<std::byte*>(src)}, [](auto& p, auto& s, int64_t n) {
    if constexpr (std::is_same_v<To, From>) {
      if (s[0] == sizeof(To) && s[1] == sizeof(To)) {
        std::memcpy(p[0], p[1], static_cast<size_t>(n) * sizeof(To));
        return;
      }
    }
    for (int64_t i = 0; i < n; ++i)
      elementAt<To>(p[0], s[0], i) = convertValue<To>(elementAt<From>(p[1], s[1], i));
  });
}

}  // namespace

void copyStridedInto(const Tensor& dst, const std::byte* src, const IntList& srcByteStrides, DType srcDtype) {
  const LoopPlan plan = planLoop(dst.sizes(), {byteStrides(dst), srcByteStrides});
  dispatchDType(dst.dtype(), [&](auto to) {
    dispatchDType(srcDtype, [&](auto from) {
      copyRuns<typename decltype(to)::type, typename decltype(from)::type>(plan, bytePtr(dst), src);
    });
  });
}

void copyInto(const Tensor& dst, const Tensor& src) {
  copyStridedInto(dst, bytePtr(src), broadcastByteStrides(src, dst.sizes()), src.dtype());
}

Tensor convertedTo(const Tensor& t, const TensorMeta& target) {
  if (t.dtype() == target.dtype) return t;
  Tensor out = allocateTensor(target);
  copyInto(out, t);
  return out;
}

Tensor contiguousTensor(const Tensor& t) {
  if (t.isContiguous()) return t;
  TensorMeta m = t.meta();
  m.strides = contiguousStrides(m.sizes);
  m.storageOffset = 0;
  Tensor out = allocateTensor(m);
  copyInto(out, t);
  return out;
}

namespace {

// c10's names for element types in conversion errors (the C++ type names).
const char* cppTypeName(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::UInt8: return "uint8_t";
    case DType::Int8: return "int8_t";
    case DType::Int16: return "int16_t";
    case DType::Int32: return "int";
    case DType::Int64: return "int64_t";
    case DType::Float16: return "at::Half";
    case DType::BFloat16: return "at::BFloat16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
  }
  return "?";
}

// The largest finite value of T, as double (16-bit floats: their own maxima).
template <class T>
double maxOf() {
  if constexpr (std::is_same_v<T, Half>) return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>) return 3.3895313892515355e38;
  else return static_cast<double>(std::numeric_limits<T>::max());
}

// c10::overflows<T>(value) for a Scalar holding `value` (Scalar::to<T>'s check).
template <class T>
bool overflows(const ScalarArg& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return false;
  } else if constexpr (std::is_integral_v<T>) {
    if (value.isFloating()) {
      const double v = value.real;
      return std::isnan(v) || v < static_cast<double>(std::numeric_limits<T>::lowest()) || v > maxOf<T>();
    }
    const int64_t v = value.integer;
    if constexpr (std::is_unsigned_v<T>) {  // negative values wrap, as two's complement does
      return (v > 0 && static_cast<uint64_t>(v) > std::numeric_limits<T>::max()) ||
             (v < 0 && -static_cast<uint64_t>(v) > std::numeric_limits<T>::max());
    } else {
      return v < static_cast<int64_t>(std::numeric_limits<T>::lowest()) ||
             v > static_cast<int64_t>(std::numeric_limits<T>::max());
    }
  } else {  // floating: inf and nan convert; finite values must be in range
    const double v = value.real;
    return std::isfinite(v) && std::fabs(v) > maxOf<T>();
  }
}

}  // namespace

void fillWith(const Tensor& dst, const ScalarArg& value) {
  const LoopPlan plan = planLoop(dst.sizes(), {byteStrides(dst)});
  dispatchDType(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    FATHOM_CHECK(!overflows<T>(value), "value cannot be converted to type ", cppTypeName(dst.dtype()),
                 " without overflow");
    T v;
    if constexpr (std::is_same_v<T, bool>) v = value.isFloating() ? value.real != 0 : value.integer != 0;
    else v = value.isFloating() ? convertValue<T>(value.real) : convertValue<T>(value.integer);
    forEachRunParallel<1>(plan, {bytePtr(dst)}, [&](auto& p, auto& s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) elementAt<T>(p[0], s[0], i) = v;
    });
  });
}

ScalarArg itemOf(const Tensor& t) {
  ScalarArg s;
  s.dtype = isFloating(t.dtype()) ? DType::Float64 : t.dtype() == DType::Bool ? DType::Bool : DType::Int64;
  s.real = t.atLinear(0);
  dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) s.integer = static_cast<int64_t>(*t.dataAs<T>());
  });
  return s;
}

}  // namespace fathom
