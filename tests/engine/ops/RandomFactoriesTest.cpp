// rand, randn, randperm and the *_like forms draw from Fathom's generator, so the oracle checks
// only their layouts; these tests check their distributions (uniform in [0, 1), standard normal,
// permutations) and that a seed gives the same tensor again.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/core/Random.h"
#include "tests/engine/ops/OpTestUtil.h"

namespace fathom {
namespace {
using testing::makeTensor;
using testing::runOp;
using testing::valuesOf;

struct Moments {
  double mean = 0, variance = 0, lo = INFINITY, hi = -INFINITY;
};

Moments momentsOf(const std::vector<double>& v) {
  Moments m;
  for (double x : v) m.mean += x, m.lo = std::min(m.lo, x), m.hi = std::max(m.hi, x);
  m.mean /= static_cast<double>(v.size());
  for (double x : v) m.variance += (x - m.mean) * (x - m.mean);
  m.variance /= static_cast<double>(v.size());
  return m;
}

// 100k uniforms: mean 1/2 and variance 1/12 within 5 standard errors, all in [0, 1).
TEST(RandomFactoriesTest, RandIsUniformOnZeroOne) {
  manualSeed(3);
  const Moments m = momentsOf(valuesOf(runOp("aten.rand.default", {Value(ValueList{Value(100000)})})));
  EXPECT_NEAR(m.mean, 0.5, 5 * std::sqrt(1.0 / 12 / 100000));
  EXPECT_NEAR(m.variance, 1.0 / 12, 0.005);
  EXPECT_GE(m.lo, 0.0);
  EXPECT_LT(m.hi, 1.0);
}

// 100k normals: mean 0 and variance 1 within 5 standard errors.
TEST(RandomFactoriesTest, RandnIsStandardNormal) {
  manualSeed(4);
  const Moments m = momentsOf(valuesOf(runOp("aten.randn.default", {Value(ValueList{Value(100000)})})));
  EXPECT_NEAR(m.mean, 0.0, 5 / std::sqrt(100000.0));
  EXPECT_NEAR(m.variance, 1.0, 5 * std::sqrt(2.0 / 100000));
}

// Every randperm(n) holds 0..n-1 once, and differs between draws.
TEST(RandomFactoriesTest, RandpermIsAPermutation) {
  manualSeed(5);
  const std::vector<double> a = valuesOf(runOp("aten.randperm.default", {Value(1000)}));
  const std::vector<double> b = valuesOf(runOp("aten.randperm.default", {Value(1000)}));
  std::vector<double> sorted = a, identity(1000);
  std::sort(sorted.begin(), sorted.end());
  std::iota(identity.begin(), identity.end(), 0.0);
  EXPECT_EQ(sorted, identity);
  EXPECT_NE(a, b);
  EXPECT_NE(a, identity);
}

// The same seed gives the same values, whatever the layout the *_like form writes into.
TEST(RandomFactoriesTest, SeedReproducesLikeForms) {
  const Tensor transposed = makeTensor(DType::Float32, {3, 4}, {1, 3});
  manualSeed(9);
  const Tensor a = runOp("aten.randn_like.default", {transposed});
  manualSeed(9);
  const Tensor b = runOp("aten.randn_like.default", {makeTensor(DType::Float32, {3, 4})});
  EXPECT_EQ(a.strides(), (IntList{1, 3}));
  EXPECT_EQ(valuesOf(a), valuesOf(b));
  manualSeed(9);
  const std::vector<double> half = valuesOf(runOp("aten.rand_like.default", {makeTensor(DType::Float16, {64})}));
  EXPECT_LT(*std::max_element(half.begin(), half.end()), 1.0);
}

}  // namespace
}  // namespace fathom
