// CudaSource: a LoweredKernel as the CUDA C text of one `extern "C" __global__` function, for
// NVRTC (Nvrtc.h) to compile and the driver (CudaDriver.h) to launch. No CUDA header is needed to
// emit or to compile it: the text declares its few helpers itself.
//
// The kernel keeps KernelIR.h's calling shape, with device pointers:
//   extern "C" __global__ void NAME(void* const* buffers, const long long* params,
//                                   long long begin, long long end)
// One thread per point of the outer (non-reduced) loop nest, the outermost loop running over
// [begin, end): thread t is the row-major point t of [begin, end) x loop[1] x ... A reduction
// thread runs the reduced loops itself, in order (a plain sequential loop, so a sum adds in the
// same order as the reference evaluator). A kernel whose every loop reduces runs one thread,
// which takes the outermost reduced loop over [begin, end) (the host passes the whole extent).
//
// Semantics are KernelIR.h's, written out:
//   Cast      C++ conversion; to bool is `!= 0` (so NaN -> true).
//   Max/Min   NaN if either operand is NaN (torch.maximum); reductions Max/Min likewise.
//   Not       `!a` on bool, `~a` on integers (bitwise_not), `a == 0` on floats.
//   And/Or    `&&`/`||` on bool, `&`/`|` on integers.
//   Exp..Ceil expf/exp (floorf/floor, ...) by type; on integers Exp..Sqrt go through double and
//             Floor/Ceil are the identity.
//   Mean      the sum divided by the product of the reduced loops' extents.
// A reduction's output element is the one at its outer point with the reduced indices at 0.
// Float arithmetic is compiled without FMA contraction (Nvrtc.cpp), so each operation rounds as
// the reference does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/compile/KernelIR.h"
#include "engine/core/Result.h"

namespace fathom {

// The entry point's name: the kernel's name with every character outside [A-Za-z0-9_] made '_'
// ("fathom_" in front when it would start with a digit or be empty).
std::string cudaKernelName(const LoweredKernel& k);

// What is wrong with `k` for code generation (an operand after its use, a buffer or parameter
// slot out of range, strides that do not match the loops), or nothing.
Status checkKernelForCuda(const LoweredKernel& k);

// The CUDA C text. A kernel checkKernelForCuda refuses becomes a source holding an `#error` that
// says why, so compiling it fails with that message instead of emitting out-of-range accesses.
std::string cudaSource(const LoweredKernel& k);

// Threads a launch over [begin, end) needs (one per outer point), with `params` the runtime
// parameter values; an error when a parameter is missing or the count overflows.
Result<int64_t> cudaThreadCount(const LoweredKernel& k, const std::vector<int64_t>& params, int64_t begin,
                                int64_t end);

}  // namespace fathom
