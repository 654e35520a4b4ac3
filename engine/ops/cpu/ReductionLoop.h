// The CPU loop for reductions that fold each output element's group of input elements one at a
// time (amax, max.dim, argmax, var): the output is contiguous (ReductionLayout.h), so output
// element `o` is the o-th group in row-major order of the kept dims; within a group the elements
// come in the input's logical row-major order, so a running counter is the flat index argmax
// and max.dim report, and ties resolve to the first element as in ATen.
//
// Dims of both kinds are merged where one step of the outer dim equals a full sweep of the
// inner one, so a contiguous last-dim reduction is one unit-stride run per group.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "engine/core/Parallel.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

struct ReductionGeometry {
  IntList keptSizes, keptStrides;        // byte strides of the input, row-major, merged
  IntList reducedSizes, reducedStrides;  // likewise; empty when each group is one element
  int64_t outputs = 1;                   // product of keptSizes
  int64_t groupSize = 1;                 // product of reducedSizes
};

ReductionGeometry reductionGeometry(const Tensor& in, const std::vector<bool>& reduced);

// Calls fn(o, first) for every output o, with `first` the group's first input element; chunks
// of outputs run in parallel when the whole input is large.
template <class Fn>
void forEachGroup(const ReductionGeometry& g, const std::byte* base, Fn&& fn) {
  if (g.outputs == 0 || g.groupSize == 0) return;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(g.groupSize, 1));
  parallelFor(g.outputs, grain, [&](int64_t begin, int64_t end) {
    const size_t nd = g.keptSizes.size();
    IntList index(nd, 0);
    const std::byte* p = base;
    int64_t rest = begin;
    for (size_t d = nd; d-- > 0;) {
      index[d] = rest % g.keptSizes[d];
      rest /= g.keptSizes[d];
      p += index[d] * g.keptStrides[d];
    }
    for (int64_t o = begin; o < end; ++o) {
      fn(o, p);
      for (size_t d = nd; d-- > 0;) {  // odometer step to the next output
        p += g.keptStrides[d];
        if (++index[d] < g.keptSizes[d]) break;
        p -= g.keptStrides[d] * g.keptSizes[d];
        index[d] = 0;
      }
    }
  });
}

// Calls run(p, byteStride, n, flatIndex) for each innermost run of a group, in logical order;
// flatIndex is the position of the run's first element within the group.
template <class Run>
void forEachRunInGroup(const ReductionGeometry& g, const std::byte* first, Run&& run) {
  const size_t nd = g.reducedSizes.size();
  if (nd == 0) {
    run(first, int64_t{0}, int64_t{1}, int64_t{0});
    return;
  }
  const int64_t inner = g.reducedSizes[nd - 1], innerStride = g.reducedStrides[nd - 1];
  IntList index(nd, 0);
  const std::byte* p = first;
  for (int64_t flat = 0; flat < g.groupSize; flat += inner) {
    run(p, innerStride, inner, flat);
    for (size_t d = nd - 1; d-- > 0;) {
      p += g.reducedStrides[d];
      if (++index[d] < g.reducedSizes[d]) break;
      p -= g.reducedStrides[d] * g.reducedSizes[d];
      index[d] = 0;
    }
  }
}

}  // namespace fathom
