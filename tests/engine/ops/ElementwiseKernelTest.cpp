// The elementwise driver's fast paths: contiguous runs, stride-0 operands read through a
// buffer, and threads splitting big tensors must all give the plain strided loop's values.
#include <gtest/gtest.h>

#include "engine/core/Parallel.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

std::vector<double> ramp(int64_t n, double scale) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>((i * 37) % 101) * scale - 3;
  return v;
}

// Runs `fn` once on one thread and once on the default pool; the results must be identical.
template <class Fn>
void expectSameOnOneThread(Fn fn) {
  const int threads = numThreads();
  setNumThreads(1);
  const std::vector<double> serial = valuesOf(fn());
  setNumThreads(std::max(threads, 4));
  const std::vector<double> parallel = valuesOf(fn());
  setNumThreads(threads);
  EXPECT_EQ(serial, parallel);
}

// A big transposed input plus a broadcast row crosses many thread ranges that start mid-run.
TEST(ElementwiseKernelTest, ParallelStridedAddMatchesSerial) {
  Tensor a = makeTensor(DType::Float32, {300, 700}, {1, 300}, ramp(300 * 700, 0.25));
  Tensor b = makeTensor(DType::Float32, {700}, {}, ramp(700, 0.5));
  expectSameOnOneThread([&] { return runOp("aten.add.Tensor", {a, b}); });
  Tensor out = runOp("aten.add.Tensor", {a, b});
  EXPECT_EQ(out.at({123, 456}), a.at({123, 456}) + b.at({456}));
}

// Contiguous operands take the blocked loop; a Python number is a stride-0 operand read
// through the broadcast buffer; both split over threads.
TEST(ElementwiseKernelTest, ContiguousAndScalarPathsAreExact) {
  const int64_t n = 100003;  // not a multiple of the block sizes
  Tensor a = makeTensor(DType::Float32, {n}, {}, ramp(n, 0.125));
  Tensor b = makeTensor(DType::Float32, {n}, {}, ramp(n, 0.5));
  Tensor sum = runOp("aten.add.Tensor", {a, b});
  Tensor shifted = runOp("aten.sub.Scalar", {a, 2.0});
  Tensor below = runOp("aten.lt.Scalar", {a, 0.5});
  for (int64_t i : {int64_t{0}, int64_t{7}, int64_t{8}, int64_t{255}, int64_t{256}, n - 1}) {
    EXPECT_EQ(sum.atLinear(i), a.atLinear(i) + b.atLinear(i)) << i;
    EXPECT_EQ(shifted.atLinear(i), a.atLinear(i) - 2.0) << i;
    EXPECT_EQ(below.atLinear(i), a.atLinear(i) < 0.5 ? 1.0 : 0.0) << i;
  }
  expectSameOnOneThread([&] { return runOp("aten.gelu.default", {a}); });
}

// x * r with r of shape (rows, 1): the inner run reads r with stride 0 (the layer-norm pattern).
TEST(ElementwiseKernelTest, RowBroadcastOperand) {
  Tensor x = makeTensor(DType::Float32, {64, 300}, {}, ramp(64 * 300, 0.25));
  Tensor r = makeTensor(DType::Float32, {64, 1}, {}, ramp(64, 0.5));
  Tensor out = runOp("aten.mul.Tensor", {x, r});
  for (int64_t i = 0; i < 64; i += 9)
    for (int64_t j = 0; j < 300; j += 37) EXPECT_EQ(out.at({i, j}), x.at({i, j}) * r.at({i, 0}));
}

// where reads its condition as bool and its values as the common dtype (three operands).
TEST(ElementwiseKernelTest, WhereMixesOperandDtypes) {
  Tensor c = makeTensor(DType::Bool, {4}, {}, {1, 0, 1, 0});
  Tensor a = makeTensor(DType::Int32, {4}, {}, {1, 2, 3, 4});
  Tensor b = makeTensor(DType::Float64, {}, {}, {0.5});
  Tensor out = runOp("aten.where.self", {c, a, b});
  EXPECT_EQ(out.dtype(), DType::Float64);
  EXPECT_EQ(valuesOf(out), (std::vector<double>{1, 0.5, 3, 0.5}));
}

}  // namespace
}  // namespace fathom
