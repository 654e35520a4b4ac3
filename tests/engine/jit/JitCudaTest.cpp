// The CUDA path on real kernels: every pointwise and reduction kernel the jit generates for the
// sample dumps and models (static and symbolic) is also emitted as CUDA C and compiled to PTX by
// NVRTC, where libnvrtc is found (no GPU needed); otherwise skipped saying why.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "engine/compile/CudaSource.h"
#include "engine/compile/KernelLowering.h"
#include "engine/compile/Nvrtc.h"
#include "engine/dump/Dump.h"
#include "samples/models/Models.h"
#include "tests/TestDataDir.h"

namespace fathom {
namespace {

namespace fs = std::filesystem;

void collect(const Dump& dump, std::vector<LoweredKernel>* out, std::set<std::string>* seen) {
  for (const NamedGraph& g : dump.graphs) {
    auto plan = planFusion(g.graph);
    ASSERT_TRUE(plan.ok()) << plan.error().str();
    for (const FusedKernel& k : plan->kernels) {
      auto lowered = lowerKernel(g.graph, k);
      // Row-local kernels (phases) are not emitted as CUDA C yet (CudaSource refuses them).
      if (lowered.ok() && lowered->phases.empty() && seen->insert(lowered->signature()).second) out->push_back(std::move(*lowered));
    }
  }
}

TEST(JitCuda, EverySampleKernelCompilesToPtx) {
  std::string why;
  if (!nvrtcAvailable(&why)) GTEST_SKIP() << why;
  std::vector<LoweredKernel> kernels;
  std::set<std::string> seen;
  for (const char* name : {"samples/bert.fathom.json", "samples/mlp.fathom.json", "tests/data/mlp-dynamic.fathom.json",
                           "tests/data/torch2-dynamic.fathom.json", "tests/data/jit-input-stride-lie.fathom.json"}) {
    auto dump = loadDump((fs::path(FATHOM_TEST_DATA_DIR) / name).string(), {});
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    collect(*dump, &kernels, &seen);
  }
  for (const char* model : {"gpt2", "resnet18"}) {
    auto dump = models::traceModel(model);
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    collect(*dump, &kernels, &seen);
  }
  ASSERT_GE(kernels.size(), 15u);
  for (const LoweredKernel& k : kernels) {
    SCOPED_TRACE(k.text());
    auto ptx = compileToPtx(cudaSource(k), cudaKernelName(k), "compute_75");
    ASSERT_TRUE(ptx.ok()) << ptx.error().str();
    EXPECT_NE(ptx->find(".entry " + cudaKernelName(k) + "("), std::string::npos);
  }
  std::printf("%zu distinct sample kernels compiled to PTX\n", kernels.size());
}

}  // namespace
}  // namespace fathom
