// The LLVM generator on the hand-built kernels (CudaTestKernels.h): each compiled with KernelJit
// and run on the CPU matches the reference evaluator (KernelReference.h) buffer by buffer; the
// memory cache compiles a kernel once per process; the IR shows the strides it was given.
#include "engine/compile/KernelJit.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/engine/compile/CudaTestKernels.h"
#include "tests/engine/compile/KernelReference.h"
#include "tests/engine/jit/JitTestSupport.h"

namespace fathom {
namespace {

// Integers and bools equal; floats within a few ulp of the reference (exp, log, tanh and erf are
// polynomials here), NaN where the reference has NaN.
void expectClose(const Tensor& got, const Tensor& want, const std::string& what) {
  const double tolerance = got.dtype() == DType::Float32 ? 2e-6 : got.dtype() == DType::Float64 ? 1e-13 : 0;
  for (int64_t i = 0; i < want.numel(); ++i) {
    const double g = got.atLinear(i), w = want.atLinear(i);
    if (std::isnan(w)) {
      EXPECT_TRUE(std::isnan(g)) << what << " element " << i << ": " << g << ", want NaN";
      continue;
    }
    EXPECT_LE(std::fabs(g - w), tolerance * std::max(1.0, std::fabs(w))) << what << " element " << i << ": " << g << ", want " << w;
  }
}

TEST(KernelJit, MatchesTheReferenceOnEveryKernel) {
  FATHOM_SKIP_WITHOUT_JIT();
  for (const auto& c : testing::cudaTestCases()) {
    SCOPED_TRACE(c.kernel.name);
    auto fns = KernelJit::process().compile({&c.kernel});
    ASSERT_TRUE(fns.ok()) << fns.error().str();
    std::vector<Tensor> cpu = testing::cloneBuffers(c.buffers), ref = testing::cloneBuffers(c.buffers);
    std::vector<void*> data;
    for (const Tensor& t : cpu) data.push_back(t.data());
    (*fns)[0](data.data(), c.params.data(), c.begin, c.end);
    ASSERT_TRUE(testing::referenceRun(c.kernel, ref, c.params, c.begin, c.end).ok());
    for (size_t b = 0; b < cpu.size(); ++b) expectClose(cpu[b], ref[b], "buffer %" + c.kernel.buffers[b].value);
  }
}

TEST(KernelJit, CompilesEachSignatureOncePerProcess) {
  FATHOM_SKIP_WITHOUT_JIT();
  const auto cases = testing::cudaTestCases();
  JitStats first, second;
  ASSERT_TRUE(KernelJit::process().compile({&cases[0].kernel, &cases[1].kernel}, &first).ok());
  ASSERT_TRUE(KernelJit::process().compile({&cases[0].kernel, &cases[1].kernel, &cases[0].kernel}, &second).ok());
  EXPECT_EQ(second.kernels, 3);
  EXPECT_EQ(second.fromMemory, 3);
  EXPECT_EQ(second.compiled, 0);
}

// Every kernel's IR defines its entry point; a contiguous float loop comes out vectorized.
TEST(KernelJit, IrShowsTheTrustedStrides) {
  FATHOM_SKIP_WITHOUT_JIT();
  for (const auto& c : testing::cudaTestCases()) {
    auto ir = KernelJit::process().ir(c.kernel, /*optimized=*/false);
    ASSERT_TRUE(ir.ok()) << ir.error().str();
    EXPECT_NE(ir->find("define void @fathom_kernel_"), std::string::npos) << *ir;
  }
  auto optimized = KernelJit::process().ir(testing::cudaTestCases()[0].kernel, /*optimized=*/true);
  ASSERT_TRUE(optimized.ok());
  EXPECT_NE(optimized->find(" x float>"), std::string::npos) << "the pointwise loop did not vectorize:\n" << *optimized;
}

}  // namespace
}  // namespace fathom
