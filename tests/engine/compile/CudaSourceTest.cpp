// cudaSource's text and launch geometry, and the reference evaluator the device test compares
// against (checked here by hand, so it documents KernelIR's semantics on its own).
#include "engine/compile/CudaSource.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/engine/compile/CudaTestKernels.h"
#include "tests/engine/compile/KernelReference.h"

namespace fathom {
namespace {

using testing::KernelCase;

KernelCase caseNamed(const std::string& name) {
  for (auto& c : testing::cudaTestCases())
    if (c.kernel.name == name) return c;
  ADD_FAILURE() << "no test kernel " << name;
  return {};
}

// The kernel's name becomes a valid C identifier.
TEST(CudaSource, KernelNameIsAnIdentifier) {
  LoweredKernel k;
  k.name = "pointwise.chain-2";
  EXPECT_EQ(cudaKernelName(k), "pointwise_chain_2");
  k.name = "3x";
  EXPECT_EQ(cudaKernelName(k), "fathom_3x");
  k.name = "";
  EXPECT_EQ(cudaKernelName(k), "fathom_");
}

// Every test kernel passes the check and is emitted with KernelIR's calling shape.
TEST(CudaSource, EveryKernelHasTheEntryPoint) {
  for (const auto& c : testing::cudaTestCases()) {
    SCOPED_TRACE(c.kernel.name);
    Status ok = checkKernelForCuda(c.kernel);
    EXPECT_TRUE(ok.ok()) << ok.error().str();
    std::string src = cudaSource(c.kernel);
    EXPECT_NE(src.find("extern \"C\" __global__ void " + cudaKernelName(c.kernel) +
                       "(void* const* buffers, const long long* params, long long begin, long long end)"),
              std::string::npos)
        << src;
    EXPECT_EQ(src.find("#include"), std::string::npos) << "NVRTC is given no include path";
  }
}

// Each op is written with the function or operator its type calls for.
TEST(CudaSource, OpsUseTheirTypesFunctions) {
  auto contains = [](const std::string& kernel, std::vector<std::string> parts) {
    std::string src = cudaSource(caseNamed(kernel).kernel);
    for (const auto& p : parts) EXPECT_NE(src.find(p), std::string::npos) << kernel << " lacks " << p << ":\n" << src;
  };
  contains("pointwise.chain-2", {"expf(", "tanhf(", "erff(", " ? ", "!= 0)", "(int)v", "bool* b3"});
  contains("math_ops", {"fathom_max(v", "fathom_min(v", "logf(", "sqrtf(", "fabsf(", "floorf(", "ceilf(", "&&", "||", "!v"});
  contains("f64_math", {"exp(v", "tanh(v", "erf(v", "double* b1", "(0x1p+0)"});
  contains("i64_ops", {"const long long* b0", "fathom_max(", "~v", "((long long)7LL)", "(float)v"});
  contains("symbolic_rows", {"const long long n0 = params[0];", "const long long n1 = params[1];", "i0 * params[1]"});
  contains("mean_inner", {"/ (float)(1LL * n2)", "for (long long i2 = 0; i2 < n2; ++i2)", "-__int_as_float(0x7f800000)"});
  contains("full_sum", {"if (t != 0 || begin >= end) return;", "for (long long i0 = 0; i0 < n0; ++i0)"});
  contains("reshaped", {"const long long lin = (i0 * n1 + i1);", "% (6LL)", "% (4LL)"});
  contains("scalar_fill", {"b0[0LL] = (float)v0;"});
}

// A broadcast operand (stride 0) leaves its index out; other strides are baked in.
TEST(CudaSource, ZeroStridesAreLeftOut) {
  std::string src = cudaSource(caseNamed("pointwise_add").kernel);
  EXPECT_NE(src.find("b0[0LL + i0 * (8LL) + i1 * (1LL)]"), std::string::npos) << src;
  EXPECT_NE(src.find("b1[0LL + i1 * (1LL)]"), std::string::npos) << src;
}

// A malformed kernel is refused with its reason, and its source carries that reason as #error.
TEST(CudaSource, MalformedKernelBecomesAnError) {
  LoweredKernel k = caseNamed("pointwise_add").kernel;
  k.body[2].b = 5;  // an operand after its use
  Status ok = checkKernelForCuda(k);
  ASSERT_FALSE(ok.ok());
  EXPECT_NE(ok.error().str().find("operand 5 is not an earlier instruction"), std::string::npos) << ok.error().str();
  EXPECT_EQ(cudaSource(k).rfind("#error", 0), 0u) << cudaSource(k);
  k = caseNamed("symbolic_rows").kernel;
  k.params.pop_back();
  EXPECT_FALSE(checkKernelForCuda(k).ok()) << "loop 1 uses the missing parameter p1";
}

// One thread per outer point of [begin, end); a full reduction or a scalar kernel runs one.
TEST(CudaSource, ThreadCountCoversTheOuterPoints) {
  auto count = [](const std::string& name, std::vector<int64_t> params, int64_t begin, int64_t end) {
    auto n = cudaThreadCount(caseNamed(name).kernel, params, begin, end);
    return n.ok() ? *n : -1;
  };
  EXPECT_EQ(count("pointwise_add", {}, 0, 4), 32);
  EXPECT_EQ(count("symbolic_rows", {4, 5}, 1, 3), 10);
  EXPECT_EQ(count("mean_inner", {4}, 0, 2), 6);
  EXPECT_EQ(count("full_sum", {}, 0, 300), 1);
  EXPECT_EQ(count("scalar_fill", {}, 0, 1), 1);
  EXPECT_EQ(count("pointwise_add", {}, 2, 2), 0);
  EXPECT_FALSE(cudaThreadCount(caseNamed("symbolic_rows").kernel, {4}, 0, 4).ok()) << "p1 has no value";
}

// The reference evaluator by hand: broadcast, a partial range, NaN in max/min, a reshaped read.
TEST(CudaSource, ReferenceEvaluatorFollowsTheSemantics) {
  KernelCase add = caseNamed("pointwise_add");
  ASSERT_TRUE(testing::referenceRun(add.kernel, add.buffers, add.params, add.begin, add.end).ok());
  EXPECT_FLOAT_EQ(add.buffers[2].atLinear(2 * 8 + 3), float(add.buffers[0].atLinear(19) + add.buffers[1].atLinear(3)));

  KernelCase rows = caseNamed("symbolic_rows");
  ASSERT_TRUE(testing::referenceRun(rows.kernel, rows.buffers, rows.params, rows.begin, rows.end).ok());
  EXPECT_EQ(rows.buffers[1].atLinear(4), 0.0) << "row 0 is outside [1, 3)";
  EXPECT_FLOAT_EQ(rows.buffers[1].atLinear(7), float(float(rows.buffers[0].atLinear(7) * 2) + 0.1f));

  KernelCase red = caseNamed("mean_inner");
  ASSERT_TRUE(testing::referenceRun(red.kernel, red.buffers, red.params, red.begin, red.end).ok());
  EXPECT_TRUE(std::isnan(red.buffers[2].atLinear(3)) && std::isnan(red.buffers[3].atLinear(3))) << "x[1, 0, 1] is NaN";
  EXPECT_FLOAT_EQ(red.buffers[2].atLinear(0), float(std::max({red.buffers[0].atLinear(0), red.buffers[0].atLinear(1),
                                                              red.buffers[0].atLinear(2), red.buffers[0].atLinear(3)})));

  KernelCase view = caseNamed("reshaped");
  ASSERT_TRUE(testing::referenceRun(view.kernel, view.buffers, view.params, view.begin, view.end).ok());
  // Loop point (1, 5) is linear 13 = [3, 1] in the [6, 4] view: element 3 * 1 + 1 * 6 after offset 2.
  EXPECT_EQ(view.buffers[1].atLinear(13), -view.buffers[0].at({3, 1}));
}

}  // namespace
}  // namespace fathom
