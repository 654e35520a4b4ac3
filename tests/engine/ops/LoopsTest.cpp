// forEachRunIn: any split of a plan's elements into ranges visits exactly the addresses, in the
// order, that one forEachRun over the whole plan visits (this is what lets kernels run ranges on
// different threads).
#include <gtest/gtest.h>

#include "engine/ops/cpu/Loops.h"

namespace fathom {
namespace {

std::vector<std::ptrdiff_t> visit(const LoopPlan& plan, int64_t begin, int64_t end) {
  std::vector<std::ptrdiff_t> offsets;
  static std::byte buffer[1024];  // covers every offset the plans below reach
  std::byte* origin = buffer;
  const std::array<std::byte*, 2> base{origin, origin};
  forEachRunIn<2>(plan, base, begin, end, [&](auto& p, auto& s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) offsets.push_back(p[1] - origin + i * s[1]);
  });
  return offsets;
}

TEST(LoopsTest, RangesConcatenateToTheWholePlan) {
  // (3, 4, 5) read transposed (strides in bytes) next to a contiguous output.
  const LoopPlan plan = planLoop({3, 4, 5}, {{80, 20, 4}, {4, 60, 12}}, 1);
  const int64_t n = plan.numel();
  ASSERT_EQ(n, 60);
  const auto whole = visit(plan, 0, n);
  ASSERT_EQ(whole.size(), 60u);
  for (int64_t split : {1, 2, 3, 7, 13, 59}) {
    auto joined = visit(plan, 0, split);
    const auto rest = visit(plan, split, n);
    joined.insert(joined.end(), rest.begin(), rest.end());
    EXPECT_EQ(joined, whole) << "split at " << split;
  }
  EXPECT_TRUE(visit(plan, 5, 5).empty());
}

// A zero-dim plan has one element; an empty plan none.
TEST(LoopsTest, ScalarAndEmptyPlans) {
  EXPECT_EQ(planLoop({}, {{}, {}}).numel(), 1);
  EXPECT_EQ(visit(planLoop({}, {{}, {}}), 0, 1).size(), 1u);
  EXPECT_EQ(planLoop({3, 0}, {{0, 4}, {0, 4}}).numel(), 0);
}

}  // namespace
}  // namespace fathom
