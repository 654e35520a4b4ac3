// gather, index_select, embedding, embedding_dense_backward: values against element-by-element
// references on large and strided inputs (the memcpy and threaded paths the small fixtures do
// not reach), ATen's path-dependent messages, and the cases where PyTorch's kernel would read or
// write out of bounds, which Fathom handles safely.
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

// An error that depends on index values: only the kernel sees it (the meta function runs).
void expectKernelError(const std::string& name, const ValueList& args, const std::string& message) {
  testing::OpOutcome r = testing::runBoth(name, args);
  EXPECT_TRUE(r.meta.ok()) << name;
  ASSERT_FALSE(r.kernel.ok()) << name << ": kernel should fail";
  EXPECT_EQ(r.kernel.error().code, ErrorCode::InvalidInput);
  EXPECT_EQ(r.kernel.error().message, message);
}

// embedding of a BERT-sized batch (rows copied with memcpy, over threads) equals the rows.
TEST(IndexingOpsTest, EmbeddingCopiesWholeRows) {
  const int64_t vocab = 300, width = 96;
  Tensor weight = makeTensor(DType::Float32, {vocab, width});
  std::vector<double> ids;
  for (int64_t i = 0; i < 8 * 128; ++i) ids.push_back(static_cast<double>((i * 37) % vocab));
  Tensor indices = makeTensor(DType::Int64, {8, 128}, {}, ids);
  Tensor out = runOp("aten.embedding.default", {weight, indices});
  ASSERT_EQ(out.sizes(), (IntList{8, 128, width}));
  for (int64_t i = 0; i < 8 * 128; i += 97)
    for (int64_t j = 0; j < width; j += 13) EXPECT_EQ(out.atLinear(i * width + j), ids[i] * width + j);
}

// index_select along a middle dim of a permuted (non-contiguous) input, int32 indices.
TEST(IndexingOpsTest, IndexSelectStridedSelf) {
  Tensor base = makeTensor(DType::Float64, {4, 3, 2});
  Tensor self = runOp("aten.permute.default", {base, ValueList{2, 0, 1}});  // [2, 4, 3]
  Tensor index = makeTensor(DType::Int32, {3}, {}, {3, 0, 3});
  Tensor out = runOp("aten.index_select.default", {self, 1, index});
  ASSERT_EQ(out.sizes(), (IntList{2, 3, 3}));
  EXPECT_EQ(out.strides(), (IntList{9, 3, 1}));
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t k = 0; k < 3; ++k)
      for (int64_t c = 0; c < 3; ++c)
        EXPECT_EQ(out.at({a, k, c}), self.at({a, static_cast<int64_t>(index.at({k})), c}));
}

// gather reads self[i][index[i][j]] along dim 1, from a transposed self and index.
TEST(IndexingOpsTest, GatherTransposedOperands) {
  Tensor self = makeTensor(DType::Float32, {3, 4}, {1, 3});
  Tensor index = makeTensor(DType::Int64, {3, 2}, {1, 3}, {3, 0, 1, 1, 2, 3});
  Tensor out = runOp("aten.gather.default", {self, 1, index});
  EXPECT_EQ(out.strides(), (IntList{2, 1}));
  std::vector<double> expected;
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j) expected.push_back(self.at({i, static_cast<int64_t>(index.at({i, j}))}));
  EXPECT_EQ(valuesOf(out), expected);
}

// PyTorch writes past a 0-dim result when index_select gets several indices; Fathom returns
// self, which is what PyTorch's result holds.
TEST(IndexingOpsTest, IndexSelectZeroDimSelfWithRepeatedIndex) {
  Tensor self = makeTensor(DType::Float32, {}, {}, {5});
  Tensor out = runOp("aten.index_select.default", {self, 0, makeTensor(DType::Int64, {3}, {}, {0, 0, 0})});
  EXPECT_EQ(out.dim(), 0);
  EXPECT_EQ(valuesOf(out), (std::vector<double>{5}));
  expectKernelError("aten.index_select.default", {self, 0, makeTensor(DType::Int64, {2}, {}, {0, 1})},
                "index out of range in self");
}

// scale_grad_by_freq divides by the index's count, padding rows stay zero, indices outside
// [0, num_weights) are skipped (ATen's kernel never visits them), and integer grads scale by
// the count's reciprocal truncated to an integer, as ATen's add with alpha does.
TEST(IndexingOpsTest, EmbeddingBackwardScalesAndSkips) {
  Tensor grad = makeTensor(DType::Float32, {5, 2}, {}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  Tensor indices = makeTensor(DType::Int64, {5}, {}, {1, 3, 1, 9, 2});
  Tensor out = runOp("aten.embedding_dense_backward.default", {grad, indices, 4, 2, true});
  EXPECT_EQ(valuesOf(out), (std::vector<double>{0, 0, 3, 4, 0, 0, 3, 4}));
  Tensor ints = makeTensor(DType::Int64, {5, 2}, {}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  EXPECT_EQ(valuesOf(runOp("aten.embedding_dense_backward.default", {ints, indices, 4, -1, true})),
            (std::vector<double>{0, 0, 0, 0, 9, 10, 3, 4}));
}

TEST(IndexingOpsTest, ErrorsNameTheProblem) {
  Tensor m = makeTensor(DType::Float32, {4, 6});
  const auto ids = [](std::vector<double> v) { return makeTensor(DType::Int64, {static_cast<int64_t>(v.size())}, {}, v); };
  // index_select's message depends on the kernel ATen runs.
  expectKernelError("aten.index_select.default", {m, 0, ids({4})}, "index out of range in self");
  expectKernelError("aten.index_select.default", {m, 1, ids({-1})}, "INDICES element is out of DATA bounds, id=-1 axis_dim=6");
  expectKernelError("aten.index_select.default", {makeTensor(DType::Float32, {0, 4}), 0, ids({0})},
                "index_select(): self indexing axis dim should be positive");
  expectOpError("aten.index_select.default", {m, 0, makeTensor(DType::Int64, {1, 1})},
                "index_select(): Index is supposed to be a vector");
  expectKernelError("aten.gather.default", {m, 0, makeTensor(DType::Int64, {1, 1}, {}, {4})},
                "index 4 is out of bounds for dimension 0 with size 4");
  expectOpError("aten.gather.default", {m, 1, makeTensor(DType::Int64, {5, 1})},
                "Size does not match at dimension 0 expected index [5, 1] to be smaller than self [4, 6] apart from dimension 1");
  expectOpError("aten.gather.default", {m, 1, makeTensor(DType::Int32, {1, 1})}, "gather(): Expected dtype int64 for index");
  expectOpError("aten.embedding.default", {m, makeTensor(DType::Float32, {2})},
                "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
                "torch.FloatTensor instead (while checking arguments for embedding)");
  expectKernelError("aten.embedding.default", {m, ids({4})}, "index out of range in self");
  expectOpError("aten.embedding_dense_backward.default", {m, ids({1, 2}), 10, -1, false},
                "shape '[2, 6]' is invalid for input of size 24");
}

}  // namespace
}  // namespace fathom
