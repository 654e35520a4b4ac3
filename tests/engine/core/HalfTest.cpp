// 16-bit float conversions round to nearest even and keep inf/nan, as c10::Half/BFloat16 do.
#include "engine/core/Half.h"

#include <cmath>
#include <gtest/gtest.h>

namespace fathom {
namespace {

TEST(HalfTest, ExactValuesRoundTrip) {
  for (float f : {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f /*min normal*/,
                  5.9604644775390625e-08f /*min subnormal*/, 0.333251953125f}) {
    EXPECT_EQ(static_cast<float>(Half(f)), f) << f;
  }
}

TEST(HalfTest, RoundsToNearestEvenAndOverflows) {
  EXPECT_EQ(Half(1.0f + 1.0f / 2048).bits, Half(1.0f).bits);            // tie -> even (down)
  EXPECT_EQ(Half(1.0f + 3.0f / 2048).bits, Half(1.0f + 2.0f / 1024).bits);  // tie -> even (up)
  EXPECT_TRUE(std::isinf(static_cast<float>(Half(70000.0f))));
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(NAN))));
  EXPECT_EQ(Half(0.1f).bits, 0x2e66);  // torch.tensor(0.1, dtype=torch.half) is 0x2e66
}

TEST(BFloat16Test, RoundsToNearestEven) {
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f)), 1.0f);
  EXPECT_EQ(BFloat16(0.1f).bits, 0x3dcd);  // torch.tensor(0.1, dtype=torch.bfloat16)
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(NAN))));
  EXPECT_TRUE(std::isinf(static_cast<float>(BFloat16(INFINITY))));
}

}  // namespace
}  // namespace fathom
