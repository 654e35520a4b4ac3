// shrink-constants alone: a floating scalar argument becomes 0 (else 1) when that still fails.
// The node count stays (the pass changes values, not the graph); the constant becomes 0.
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// tanh(mul(x, 2.5)): 2.5 becomes 0.
TEST(ShrinkConstantsPassTest, AScalarArgumentBecomesZero) {
  GraphBuilder b;
  b.output({b.call("aten.tanh.default", {b.call("aten.mul.Scalar", {testing::inputX(b), Value(2.5)})})});
  auto r = testing::expectPassAloneShrinks("shrink-constants", b, 4, 4);
  const auto mul = r.best.graph.find("mul");
  ASSERT_TRUE(mul);
  EXPECT_EQ(r.best.graph.node(*mul).args[1].as<double>(), 0.0);
}

}  // namespace
}  // namespace fathom
