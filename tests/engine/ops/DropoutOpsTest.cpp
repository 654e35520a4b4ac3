// native_dropout and bernoulli_ draw from Fathom's generator, so the oracle checks only their
// layouts; these tests check their statistics (fraction kept ~ 1 - p), scaling by 1 / (1 - p),
// the mask agreeing with the output, and reproducibility from a seed whatever the strides and
// thread count.
#include <cmath>

#include "engine/core/Parallel.h"
#include "engine/core/Random.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::expectOpError;
using testing::makeTensor;
using testing::runBoth;
using testing::valuesOf;

struct Dropout {
  std::vector<double> out, mask;
};

Dropout dropout(const Tensor& x, double p, Value train = true) {
  auto r = runBoth("aten.native_dropout.default", {x, p, std::move(train)});
  EXPECT_TRUE(r.kernel.ok()) << (r.kernel.ok() ? "" : r.kernel.error().str());
  if (!r.kernel.ok()) return {};
  return {valuesOf((*r.kernel)[0].as<Tensor>()), valuesOf((*r.kernel)[1].as<Tensor>())};
}

Tensor ones(IntList sizes, IntList strides = {}) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return makeTensor(DType::Float32, sizes, strides, std::vector<double>(static_cast<size_t>(n), 1.0));
}

// Over 200k elements the kept fraction is within 5 standard deviations of 1 - p, kept elements
// are scaled by 1 / (1 - p), dropped ones are 0, and the mask says which is which.
TEST(DropoutOpsTest, KeepsOneMinusPAndScales) {
  manualSeed(1);
  for (double p : {0.1, 0.5, 0.8}) {
    const int64_t n = 200000;
    const Dropout d = dropout(ones({n}), p);
    int64_t kept = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (d.mask[i] != 0) {
        ++kept;
        EXPECT_FLOAT_EQ(d.out[i], static_cast<float>(1.0 / (1 - p))) << i;
      } else {
        EXPECT_EQ(d.out[i], 0) << i;
      }
    }
    const double sigma = std::sqrt(n * p * (1 - p));
    EXPECT_NEAR(static_cast<double>(kept), n * (1 - p), 5 * sigma) << "p=" << p;
  }
}

// The same seed gives the same mask; the next draw (or another seed) gives a different one.
TEST(DropoutOpsTest, SeedReproducesTheMask) {
  const Tensor x = ones({64, 64});
  manualSeed(42);
  const Dropout a = dropout(x, 0.5), b = dropout(x, 0.5);
  manualSeed(42);
  const Dropout again = dropout(x, 0.5);
  manualSeed(43);
  const Dropout other = dropout(x, 0.5);
  EXPECT_EQ(a.mask, again.mask);
  EXPECT_NE(a.mask, b.mask);
  EXPECT_NE(a.mask, other.mask);
}

// Element i (row-major) draws value i: a transposed input and another thread count give the
// same logical mask.
TEST(DropoutOpsTest, MaskIndependentOfStridesAndThreads) {
  const int before = numThreads();
  setNumThreads(1);
  manualSeed(7);
  const Dropout serial = dropout(ones({300, 400}), 0.3);
  setNumThreads(4);
  manualSeed(7);
  const Dropout transposed = dropout(ones({300, 400}, {1, 300}), 0.3);
  setNumThreads(before);
  EXPECT_EQ(serial.mask, transposed.mask);
}

// p = 1 drops everything (scale 0); evaluation returns a copy and an all-true mask.
TEST(DropoutOpsTest, DeterministicCases) {
  const Tensor x = makeTensor(DType::Float32, {2, 2}, {}, {1, -2, 3, -4});
  const Dropout all = dropout(x, 1.0);
  EXPECT_EQ(all.mask, (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(all.out, (std::vector<double>{0, 0, 0, 0}));
  const Dropout eval = dropout(x, 0.5, false);
  EXPECT_EQ(eval.out, valuesOf(x));
  EXPECT_EQ(eval.mask, (std::vector<double>{1, 1, 1, 1}));
}

// bernoulli_ writes 0/1 in place with P(1) = p, reproducibly from a seed.
TEST(DropoutOpsTest, BernoulliInPlace) {
  Tensor x = makeTensor(DType::Int64, {100000});
  manualSeed(5);
  auto r = runBoth("aten.bernoulli_.float", {x, 0.25});
  ASSERT_TRUE(r.kernel.ok());
  EXPECT_TRUE((*r.kernel)[0].as<Tensor>().sharesStorageWith(x));
  const std::vector<double> first = valuesOf(x);
  double ones = 0;
  for (double v : first) {
    ASSERT_TRUE(v == 0 || v == 1);
    ones += v;
  }
  EXPECT_NEAR(ones, 25000, 5 * std::sqrt(100000 * 0.25 * 0.75));
  manualSeed(5);
  ASSERT_TRUE(runBoth("aten.bernoulli_.float", {x, 0.25}).kernel.ok());
  EXPECT_EQ(valuesOf(x), first);
}

// Errors: p outside [0, 1], integer dropout in training, writing through a broadcast dim.
TEST(DropoutOpsTest, Errors) {
  expectOpError("aten.native_dropout.default", {ones({3}), 1.5, true},
                "bernoulli_ expects p to be in [0, 1], but got p=-0.5");
  expectOpError("aten.native_dropout.default", {makeTensor(DType::Int64, {3}), 0.5, true},
                "result type Float can't be cast to the desired output type Long");
  expectOpError("aten.bernoulli_.float", {ones({3}), 2.0}, "bernoulli_ expects p to be in [0, 1], but got p=2");
  expectOpError("aten.bernoulli_.float", {ones({3, 4}, {0, 1}), 0.5},
                "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                "location");
}

}  // namespace
}  // namespace fathom
