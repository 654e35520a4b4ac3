// View ops: sizes, strides and storage offset of the result, storage sharing, and PyTorch's
// errors (incompatible view, dims out of range, bad expand/select).
#include <climits>

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;

struct ViewCase {
  const char* op;
  IntList sizes, strides;  // input layout (contiguous when strides is empty)
  ValueList extra;         // arguments after self
  IntList outSizes, outStrides;
  int64_t outOffset;
};

const std::vector<ViewCase>& viewCases() {
  static const std::vector<ViewCase> cases = {
      {"aten.view.default", {2, 3, 4}, {}, {ValueList{6, 4}}, {6, 4}, {4, 1}, 0},
      {"aten.view.default", {2, 3, 4}, {}, {ValueList{-1}}, {24}, {1}, 0},
      {"aten.view.default", {2, 3, 4}, {}, {ValueList{2, -1, 3}}, {2, 4, 3}, {12, 3, 1}, 0},
      // (4,3).t() viewed as (3,2,2): the size-4 dim (stride 3) splits into (2,2) -> strides (6,3).
      {"aten.view.default", {3, 4}, {1, 3}, {ValueList{3, 2, 2}}, {3, 2, 2}, {1, 6, 3}, 0},
      // Size-1 dims may be added anywhere; they take the stride of the chunk they sit in.
      {"aten.view.default", {3, 4}, {}, {ValueList{3, 1, 4}}, {3, 1, 4}, {4, 4, 1}, 0},
      {"aten._unsafe_view.default", {2, 6}, {}, {ValueList{3, 4}}, {3, 4}, {4, 1}, 0},
      {"aten.t.default", {2, 3}, {}, {}, {3, 2}, {1, 3}, 0},
      {"aten.t.default", {5}, {}, {}, {5}, {1}, 0},
      {"aten.transpose.int", {2, 3, 4}, {}, {0, -1}, {4, 3, 2}, {1, 4, 12}, 0},
      {"aten.permute.default", {2, 3, 4}, {}, {ValueList{2, 0, 1}}, {4, 2, 3}, {1, 12, 4}, 0},
      {"aten.expand.default", {3, 1}, {}, {ValueList{2, 3, 4}}, {2, 3, 4}, {0, 1, 0}, 0},
      {"aten.expand.default", {3, 1}, {}, {ValueList{-1, 5}}, {3, 5}, {1, 0}, 0},
      {"aten.unsqueeze.default", {2, 3}, {}, {1}, {2, 1, 3}, {3, 3, 1}, 0},
      {"aten.unsqueeze.default", {2, 3}, {}, {-1}, {2, 3, 1}, {3, 1, 1}, 0},
      {"aten.squeeze.dim", {2, 1, 3}, {}, {1}, {2, 3}, {3, 1}, 0},
      {"aten.squeeze.dim", {2, 1, 3}, {}, {0}, {2, 1, 3}, {3, 3, 1}, 0},  // size 2: unchanged
      {"aten.alias.default", {2, 3}, {1, 2}, {}, {2, 3}, {1, 2}, 0},
      {"aten.detach.default", {2, 3}, {}, {}, {2, 3}, {3, 1}, 0},
      {"aten._reshape_alias.default", {2, 6}, {}, {ValueList{3, 4}, ValueList{4, 1}}, {3, 4}, {4, 1}, 0},
      // x[:, 1:4:2] of a (4,5): offset 1, stride 2 along dim 1, ceil(3/2) = 2 columns.
      {"aten.slice.Tensor", {4, 5}, {}, {1, 1, 4, 2}, {4, 2}, {5, 2}, 1},
      // Negative start, end past the size: x[-2:100].
      {"aten.slice.Tensor", {4, 5}, {}, {0, -2, 100}, {2, 5}, {5, 1}, 10},
      // Empty slice: start past end clamps to length 0.
      {"aten.slice.Tensor", {4, 5}, {}, {1, 4, 2}, {4, 0}, {5, 1}, 4},
      // A start past the end is clamped like any other: x[INT64_MAX:] is empty, at the end.
      {"aten.slice.Tensor", {4, 5}, {}, {0, INT64_MAX}, {0, 5}, {5, 1}, 20},
      {"aten.select.int", {4, 5}, {}, {0, -1}, {5}, {1}, 15},
      {"aten.select.int", {4, 5}, {}, {1, 2}, {4}, {5}, 2},
      // as_strided takes the input's offset unless given one.
      {"aten.as_strided.default", {4, 5}, {}, {ValueList{2, 2}, ValueList{1, 5}}, {2, 2}, {1, 5}, 0},
      {"aten.as_strided.default", {4, 5}, {}, {ValueList{3}, ValueList{6}, 1}, {3}, {6}, 1},
  };
  return cases;
}

