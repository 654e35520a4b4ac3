// shrink-symbols alone: a symbolic size is rebound to the smallest of 2, 4, 8, ... that still
// fails. The node count stays (the pass changes sizes, not the graph); the input shrinks.
#include "engine/symbolic/ShapeEnv.h"
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// tanh(x) with x f32[s0, 3], s0 traced as 64: s0 becomes 2.
TEST(ShrinkSymbolsPassTest, ASymbolicSizeShrinksToTwo) {
  auto env = sym::ShapeEnv::create();
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {env->createSize(64, "x.size(0)"), 3}));
  b.output({b.call("aten.tanh.default", {x})});
  minify::MinifyOptions options;
  options.shapeEnv = env;
  // Example inputs are concrete: x as traced, f32[64, 3].
  ExampleInput in{"x", fakeTensor(DType::Float32, {64, 3}), 1, {}, {}, {}, {}};
  auto r = testing::expectPassAloneShrinks("shrink-symbols", b, 3, 3, options, {in});
  ASSERT_EQ(r.best.inputs.size(), 1u);
  EXPECT_EQ(r.best.inputs[0].meta.sizes[0].hint(), 2);
  EXPECT_EQ(r.stats.passesThatHelped, std::vector<std::string>{"shrink symbolic sizes"});
}

}  // namespace
}  // namespace fathom
