// The vectorized expf used by the float32 softmax paths: within 2 ulp of a correctly rounded
// exp over the range it serves (normal results), 0 below it, and exact on the special values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/ops/cpu/VecMath.h"

namespace fathom {
namespace {

float expLane(float x) { return vec::expVec(vec::splat(x))[0]; }

TEST(VecMathTest, ExpIsWithinTwoUlp) {
  for (float x = -103.0f; x <= 88.3f; x += 0.0137f) {
    const double want = std::exp(static_cast<double>(x));
    if (want < std::numeric_limits<float>::min()) {  // would be subnormal: flushed to 0
      ASSERT_EQ(expLane(x), 0.0f) << x;
      continue;
    }
    const double ulp = std::nextafter(static_cast<float>(want), std::numeric_limits<float>::infinity()) -
                       static_cast<float>(want);
    ASSERT_NEAR(expLane(x), want, 2 * ulp) << x;
  }
}

TEST(VecMathTest, ExpSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(expLane(0.0f), 1.0f);
  EXPECT_EQ(expLane(-inf), 0.0f);
  EXPECT_EQ(expLane(-200.0f), 0.0f);
  EXPECT_EQ(expLane(-87.0f), std::exp(-87.0f));
  EXPECT_EQ(expLane(inf), inf);
  EXPECT_EQ(expLane(100.0f), inf);
  EXPECT_TRUE(std::isnan(expLane(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(vec::maxLanes(vec::max(vec::Float4{1, 9, 3, 4}, vec::Float4{2, 1, std::nanf(""), 5})), 9.0f);
}

}  // namespace
}  // namespace fathom
