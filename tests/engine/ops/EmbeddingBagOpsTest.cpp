// _embedding_bag and its backward ops where the PyTorch oracle cannot speak: inputs 1.13 reads or
// writes out of bounds, or crashes on, must be refused with a message (never a crash), and
// strided indices are read by their strides (1.13 reads their memory as if contiguous).
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runBoth;
using testing::valuesOf;

Tensor weight() { return makeTensor(DType::Float32, {5, 2}); }  // row k is (2k, 2k + 1)
Tensor ints(const std::vector<double>& v) { return makeTensor(DType::Int64, {static_cast<int64_t>(v.size())}, {}, v); }

ValueList bagArgs(const Tensor& w, const Tensor& indices, const Tensor& offsets, int64_t mode, bool includeLast = false) {
  return {w, indices, offsets, false, mode, false, None{}, includeLast, int64_t{-1}};
}

// A kernel-only refusal (the values decide): the kernel fails as bad input with `message`.
void expectKernelError(const std::string& op, const ValueList& args, const std::string& message) {
  testing::OpOutcome r = runBoth(op, args);
  ASSERT_FALSE(r.kernel.ok()) << op << " should fail";
  EXPECT_EQ(r.kernel.error().code, ErrorCode::InvalidInput);
  EXPECT_NE(r.kernel.error().message.find(message), std::string::npos) << r.kernel.error().message;
}

TEST(EmbeddingBagOpsTest, RefusesWhat113CrashesOn) {
  const Tensor indices = ints({0, 2, 4, 1}), offsets = ints({0, 2});
  // 1.13 segfaults on modes other than 0-2.
  expectOpError("aten._embedding_bag.default", bagArgs(weight(), indices, offsets, 3), "embedding_bag: mode must be");
  // Decreasing offsets, a last offset short of N with include_last_offset, indices without
  // offsets: 1.13 writes outside its outputs.
  expectKernelError("aten._embedding_bag.default", bagArgs(weight(), indices, ints({0, 3, 2}), 2),
                    "offsets must not decrease");
  expectKernelError("aten._embedding_bag.default", bagArgs(weight(), indices, ints({0, 2, 3}), 1, true),
                    "offsets[-1] must be the number of indices 4");
  expectKernelError("aten._embedding_bag.default", bagArgs(weight(), indices, ints({}), 1), "no offsets");
  // 2-d indices are EmbeddingBag's to flatten.
  expectOpError("aten._embedding_bag.default",
                bagArgs(weight(), makeTensor(DType::Int64, {2, 2}, {}, {0, 2, 4, 1}), offsets, 0),
                "embedding_bag: indices must be 1-D");
}

TEST(EmbeddingBagOpsTest, StridedIndicesAreReadByTheirStrides) {
  // indices 0, 4, 1 at stride 2 (1.13 would read 0, 9, 4).
  const Tensor indices = makeTensor(DType::Int64, {3}, {2}, {0, 4, 1});
  testing::OpOutcome r = runBoth("aten._embedding_bag.default", bagArgs(weight(), indices, ints({0, 1}), 0));
  ASSERT_TRUE(r.kernel.ok()) << r.kernel.error().str();
  EXPECT_EQ(valuesOf((*r.kernel)[0].as<Tensor>()), (std::vector<double>{0, 1, 10, 12}));
}

TEST(EmbeddingBagOpsTest, BackwardRefusesWhat113CrashesOn) {
  const Tensor grad = makeTensor(DType::Float32, {2, 2}), indices = ints({0, 2, 4, 1}), offsets = ints({0, 2});
  const Tensor offset2bag = ints({0, 0, 1, 1}), bagSize = ints({2, 2});
  // num_weights smaller than an index: 1.13 writes past its result.
  expectKernelError("aten._embedding_bag_dense_backward.default",
                    {grad, indices, offset2bag, bagSize, bagSize, int64_t{3}, false, int64_t{1}, None{}, int64_t{-1}},
                    "index 4 is out of range [0, 3)");
  // sparse=True asks for a sparse gradient.
  expectOpError("aten._embedding_bag_backward.default",
                {grad, indices, offsets, offset2bag, bagSize, bagSize, int64_t{5}, false, int64_t{0}, true, None{},
                 int64_t{-1}},
                "embedding_bag backward: sparse=True");
}

}  // namespace
}  // namespace fathom