// Each row: the view's layout, computed identically by meta and kernel, sharing storage.
TEST(ViewOpsTest, LayoutTable) {
  for (const auto& c : viewCases()) {
    SCOPED_TRACE(std::string(c.op));
    Tensor x = makeTensor(DType::Float32, c.sizes, c.strides);
    ValueList args{x};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    Tensor out = runOp(c.op, args);
    EXPECT_EQ(out.sizes(), c.outSizes);
    EXPECT_EQ(out.strides(), c.outStrides);
    EXPECT_EQ(out.storageOffset(), c.outOffset);
    EXPECT_TRUE(out.sharesStorageWith(x));
  }
}

// Views see the same elements: select picks row 2, slices of slices compose their offsets.
TEST(ViewOpsTest, ViewsReadTheSameElements) {
  Tensor x = makeTensor(DType::Float32, {4, 5});
  Tensor row = runOp("aten.select.int", {x, 0, 2});
  EXPECT_EQ(row.atLinear(3), 13);
  Tensor s = runOp("aten.slice.Tensor", {x, 1, 1, 5, 2});
  Tensor ss = runOp("aten.slice.Tensor", {s, 0, 1});
  EXPECT_EQ(ss.storageOffset(), 6);
  EXPECT_EQ(ss.at({0, 1}), 8);
}

// view() refuses a shape that would need a copy, with PyTorch's message; bad dims and sizes too.
TEST(ViewOpsTest, ErrorsAreReportedNotThrown) {
  Tensor xt = makeTensor(DType::Float32, {3, 4}, {1, 3});
  expectOpError("aten.view.default", {xt, ValueList{12}},
                "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                "across two contiguous subspaces). Use .reshape(...) instead.");
  Tensor x = makeTensor(DType::Float32, {3, 4});
  expectOpError("aten.view.default", {x, ValueList{5, -1}}, "shape '[5, -1]' is invalid for input of size 12");
  expectOpError("aten.view.default", {x, ValueList{-1, -1}}, "only one dimension can be inferred");
  expectOpError("aten.transpose.int", {x, 0, 2}, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  expectOpError("aten.t.default", {makeTensor(DType::Float32, {2, 2, 2})},
                "t() expects a tensor with <= 2 dimensions, but self is 3D");
  expectOpError("aten.expand.default", {x, ValueList{3, 5}},
                "The expanded size of the tensor (5) must match the existing size (4) at non-singleton dimension 1.  "
                "Target sizes: [3, 5].  Tensor sizes: [3, 4]");
  expectOpError("aten.select.int", {x, 1, 4}, "select(): index 4 out of range for tensor of size [3, 4] at dimension 1");
  expectOpError("aten.permute.default", {x, ValueList{0, 0}}, "permute(): duplicate dims are not allowed.");
  expectOpError("aten.permute.default", {x, ValueList{0}},
                "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                "desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1");
  expectOpError("aten.slice.Tensor", {x, 0, 0, 2, 0}, "slice step must be positive");
  expectOpError("aten.as_strided.default", {x, ValueList{2, 2}, ValueList{-1, 1}},
                "as_strided: Negative strides are not supported at the moment, got strides: [-1, 1]");
  expectOpError("aten._reshape_alias.default", {x, ValueList{12}, ValueList{1, 1}},
                "dimensionality of sizes (1) must match dimensionality of strides (2)");
}

// as_strided past the end of the storage: the meta function cannot know (it has no storage), the
// kernel refuses with PyTorch's setStorage message.
TEST(ViewOpsTest, AsStridedOutOfBoundsIsAKernelError) {
  Tensor x = makeTensor(DType::Float32, {3, 4});
  testing::OpOutcome r = testing::runBoth("aten.as_strided.default", {x, ValueList{5, 5}, ValueList{4, 1}});
  EXPECT_TRUE(r.meta.ok());
  ASSERT_FALSE(r.kernel.ok());
  EXPECT_EQ(r.kernel.error().message,
            "setStorage: sizes [5, 5], strides [4, 1], storage offset 0, and itemsize 4 requiring a storage size of 84 "
            "are out of bounds for storage of size 48");
}

}  // namespace
}  // namespace fathom
