// Helpers of the jit tests: run a graph on the eager interpreter and through the jit backend on
// the same inputs, and compare every output (dtype, sizes, strides and offset exact; values
// within tolerance).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "engine/interp/DebugInterpreter.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/ValueDiff.h"
#include "engine/jit/CompiledGraph.h"
#include "engine/tensor/Tensor.h"

namespace fathom::testing {

// Points the disk kernel cache at a fresh folder for the test binary (never the user's).
inline void useTestKernelCache() {
  static const std::string dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("fathom-test-kernels-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    ::setenv("FATHOM_KERNEL_CACHE", d.c_str(), 1);
    return d.string();
  }();
  (void)dir;
}

inline bool jitAvailable(std::string* why) { return KernelJit::process().available(why); }

#define FATHOM_SKIP_WITHOUT_JIT()                                         \
  do {                                                                    \
    std::string why_;                                                     \
    if (!::fathom::testing::jitAvailable(&why_)) GTEST_SKIP() << why_;    \
    ::fathom::testing::useTestKernelCache();                              \
  } while (0)

inline void expectSameValue(const Value& got, const Value& want, const std::string& what, double rtol = 1e-5,
                            double atol = 1e-5) {
  SCOPED_TRACE(what);
  const auto* g = got.tryAs<Tensor>();
  const auto* w = want.tryAs<Tensor>();
  if (!w) {
    EXPECT_EQ(got.tryAs<Tensor>(), nullptr);
    return;
  }
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->dtype(), w->dtype());
  EXPECT_EQ(g->sizes(), w->sizes());
  EXPECT_EQ(g->strides(), w->strides());
  EXPECT_EQ(g->storageOffset(), w->storageOffset());
  const ValueDiff d = diffValues(got, want, rtol, atol);
  EXPECT_TRUE(d.ok) << "max |diff| " << d.maxAbsDiff << " at scale " << d.scale;
}

// Runs `graph` both ways on `inputs`; expects equal outputs. Returns the compiled graph.
inline std::unique_ptr<CompiledGraph> expectJitMatchesEager(const Graph& graph, const ValueList& inputs,
                                                            double rtol = 1e-5, double atol = 1e-5) {
  auto eager = DebugInterpreter(graph).run(inputs);
  EXPECT_TRUE(eager.ok()) << eager.error().str();
  auto cg = CompiledGraph::compile(graph, {});
  EXPECT_TRUE(cg.ok()) << cg.error().str();
  if (!eager.ok() || !cg.ok()) return nullptr;
  auto jit = (*cg)->run(inputs);
  EXPECT_TRUE(jit.ok()) << jit.error().str();
  if (!jit.ok()) return nullptr;
  EXPECT_EQ(jit->size(), eager->size());
  for (size_t i = 0; i < jit->size() && i < eager->size(); ++i)
    expectSameValue((*jit)[i], (*eager)[i], "output " + std::to_string(i), rtol, atol);
  return std::move(*cg);
}

}  // namespace fathom::testing
