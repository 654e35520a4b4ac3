// Strided loops for CPU kernels. A LoopPlan orders the dimensions of N operands that share one
// shape (innermost = smallest stride of a chosen key operand) and merges dimensions that are
// contiguous in every operand, so the innermost run is as long as possible. forEachRun then calls
// a body once per innermost run with one pointer and one byte stride per operand; bodies test
// for unit strides to get a vectorizable fast path. forEachRunIn visits a sub-range of the
// elements, which is how parallelForEachRun splits a plan over threads.
//
// Broadcast inputs are given stride 0 on broadcast dimensions (broadcastByteStrides), and
// reductions give their accumulator stride 0 on reduced dimensions.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/Parallel.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

struct LoopPlan {
  IntList shape;                 // innermost dimension first, size-1 dims dropped
  std::vector<IntList> strides;  // per operand, in bytes, same order as shape
  bool empty = false;            // some dimension has size 0: nothing to run

  int64_t numel() const;  // elements the plan visits
};

// `byteStrides[k]` has one stride per dimension of `shape` for operand k. Dimensions are
// ordered by the strides of operand `keyOperand` (ties keep row-major order).
LoopPlan planLoop(const IntList& shape, std::vector<IntList> byteStrides, size_t keyOperand = 0);

// Byte strides of `t` viewed as broadcast to `shape` (0 on broadcast and missing leading dims).
IntList broadcastByteStrides(const Tensor& t, const IntList& shape);

// Calls body(ptrs, strides, n) once per innermost run of the elements [begin, end), counted in
// the order forEachRun visits them; runs are cut at the range's ends. ptrs/strides are
// std::array<..., N>.
template <size_t N, class Body>
void forEachRunIn(const LoopPlan& plan, std::array<std::byte*, N> ptrs, int64_t begin, int64_t end, Body&& body) {
  if (plan.empty || begin >= end) return;
  const size_t nd = plan.shape.size();
  std::array<int64_t, N> inner{};
  if (nd == 0) {
    body(ptrs, inner, int64_t{1});
    return;
  }
  for (size_t k = 0; k < N; ++k) inner[k] = plan.strides[k][0];
  std::vector<int64_t> counter(nd, 0);
  for (size_t d = 0, rest = static_cast<size_t>(begin); d < nd; ++d) {
    counter[d] = static_cast<int64_t>(rest % static_cast<size_t>(plan.shape[d]));
    rest /= static_cast<size_t>(plan.shape[d]);
    for (size_t k = 0; k < N; ++k) ptrs[k] += counter[d] * plan.strides[k][d];
  }
  for (int64_t pos = begin;;) {
    const int64_t n = std::min(plan.shape[0] - counter[0], end - pos);
    body(ptrs, inner, n);
    pos += n;
    if (pos >= end) return;
    for (size_t k = 0; k < N; ++k) ptrs[k] -= counter[0] * plan.strides[k][0];  // back to the run's start
    counter[0] = 0;
    size_t d = 1;
    for (; d < nd; ++d) {
      for (size_t k = 0; k < N; ++k) ptrs[k] += plan.strides[k][d];
      if (++counter[d] < plan.shape[d]) break;
      for (size_t k = 0; k < N; ++k) ptrs[k] -= plan.strides[k][d] * plan.shape[d];
      counter[d] = 0;
    }
    if (d == nd) return;
  }
}

// Calls body(ptrs, strides, n) once per innermost run of the whole plan.
template <size_t N, class Body>
void forEachRun(const LoopPlan& plan, std::array<std::byte*, N> ptrs, Body&& body) {
  forEachRunIn<N>(plan, ptrs, 0, plan.numel(), body);
}

// forEachRun split over threads in ranges of about `grain` elements (small plans run inline).
// Ranges start at a run's start or `align` elements after one, so a body that works in blocks of
// `align` from the start of each run it gets sees the same blocks however the plan is split:
// results do not depend on the thread count. Only for plans where no two elements of a written
// operand share memory, and a body that is safe to call concurrently.
template <size_t N, class Body>
void parallelForEachRun(const LoopPlan& plan, const std::array<std::byte*, N>& ptrs, int64_t grain, const Body& body,
                        int64_t align = 1) {
  const int64_t n = plan.numel();
  if (n == 0) return;
  const int64_t inner = plan.shape.empty() ? 1 : plan.shape[0];
  const int64_t perRun = (inner + align - 1) / align, pieces = n / inner * perRun;
  auto position = [&](int64_t piece) { return piece == pieces ? n : piece / perRun * inner + piece % perRun * align; };
  parallelFor(pieces, std::max<int64_t>(1, grain / align), [&](int64_t begin, int64_t end) {
    forEachRunIn<N>(plan, ptrs, position(begin), position(end), body);
  });
}

// Byte pointer of a tensor's first element, for forEachRun.
inline std::byte* bytePtr(const Tensor& t) { return static_cast<std::byte*>(t.data()); }

template <class T>
inline T& elementAt(std::byte* p, int64_t byteStride, int64_t i) {
  return *reinterpret_cast<T*>(p + i * byteStride);
}

}  // namespace fathom
