// Index-driven copies (see IndexedCopy.h).
#include "engine/ops/cpu/IndexedCopy.h"

#include <cstring>

#include "engine/core/Error.h"
#include "engine/core/Parallel.h"
#include "engine/ops/cpu/Loops.h"

namespace fathom {
namespace {

constexpr int64_t kCopyGrain = 32768;  // elements per parallel chunk

template <class F>
decltype(auto) dispatchIndexType(DType dtype, F&& f) {
  if (dtype == DType::Int32) return f(int32_t{});
  FATHOM_CHECK(dtype == DType::Int64, "expected an int64 or int32 index, got ", dtypeName(dtype));
  return f(int64_t{});
}

IntList byteStrides(const IntList& strides, int64_t elementBytes) {
  IntList out;
  for (int64_t s : strides) out.push_back(s * elementBytes);
  return out;
}

// Runs forEachRun over `plan`, splitting its outermost dimension over threads when large.
template <size_t N, class Body>
void forEachRunParallel(const LoopPlan& plan, std::array<std::byte*, N> ptrs, const Body& body) {
  if (plan.empty || plan.shape.empty()) return forEachRun<N>(plan, ptrs, body);
  const int64_t outer = plan.shape.back();
  int64_t numel = 1;
  for (int64_t s : plan.shape) numel *= s;
  parallelFor(outer, std::max<int64_t>(1, kCopyGrain / (numel / outer)), [&](int64_t begin, int64_t end) {
    LoopPlan part = plan;
    part.shape.back() = end - begin;
    std::array<std::byte*, N> p = ptrs;
    for (size_t k = 0; k < N; ++k) p[k] += begin * plan.strides[k].back();
    forEachRun<N>(part, p, body);
  });
}

// One run: `n` elements of type E (an unsigned integer of the element's width).
template <class E, class I>
void copyRun(std::array<std::byte*, 3>& p, std::array<int64_t, 3>& s, int64_t n, int64_t indexBytes) {
  if (s[1] == 0 && s[0] == sizeof(E) && s[2] == sizeof(E)) {  // one row of a constant index
    std::memcpy(p[0], p[2] + *reinterpret_cast<const I*>(p[1]) * indexBytes, static_cast<size_t>(n) * sizeof(E));
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t idx = elementAt<I>(p[1], s[1], i);
    elementAt<E>(p[0], s[0], i) = *reinterpret_cast<const E*>(p[2] + i * s[2] + idx * indexBytes);
  }
}

template <class E>
void copyTyped(const LoopPlan& plan, std::array<std::byte*, 3> ptrs, DType indexType, int64_t indexBytes) {
  dispatchIndexType(indexType, [&](auto tag) {
    using I = decltype(tag);
    forEachRunParallel<3>(plan, ptrs, [&](auto& p, auto& s, int64_t n) { copyRun<E, I>(p, s, n, indexBytes); });
  });
}

}  // namespace

void checkIndexRange(const Tensor& index, int64_t bound, const std::function<std::string(int64_t)>& message) {
  const LoopPlan plan = planLoop(index.sizes(), {byteStrides(index.strides(), elementSize(index.dtype()))});
  dispatchIndexType(index.dtype(), [&](auto tag) {
    using I = decltype(tag);
    forEachRun<1>(plan, {bytePtr(index)}, [&](auto& p, auto& s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t v = elementAt<I>(p[0], s[0], i);
        if (v < 0 || v >= bound) throwOpError(message(v));
      }
    });
  });
}

void checkIndexSelectRange(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  const bool emptySelf = self.dim() > 1 && self.numel() == 0;
  FATHOM_CHECK(!emptySelf || size > 0, "index_select(): self indexing axis dim should be positive");
  if (emptySelf || (self.dim() > 1 && dim == 1)) {
    checkIndexRange(index, size, [size](int64_t i) {
      return "INDICES element is out of DATA bounds, id=" + std::to_string(i) + " axis_dim=" + std::to_string(size);
    });
  } else {
    checkIndexRange(index, size, [](int64_t) { return std::string("index out of range in self"); });
  }
}

void indexedCopy(const Tensor& out, const Tensor& index, const std::byte* src, const IntList& srcStrides,
                 int64_t srcIndexStride) {
  const auto es = static_cast<int64_t>(elementSize(out.dtype()));
  const LoopPlan plan = planLoop(out.sizes(), {byteStrides(out.strides(), es),
                                               byteStrides(index.strides(), elementSize(index.dtype())),
                                               byteStrides(srcStrides, es)});
  const std::array<std::byte*, 3> ptrs{bytePtr(out), bytePtr(index), const_cast<std::byte*>(src)};
  const int64_t indexBytes = srcIndexStride * es;
  switch (es) {
    case 1: return copyTyped<uint8_t>(plan, ptrs, index.dtype(), indexBytes);
    case 2: return copyTyped<uint16_t>(plan, ptrs, index.dtype(), indexBytes);
    case 4: return copyTyped<uint32_t>(plan, ptrs, index.dtype(), indexBytes);
    default: return copyTyped<uint64_t>(plan, ptrs, index.dtype(), indexBytes);
  }
}

Tensor stridedView(const Tensor& t, const IntList& sizes, const IntList& strides) {
  auto view = t.asStrided(sizes, strides, t.storageOffset());
  if (!view.ok()) throw OpError(view.error().message, view.error().code);
  return std::move(*view);
}

}  // namespace fathom
