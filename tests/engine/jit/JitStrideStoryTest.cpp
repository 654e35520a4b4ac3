// Issue 21's stride-bug stories, as tests. The jit trusts the recorded strides as Inductor trusts
// its fake strides, so a wrong stride is a wrong result - and Fathom's tools find where it came from.
//   (a) tests/data/jit-input-stride-lie.fathom.json: input x is recorded contiguous but passed
//       transposed (pytorch #172693). The input check stops the run naming x; unchecked, the
//       result is wrong; the debug interpreter names %x as the origin; kernel by kernel, the
//       kernel reading x diverges. (The minifier's part runs in tests/app/jit_test.sh.)
//   (b) aten.t's meta made to claim contiguous strides while a graph is built (MetaOverride): the
//       fused kernel after t reads the wrong elements, and kernel-by-kernel debugging names that
//       kernel and its nodes, while the debug interpreter names %t.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/dump/Dump.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/jit/KernelCheck.h"
#include "engine/ops/OpOverride.h"
#include "tests/TestDataDir.h"
#include "tests/engine/jit/JitTestSupport.h"

namespace fathom {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<std::string> origins(const Graph& g, const ValueList& inputs) {
  DebugInterpreter d(g);
  EXPECT_TRUE(d.run(inputs).ok());
  std::vector<std::string> out;
  for (const auto& m : d.mismatches())
    if (m.origin) out.push_back(m.node);
  return out;
}

bool sameValues(const Value& a, const Value& b) { return diffValues(a, b, 1e-4, 1e-5).ok; }

TEST(JitStrideStory, InputRecordedContiguousPassedTransposed) {
  FATHOM_SKIP_WITHOUT_JIT();
  auto dump = loadDump((std::filesystem::path(FATHOM_TEST_DATA_DIR) / "tests/data/jit-input-stride-lie.fathom.json").string(), {});
  ASSERT_TRUE(dump.ok()) << dump.error().str();
  const Graph& g = dump->graphs.at(0).graph;
  auto inputs = materializeInputs(*dump->inputsFor("forward"));
  ASSERT_TRUE(inputs.ok());
  ASSERT_EQ((*inputs)[0].as<Tensor>().strides(), (IntList{1, 8}));

  auto checked = CompiledGraph::compile(g, {});
  ASSERT_TRUE(checked.ok()) << checked.error().str();
  auto stopped = (*checked)->run(*inputs);
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().where, "%x");
  EXPECT_TRUE(contains(stopped.error().message, "recorded sizes [8, 16] strides [16, 1], the tensor has sizes [8, 16] strides [1, 8]"))
      << stopped.error().message;
  EXPECT_TRUE(contains(stopped.error().message, "kernel reduction_1 (%mul")) << stopped.error().message;

  JitOptions unchecked;
  unchecked.checkInputs = false;
  auto wrong = CompiledGraph::compile(g, unchecked);
  ASSERT_TRUE(wrong.ok());
  auto jit = (*wrong)->run(*inputs);
  ASSERT_TRUE(jit.ok()) << jit.error().str();
  auto eager = DebugInterpreter(g).run(*inputs);
  ASSERT_TRUE(eager.ok());
  EXPECT_FALSE(sameValues((*jit)[0], (*eager)[0])) << "the kernels read x with the recorded strides: the sum is wrong";
  EXPECT_TRUE(sameValues((*jit)[1], (*eager)[1])) << "mm runs eagerly, on the real layout";

  EXPECT_EQ(origins(g, *inputs), std::vector<std::string>{"x"});
  auto kernels = checkKernels(g, *inputs);
  ASSERT_TRUE(kernels.ok()) << kernels.error().str();
  ASSERT_NE(kernels->firstDivergence(), nullptr);
  EXPECT_EQ(kernels->firstDivergence()->kernel, "reduction_1");
  EXPECT_EQ(kernels->firstDivergence()->field, "values");
}

TEST(JitStrideStory, TransposeMetaClaimsContiguous) {
  FATHOM_SKIP_WITHOUT_JIT();
  Graph g;
  {
    MetaOverride lie("aten.t.default", [](const ValueList& args, const OpFn& original) {
      ValueList out = original(args);
      TensorMeta& m = out[0].as<TensorMeta>();
      m.strides = contiguousStrides(m.sizes);  // forgets the transpose
      return out;
    });
    GraphBuilder b;
    NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 6}));
    NodeRef w = b.input("w", fakeTensor(DType::Float32, {6, 4}));
    NodeRef t = b.call("aten.t.default", {w});
    NodeRef add = b.call("aten.add.Tensor", {x, t});
    NodeRef relu = b.call("aten.relu.default", {add});
    NodeRef mm = b.call("aten.mm.default", {relu, w});
    b.output({mm});
    auto built = b.finish();
    ASSERT_TRUE(built.ok()) << built.error().str();
    g = std::move(*built);
  }
  auto inputs = materializeInputs(*inputsFromPlaceholders(g, 7));
  ASSERT_TRUE(inputs.ok());
  auto jit = CompiledGraph::compile(g, {});
  ASSERT_TRUE(jit.ok());
  auto got = (*jit)->run(*inputs);
  ASSERT_TRUE(got.ok()) << got.error().str() << " (the inputs match their meta: nothing stops the run)";
  auto eager = DebugInterpreter(g).run(*inputs);
  ASSERT_TRUE(eager.ok());
  EXPECT_FALSE(sameValues((*got)[0], (*eager)[0])) << "the fused add read t's elements with contiguous strides";

  EXPECT_EQ(origins(g, *inputs), std::vector<std::string>{"t"});
  auto kernels = checkKernels(g, *inputs);
  ASSERT_TRUE(kernels.ok()) << kernels.error().str();
  ASSERT_EQ(kernels->divergences.size(), 1u) << "only the kernel reading t diverges; mm runs on eager values";
  const KernelDivergence& d = kernels->divergences.front();
  EXPECT_EQ(d.nodes, (std::vector<std::string>{"add", "relu"}));
  EXPECT_EQ(d.field, "values");
  EXPECT_TRUE(contains(divergenceText(d), "(%add, %relu)")) << divergenceText(d);
}

}  // namespace
}  // namespace fathom
