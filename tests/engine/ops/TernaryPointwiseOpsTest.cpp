// addcmul and addcdiv (engine/ops/families/TernaryPointwiseOps.cpp): broadcasting over all three
// tensors, output strides from TensorIterator's dimension order, promotion (value takes no
// part), rounding of 16-bit floats, the torch 2.x float16 kernel, and errors. Every number is
// PyTorch 1.13's (torch.ops.aten.addcmul.default / addcdiv.default on CPU, /usr/bin/python3), the
// same in 2.14 except where a test says so.
#include <cmath>

#include "engine/ops/AtenVersion.h"

#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

// (k / 8 for k = 0..11) laid out as (4,3).t(): logical [[0, .375, .75, 1.125], [.125, ...], ...].
std::vector<double> transposedEighths() {
  return {0.0, 0.375, 0.75, 1.125, 0.125, 0.5, 0.875, 1.25, 0.25, 0.625, 1.0, 1.375};
}

struct AddcmulCase {
  const char* what;
  Tensor self, t1, t2;
  double value;
  IntList outSizes, outStrides;
  std::vector<double> values;
};

// Each row: addcmul's layout and values; the output follows the operands' dimension order.
TEST(TernaryPointwiseOpsTest, AddcmulLayoutsAndValues) {
  const Tensor eighths = makeTensor(DType::Float32, {3, 4}, {}, {0, .125, .25, .375, .5, .625, .75, .875, 1, 1.125, 1.25, 1.375});
  const Tensor column = makeTensor(DType::Float32, {3, 1}, {}, {0, 0.25, 0.5});
  const Tensor row = makeTensor(DType::Float32, {1, 4}, {}, {-1.5, -0.5, 0.5, 1.5});
  const Tensor transposed = makeTensor(DType::Float32, {3, 4}, {1, 3}, transposedEighths());
  const Tensor onesT = makeTensor(DType::Float32, {3, 4}, {1, 3}, std::vector<double>(12, 1.0));
  // (arange(24).reshape(4,3,2) / 8).permute(2,1,0): sizes (2,3,4), strides (1,2,6).
  std::vector<double> permutedValues;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) permutedValues.push_back((k * 6 + j * 2 + i) / 8.0);
  const Tensor permuted = makeTensor(DType::Float32, {2, 3, 4}, {1, 2, 6}, permutedValues);
  std::vector<double> tripled;
  for (double v : permutedValues) tripled.push_back(3 * v);
  std::vector<double> squared;
  for (double v : permutedValues) squared.push_back(v * v);
  const Tensor channelsLast = makeTensor(DType::Float32, {1, 4, 2, 2}, {16, 1, 8, 4},
                                         {0, .25, .5, .75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 3.75});
  const AddcmulCase cases[] = {
      // addcmul(s (3,1), t1 (1,4), t2 (3,4), value=0.5)
      {"three-way broadcast", column, row, eighths, 0.5, {3, 4}, {4, 1},
       {0.0, -0.03125, 0.0625, 0.28125, -0.125, 0.09375, 0.4375, 0.90625, -0.25, 0.21875, 0.8125, 1.53125}},
      // addcmul(ones(3,4), t1 (1,4), t2 transposed, value=2): self decides, contiguous
      {"one transposed operand", makeTensor(DType::Float32, {3, 4}, {}, std::vector<double>(12, 1.0)), row, transposed,
       2.0, {3, 4}, {4, 1}, {1.0, 0.625, 1.75, 4.375, 0.625, 0.5, 1.875, 4.75, 0.25, 0.375, 2.0, 5.125}},
      // addcmul(ones(4,3).t(), t, t, value=-1): every operand transposed, so is the output
      {"all transposed", onesT, transposed, transposed, -1.0, {3, 4}, {1, 3},
       {1.0, 0.859375, 0.4375, -0.265625, 0.984375, 0.75, 0.234375, -0.5625, 0.9375, 0.609375, 0.0, -0.890625}},
      // addcmul(x, x, tensor(2.0)): a permuted self and a zero-dim operand keep the permutation
      {"permuted with a zero-dim", permuted, permuted, makeTensor(DType::Float32, {}, {}, {2.0}), 1.0, {2, 3, 4},
       {1, 2, 6}, tripled},
      // addcmul(zeros(2,3,4), x, x): the contiguous self wins over two permuted operands
      {"contiguous self first", makeTensor(DType::Float32, {2, 3, 4}, {}, std::vector<double>(24, 0.0)), permuted,
       permuted, 1.0, {2, 3, 4}, {12, 4, 1}, squared},
      // addcmul(cl, ones(4,1,1), cl, value=0.5): channels_last stays
      {"channels last", channelsLast, makeTensor(DType::Float32, {4, 1, 1}, {}, {1, 1, 1, 1}), channelsLast, 0.5,
       {1, 4, 2, 2}, {16, 1, 8, 4},
       {0.0, 0.375, 0.75, 1.125, 1.5, 1.875, 2.25, 2.625, 3.0, 3.375, 3.75, 4.125, 4.5, 4.875, 5.25, 5.625}},
      // addcmul(ones(0,3), ones(3), ones(1,3))
      {"empty", makeTensor(DType::Float32, {0, 3}), makeTensor(DType::Float32, {3}), makeTensor(DType::Float32, {1, 3}),
       1.0, {0, 3}, {3, 1}, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    Tensor out = runOp("aten.addcmul.default", {c.self, c.t1, c.t2}, {{"value", c.value}});
    EXPECT_EQ(out.sizes(), c.outSizes);
    EXPECT_EQ(out.strides(), c.outStrides);
    EXPECT_EQ(out.dtype(), DType::Float32);
    EXPECT_EQ(valuesOf(out), c.values);
  }
}

