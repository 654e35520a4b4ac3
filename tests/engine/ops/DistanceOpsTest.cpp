// cdist and pdist where the PyTorch oracle cannot speak: the backward ops' arguments that 1.13
// reads out of bounds are refused, _pdist_backward of no rows gives its empty result (1.13
// crashes), and a batch of pdist inputs is refused (1.13 reads it as one matrix).
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;

Tensor floats(const IntList& sizes) { return makeTensor(DType::Float32, sizes); }

TEST(DistanceOpsTest, BackwardChecksSizes) {
  const Tensor x1 = floats({4, 3}), x2 = floats({5, 3});
  expectOpError("aten._cdist_backward.default", {floats({4, 2}), x1, x2, 2.0, floats({4, 5})},
                "_cdist_backward: grad must have the result's shape [4, 5]");
  expectOpError("aten._cdist_backward.default", {floats({4, 5}), x1, floats({5, 2}), 2.0, floats({4, 5})},
                "_cdist_backward: X1 and X2 must have the same number of columns");
  expectOpError("aten._pdist_backward.default", {floats({3}), x1, 2.0, floats({6})}, "_pdist_backward: grad must be [6]");
  expectOpError("aten._pdist_backward.default", {floats({1, 6}), x1, 2.0, floats({6})}, "_pdist_backward: grad must be [6]");
}

TEST(DistanceOpsTest, PdistEdges) {
  const Tensor none = runOp("aten._pdist_backward.default", {floats({0}), floats({0, 3}), 2.0, floats({0})});
  EXPECT_EQ(none.sizes(), (IntList{0, 3}));
  expectOpError("aten._pdist_forward.default", {floats({2, 3, 4}), 2.0}, "pdist only supports 2D tensors, got: 3D");
  EXPECT_EQ(runOp("aten._pdist_forward.default", {floats({1, 3, 4}), 2.0}).sizes(), (IntList{0}));
}

}  // namespace
}  // namespace fathom
