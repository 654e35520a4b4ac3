// col2im where PyTorch 1.13 goes wrong, so the oracle cannot record it (FoldOps.cpp says what
// Fathom does instead): a kernel area that overflows.
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;

ValueList pair(int64_t a, int64_t b) { return {Value(a), Value(b)}; }

// 1.13 divides by kh * kw wrapped around (and dies of SIGFPE when it wraps to 0).
TEST(SamplingOpsTest, Col2imRejectsAKernelAreaThatOverflows) {
  const int64_t big = int64_t{1} << 32;
  expectOpError("aten.col2im.default",
                {makeTensor(DType::Float32, {2, 6, 1}), pair(2, 3), pair(big, big), pair(1, 1), pair(0, 0), pair(1, 1)},
                "Given kernel_width = 4294967296 and kernel_height = 4294967296 the product of kernel_width and "
                "kernel_height overflowed.");
}

}  // namespace
}  // namespace fathom
