// parallelFor: splits [0, n) into chunks run on a small process-wide thread pool, the way ATen's
// at::parallel_for does. Kernels use it where the work is large (GEMM-free loops over big tensors:
// elementwise, softmax, layer_norm, convolution); small work runs inline, because waking threads
// costs more than a few thousand elements take.
//
// The pool has FATHOM_NUM_THREADS threads (default: the machine's cores), counting the caller.
// Calls from inside a chunk run inline (no nested parallelism). Exceptions in a chunk are
// rethrown in the caller after every chunk has finished.
#pragma once

#include <cstdint>
#include <functional>

namespace fathom {

// Runs fn(begin, end) over disjoint chunks covering [0, n); chunks hold at least `grain`
// elements, so n < 2 * grain runs as one call on the calling thread.
void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t begin, int64_t end)>& fn);

// Threads parallelFor uses (>= 1); setNumThreads(1) makes everything serial (benchmarks, tests).
int numThreads();
void setNumThreads(int n);

}  // namespace fathom
