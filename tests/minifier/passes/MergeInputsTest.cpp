// merge-inputs alone: an input with the same dtype, sizes and strides as an earlier one reads
// that one instead, and goes.
#include "tests/minifier/passes/PassTestSupport.h"

namespace fathom {
namespace {

// add(tanh(x), y) with x and y both f32[4, 3]: y reads x, and its placeholder goes.
TEST(MergeInputsPassTest, AnInputLikeAnEarlierOneIsMergedIntoIt) {
  GraphBuilder b;
  NodeRef x = testing::inputX(b);
  NodeRef y = b.input("y", fakeTensor(DType::Float32, {4, 3}));
  b.output({b.call("aten.add.Tensor", {b.call("aten.tanh.default", {x}), y})});
  auto r = testing::expectPassAloneShrinks("merge-inputs", b, 5, 4);
  EXPECT_EQ(r.best.graph.placeholders().size(), 1u);
}

}  // namespace
}  // namespace fathom
