// NVRTC through dlopen: every test kernel compiles to PTX with its entry point, and a compile
// error comes back with NVRTC's log. Skipped, saying why, where libnvrtc is not found.
#include "engine/compile/Nvrtc.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "engine/compile/CudaSource.h"
#include "tests/engine/compile/CudaTestKernels.h"

namespace fathom {
namespace {

#define SKIP_WITHOUT_NVRTC()                                \
  do {                                                      \
    std::string why;                                        \
    if (!nvrtcAvailable(&why)) GTEST_SKIP() << why;         \
  } while (0)

// Each kernel compiles for compute_75 (CUDA 13's oldest) and its PTX defines the entry point.
TEST(Nvrtc, CompilesEveryKernelToPtx) {
  SKIP_WITHOUT_NVRTC();
  auto cases = testing::cudaTestCases();
  auto start = std::chrono::steady_clock::now();
  for (const auto& c : cases) {
    auto ptx = compileToPtx(cudaSource(c.kernel), c.kernel.name, "compute_75");
    ASSERT_TRUE(ptx.ok()) << ptx.error().str() << "\n" << cudaSource(c.kernel);
    EXPECT_NE(ptx->find(".entry " + cudaKernelName(c.kernel) + "("), std::string::npos) << *ptx;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ NVRTC    ] %s: %zu kernels in %.0f ms, %.1f ms each\n", nvrtcDescription().c_str(), cases.size(), ms,
              ms / double(cases.size()));
}

// Broken source: an error (not a crash) that carries the compiler's log.
TEST(Nvrtc, BrokenSourceReturnsTheLog) {
  SKIP_WITHOUT_NVRTC();
  auto ptx = compileToPtx("extern \"C\" __global__ void broken() { undeclared_thing = 1; }", "broken", "compute_75");
  ASSERT_FALSE(ptx.ok());
  EXPECT_NE(ptx.error().message.find("undeclared_thing"), std::string::npos) << ptx.error().str();
  EXPECT_EQ(ptx.error().where, "broken");
}

// A kernel the emitter refuses fails to compile with the refusal's reason.
TEST(Nvrtc, RefusedKernelFailsWithItsReason) {
  SKIP_WITHOUT_NVRTC();
  LoweredKernel k = testing::cudaTestCases().front().kernel;
  k.stores[0].buffer = 0;  // an input
  auto ptx = compileToPtx(cudaSource(k), k.name, "compute_75");
  ASSERT_FALSE(ptx.ok());
  EXPECT_NE(ptx.error().message.find("which is not an output buffer"), std::string::npos) << ptx.error().str();
}

// An architecture NVRTC does not know is an error naming it.
TEST(Nvrtc, UnknownArchitectureIsAnError) {
  SKIP_WITHOUT_NVRTC();
  auto ptx = compileToPtx("extern \"C\" __global__ void empty() {}", "empty", "compute_1");
  ASSERT_FALSE(ptx.ok());
  EXPECT_NE(ptx.error().message.find("compute_1"), std::string::npos) << ptx.error().str();
}

}  // namespace
}  // namespace fathom
