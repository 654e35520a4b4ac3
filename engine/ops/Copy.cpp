// Copies and fills for CPU kernels (see Copy.h).
#include "engine/ops/Copy.h"

#include <cstring>

#include "engine/core/Error.h"
#include "engine/ops/Loops.h"
#include "engine/tensor/Dispatch.h"

namespace fathom {

Tensor allocateTensor(const TensorMeta& meta) {
  auto t = Tensor::fromMeta(meta);
  if (!t.ok()) throw OpError(t.error().message, t.error().code);
  return std::move(*t);
}

namespace {
template <class To, class From>
void copyRuns(const LoopPlan& plan, const Tensor& dst, const Tensor& src) {
  forEachRun<2>(plan, {bytePtr(dst), bytePtr(src)}, [](auto& p, auto& s, int64_t n) {
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

void copyInto(const Tensor& dst, const Tensor& src) {
  const int64_t es = static_cast<int64_t>(elementSize(dst.dtype()));
  IntList dstStrides;
  for (int64_t s : dst.strides()) dstStrides.push_back(s * es);
  const LoopPlan plan = planLoop(dst.sizes(), {dstStrides, broadcastByteStrides(src, dst.sizes())});
  dispatchDType(dst.dtype(), [&](auto to) {
    dispatchDType(src.dtype(), [&](auto from) {
      copyRuns<typename decltype(to)::type, typename decltype(from)::type>(plan, dst, src);
    });
  });
}

Tensor convertedTo(const Tensor& t, const TensorMeta& target) {
  if (t.dtype() == target.dtype) return t;
  Tensor out = allocateTensor(target);
  copyInto(out, t);
  return out;
}

void fillWith(const Tensor& dst, const ScalarArg& value) {
  const int64_t es = static_cast<int64_t>(elementSize(dst.dtype()));
  IntList strides;
  for (int64_t s : dst.strides()) strides.push_back(s * es);
  const LoopPlan plan = planLoop(dst.sizes(), {strides});
  dispatchDType(dst.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = value.isFloating() ? convertValue<T>(value.real) : convertValue<T>(value.integer);
    forEachRun<1>(plan, {bytePtr(dst)}, [&](auto& p, auto& s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) elementAt<T>(p[0], s[0], i) = v;
    });
  });
}

}  // namespace fathom