// The common dtype of the three tensors; value is converted to it (0.5 is 0 for int64).
TEST(TernaryPointwiseOpsTest, AddcmulPromotion) {
  const Tensor a = makeTensor(DType::Int64, {3}, {}, {1, 2, 3}), b = makeTensor(DType::Int64, {3}, {}, {2, 3, 4});
  const Tensor c = makeTensor(DType::Int64, {3}, {}, {5, 6, 7});
  Tensor ints = runOp("aten.addcmul.default", {a, b, c}, {{"value", int64_t{2}}});
  EXPECT_EQ(ints.dtype(), DType::Int64);
  EXPECT_EQ(valuesOf(ints), (std::vector<double>{21, 38, 59}));
  EXPECT_EQ(valuesOf(runOp("aten.addcmul.default", {a, b, c}, {{"value", 0.5}})), (std::vector<double>{1, 2, 3}));
  Tensor mixed = runOp("aten.addcmul.default", {a, makeTensor(DType::Float32, {3}, {}, {0.5, 1.5, 2.5}), b},
                       {{"value", int64_t{2}}});
  EXPECT_EQ(mixed.dtype(), DType::Float32);
  EXPECT_EQ(valuesOf(mixed), (std::vector<double>{3, 11, 23}));
  const Tensor f = makeTensor(DType::Float32, {3}, {}, {1, 2, 3}), g = makeTensor(DType::Float32, {3}, {}, {2, 3, 4});
  Tensor wide = runOp("aten.addcmul.default", {f, makeTensor(DType::Float64, {3}, {}, {0.5, 1.5, 2.5}), g});
  EXPECT_EQ(wide.dtype(), DType::Float64);
  EXPECT_EQ(valuesOf(wide), (std::vector<double>{2, 6.5, 13}));
  // A zero-dim float64 operand does not widen float32 tensors.
  Tensor narrow = runOp("aten.addcmul.default", {f, makeTensor(DType::Float64, {}, {}, {0.5}), g});
  EXPECT_EQ(narrow.dtype(), DType::Float32);
  EXPECT_EQ(valuesOf(narrow), (std::vector<double>{2, 3.5, 5}));
}

// bfloat16 computes in float32 and rounds once: [1.453125, 3, 3.109375] (value=0.1).
TEST(TernaryPointwiseOpsTest, AddcmulBFloat16RoundsOnce) {
  const Tensor s = makeTensor(DType::BFloat16, {3}, {}, {1, 2, 3.1}), a = makeTensor(DType::BFloat16, {3}, {}, {1.5, 2.5, 0.3});
  const Tensor b = makeTensor(DType::BFloat16, {3}, {}, {3, 4, 0.7});
  Tensor out = runOp("aten.addcmul.default", {s, a, b}, {{"value", 0.1}});
  EXPECT_EQ(out.dtype(), DType::BFloat16);
  EXPECT_EQ(valuesOf(out), (std::vector<double>{1.453125, 3.0, 3.109375}));
  // addcmul(bf16, tensor(1.5) float32, bf16): the zero-dim float32 keeps bfloat16
  Tensor z = runOp("aten.addcmul.default", {s, makeTensor(DType::Float32, {}, {}, {1.5}), b});
  EXPECT_EQ(z.dtype(), DType::BFloat16);
  EXPECT_EQ(valuesOf(z), (std::vector<double>{5.5, 8.0, 4.15625}));
}

