// The generated kernels on a GPU, compared with the reference evaluator (KernelReference.h) on
// every test kernel. Without a driver or device: the API answers with errors, and the device
// comparison is skipped, saying why.
#include "engine/compile/CudaDriver.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/compile/Nvrtc.h"
#include "tests/engine/compile/CudaTestKernels.h"
#include "tests/engine/compile/KernelReference.h"

namespace fathom {
namespace {

// Equal ints and bools; floats within a relative tolerance (the GPU's expf, tanhf and erff are
// within a few ulp, not correctly rounded), NaN where the reference has NaN.
void expectClose(const Tensor& got, const Tensor& want, const std::string& what) {
  double tolerance = got.dtype() == DType::Float32 ? 2e-6 : got.dtype() == DType::Float64 ? 1e-13 : 0;
  for (int64_t i = 0; i < want.numel(); ++i) {
    double g = got.atLinear(i), w = want.atLinear(i);
    if (std::isnan(w)) {
      EXPECT_TRUE(std::isnan(g)) << what << " element " << i << ": " << g << ", want NaN";
      continue;
    }
    EXPECT_LE(std::fabs(g - w), tolerance * std::max(1.0, std::fabs(w))) << what << " element " << i << ": " << g << ", want " << w;
  }
}

// Without a device, compiling is an error that says so, never a crash.
TEST(CudaDriver, NoDeviceIsAnError) {
  std::string why;
  if (cudaDeviceAvailable(&why)) GTEST_SKIP() << "a device is present: " << cudaDeviceDescription();
  EXPECT_FALSE(why.empty());
  auto k = CudaKernel::compile(testing::cudaTestCases().front().kernel);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.error().message.find("no CUDA device"), std::string::npos) << k.error().str();
}

// Every test kernel on the GPU matches the reference evaluator, output by output.
TEST(CudaDriver, MatchesTheReferenceOnEveryKernel) {
  std::string why;
  if (!cudaDeviceAvailable(&why)) GTEST_SKIP() << why;
  if (!nvrtcAvailable(&why)) GTEST_SKIP() << why;
  for (const auto& c : testing::cudaTestCases()) {
    SCOPED_TRACE(c.kernel.name);
    auto kernel = CudaKernel::compile(c.kernel);
    ASSERT_TRUE(kernel.ok()) << kernel.error().str();
    std::vector<Tensor> gpu = testing::cloneBuffers(c.buffers), ref = testing::cloneBuffers(c.buffers);
    Status ran = kernel->run(gpu, c.params, c.begin, c.end);
    ASSERT_TRUE(ran.ok()) << ran.error().str();
    ASSERT_TRUE(testing::referenceRun(c.kernel, ref, c.params, c.begin, c.end).ok());
    for (size_t b = 0; b < gpu.size(); ++b) expectClose(gpu[b], ref[b], "buffer %" + c.kernel.buffers[b].value);
  }
}

// Wrong tensors are errors naming the buffer: a count, a dtype, a missing parameter.
TEST(CudaDriver, WrongArgumentsAreErrors) {
  std::string why;
  if (!cudaDeviceAvailable(&why)) GTEST_SKIP() << why;
  if (!nvrtcAvailable(&why)) GTEST_SKIP() << why;
  auto c = testing::cudaTestCases()[3];  // symbolic_rows: x, y and two parameters
  auto kernel = CudaKernel::compile(c.kernel);
  ASSERT_TRUE(kernel.ok()) << kernel.error().str();
  EXPECT_FALSE(kernel->run({c.buffers[0]}, c.params, 0, 4).ok());
  EXPECT_FALSE(kernel->run({c.buffers[0], *Tensor::empty({4, 5}, DType::Float64)}, c.params, 0, 4).ok());
  EXPECT_FALSE(kernel->run(c.buffers, {4}, 0, 4).ok());
}

}  // namespace
}  // namespace fathom
