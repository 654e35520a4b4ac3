// The CUDA path on real kernels: every pointwise and reduction kernel the jit generates for the
// sample dumps and models (static and symbolic) is also emitted as CUDA C and compiled to PTX by
// NVRTC, where libnvrtc is found (no GPU needed); with a GPU, each also runs there on the eager
// interpreter's values of its inputs and matches the eager values of its outputs (as the
// kernel-by-kernel check does on the CPU). Otherwise skipped saying why.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "engine/compile/CudaDriver.h"
#include "engine/compile/CudaSource.h"
#include "engine/compile/KernelLowering.h"
#include "engine/compile/Nvrtc.h"
#include "engine/dump/Dump.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "engine/interp/ValueDiff.h"
#include "engine/jit/KernelLaunch.h"
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

// Runs every generated kernel of `graph` on the GPU on the eager values of its inputs; returns
// how many ran. Failures are test failures naming the kernel.
int runKernelsOnGpu(const Graph& graph, const ValueList& inputs) {
  Interpreter interp(graph, InterpreterOptions{.keepIntermediates = true});
  EXPECT_TRUE(interp.start(inputs).ok());
  while (!interp.done()) {
    auto s = interp.step();
    if (!s.ok()) {
      ADD_FAILURE() << s.error().str();
      return 0;
    }
  }
  SymbolBinding binding;
  const auto placeholders = graph.placeholders();
  for (size_t i = 0; i < placeholders.size() && i < inputs.size(); ++i) binding.bindFrom(graph.node(placeholders[i]).val, inputs[i]);
  std::vector<Value> values;
  for (size_t i = 0; i < graph.size(); ++i) values.push_back(interp.value(NodeRef{static_cast<int32_t>(i)}));
  const ValueByName valueOf = [&](const std::string& name) -> const Value* {
    auto ref = graph.find(name);
    return ref ? &values[static_cast<size_t>(ref->index)] : nullptr;
  };
  auto plan = planFusion(graph);
  EXPECT_TRUE(plan.ok());
  int ran = 0;
  for (const FusedKernel& fk : plan->kernels) {
    auto k = lowerKernel(graph, fk);
    if (!k.ok() || !k->phases.empty()) continue;
    SCOPED_TRACE(k->text());
    auto gpu = CudaKernel::compile(*k);
    EXPECT_TRUE(gpu.ok()) << gpu.error().str();
    auto args = kernelArgs(*k, graph, binding, valueOf);
    EXPECT_TRUE(args.ok()) << args.error().str();
    if (!gpu.ok() || !args.ok()) continue;
    Status run = gpu->run(args->buffers, args->params, 0, args->outer);
    EXPECT_TRUE(run.ok()) << run.error().str();
    for (const auto& [name, got] : args->outputs) {
      const ValueDiff d = diffValues(Value(got), *valueOf(name), 1e-4, 1e-5);
      EXPECT_TRUE(d.ok) << k->name << ": %" << name << " max |diff| " << d.maxAbsDiff << " at scale " << d.scale;
    }
    ++ran;
  }
  return ran;
}

TEST(JitCuda, EverySampleKernelMatchesEagerOnTheGpu) {
  std::string why;
  if (!cudaDeviceAvailable(&why)) GTEST_SKIP() << why;
  if (!nvrtcAvailable(&why)) GTEST_SKIP() << why;
  int ran = 0;
  for (const char* name : {"samples/bert.fathom.json", "samples/mlp.fathom.json", "tests/data/mlp-dynamic.fathom.json",
                           "tests/data/torch2-dynamic.fathom.json"}) {
    SCOPED_TRACE(name);
    auto dump = loadDump((fs::path(FATHOM_TEST_DATA_DIR) / name).string(), {});
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    for (const NamedGraph& g : dump->graphs) {
      auto chosen = chooseInputs(&g.graph, g.name, dump->inputsFor(g.name), nullptr);
      ASSERT_TRUE(chosen.ok()) << chosen.error().str();
      auto inputs = materializeInputs(*chosen);
      ASSERT_TRUE(inputs.ok()) << inputs.error().str();
      ran += runKernelsOnGpu(g.graph, *inputs);
    }
  }
  EXPECT_GE(ran, 10);
  std::printf("%d sample kernels ran on %s and matched eager\n", ran, cudaDeviceDescription().c_str());
}

}  // namespace
}  // namespace fathom