// PyTorch 1.13 has no float16 kernel; torch 2.14 computes in float32: [1.4501953125, 3] (value=0.1).
TEST(TernaryPointwiseOpsTest, Float16IsTorch2Only) {
  const Tensor s = makeTensor(DType::Float16, {2}, {}, {1, 2}), a = makeTensor(DType::Float16, {2}, {}, {1.5, 2.5});
  const Tensor b = makeTensor(DType::Float16, {2}, {}, {3, 4});
  expectOpError("aten.addcmul.default", {s, a, b}, "\"addcmul_cpu_out\" not implemented for 'Half'", {{"value", 0.1}});
  expectOpError("aten.addcdiv.default", {s, a, b}, "\"addcdiv_cpu_out\" not implemented for 'Half'", {{"value", 0.1}});
  ScopedAtenVersion torch2({2, 14});
  EXPECT_EQ(valuesOf(runOp("aten.addcmul.default", {s, a, b}, {{"value", 0.1}})), (std::vector<double>{1.4501953125, 3}));
  EXPECT_EQ(valuesOf(runOp("aten.addcdiv.default", {s, a, b}, {{"value", 0.1}})),
            (std::vector<double>{1.0498046875, 2.0625}));
}

// addcdiv: self + value * t1 / t2, broadcast as addcmul; division by zero gives infinities.
TEST(TernaryPointwiseOpsTest, AddcdivValues) {
  const Tensor column = makeTensor(DType::Float32, {3, 1}, {}, {0, 0.25, 0.5});
  const Tensor row = makeTensor(DType::Float32, {1, 4}, {}, {-1.5, -0.5, 0.5, 1.5});
  std::vector<double> plusOne;
  for (int k = 0; k < 12; ++k) plusOne.push_back(k / 8.0 + 1);
  // addcdiv(s, t1, t2 + 1, value=0.5)
  Tensor out = runOp("aten.addcdiv.default", {column, row, makeTensor(DType::Float32, {3, 4}, {}, plusOne)},
                     {{"value", 0.5}});
  EXPECT_EQ(out.strides(), (IntList{4, 1}));
  const std::vector<double> want = {-0.75, -0.2222222238779068, 0.20000000298023224, 0.5454545617103577,
                                    -0.25, 0.09615384042263031, 0.3928571343421936, 0.6499999761581421,
                                    0.125, 0.38235294818878174, 0.6111111044883728, 0.8157894611358643};
  EXPECT_EQ(valuesOf(out), want);
  // addcdiv(tensor([1,2,3]), tensor([2.,3,4]), tensor([5,6,7]), value=2): one float tensor suffices
  Tensor mixed = runOp("aten.addcdiv.default", {makeTensor(DType::Int64, {3}, {}, {1, 2, 3}),
                                                makeTensor(DType::Float32, {3}, {}, {2, 3, 4}),
                                                makeTensor(DType::Int64, {3}, {}, {5, 6, 7})},
                       {{"value", int64_t{2}}});
  EXPECT_EQ(mixed.dtype(), DType::Float32);
  EXPECT_EQ(valuesOf(mixed), (std::vector<double>{1.7999999523162842, 3.0, 4.142857074737549}));
  Tensor inf = runOp("aten.addcdiv.default", {makeTensor(DType::Float32, {2}, {}, {1, 2}),
                                              makeTensor(DType::Float32, {2}, {}, {1, -1}),
                                              makeTensor(DType::Float32, {2}, {}, {0, 0})});
  EXPECT_EQ(valuesOf(inf), (std::vector<double>{INFINITY, -INFINITY}));
  Tensor bf = runOp("aten.addcdiv.default", {makeTensor(DType::BFloat16, {3}, {}, {1, 2, 3.1}),
                                             makeTensor(DType::BFloat16, {3}, {}, {1.5, 2.5, 0.3}),
                                             makeTensor(DType::BFloat16, {3}, {}, {3, 4, 0.7})},
                    {{"value", 0.1}});
  EXPECT_EQ(valuesOf(bf), (std::vector<double>{1.046875, 2.0625, 3.140625}));
}

TEST(TernaryPointwiseOpsTest, ErrorsAreReportedNotThrown) {
  const Tensor b = makeTensor(DType::Bool, {2}, {}, {1, 0}), f = makeTensor(DType::Float32, {3});
  expectOpError("aten.addcmul.default", {b, b, b}, "\"addcmul_cpu_out\" not implemented for 'Bool'");
  expectOpError("aten.addcmul.default", {f, makeTensor(DType::Float32, {4}), f},
                "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0");
  const Tensor i = makeTensor(DType::Int64, {3});
  expectOpError("aten.addcdiv.default", {i, i, i}, "Integer division with addcdiv is no longer supported");
  // Bool divisors count as integers, even with a float self.
  expectOpError("aten.addcdiv.default", {makeTensor(DType::Float32, {2}), b, b},
                "Integer division with addcdiv is no longer supported, and in a future  release");
}

}  // namespace
}  // namespace fathom
