// nodes-to-inputs alone: computed nodes become inputs (with their real values), their upstream
// drops out.
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// tanh(neg(abs(x))): neg becomes the input, abs and x go (neg as an input, tanh, output stay).
TEST(NodesToInputsPassTest, CutsTheNodesBeforeTheCulpritIntoAnInput) {
  GraphBuilder b;
  b.output({b.call("aten.tanh.default", {b.call("aten.neg.default", {b.call("aten.abs.default", {testing::inputX(b)})})})});
  auto r = testing::expectPassAloneShrinks("nodes-to-inputs", b, 5, 3);
  ASSERT_EQ(r.best.inputs.size(), 1u);
  EXPECT_EQ(r.best.inputs[0].name, "neg");
}

}  // namespace
}  // namespace fathom
