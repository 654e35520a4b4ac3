// `fathom guards --accepts` over ShapeEnvs built the way a trace builds them: a range every size
// of which passes is proved (unsat); a guard that pins a size, a bound and PyTorch's 0/1
// specialization (a symbol's range starting at 2) each give a counterexample naming the check
// and the widest passing range around the hint; symbols not named keep their hints; bad range
// texts are errors naming the item. Skipped in a build without Z3.
#include <gtest/gtest.h>

#include "engine/symbolic/GuardAccepts.h"

namespace fathom::sym {
namespace {

class GuardAcceptsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Solver::available()) GTEST_SKIP() << "skipped: this build has no Z3";
  }
  std::shared_ptr<ShapeEnv> env = [] {
    ShapeEnvOptions o;
    o.duckSizing = false;
    return ShapeEnv::create(o);
  }();
  SymInt batch = env->createSize(5, "x.size(0)");
  SymInt seq = env->createSize(11, "x.size(1)");
};

Result<AcceptsReport> accepts(const ShapeEnv& env, const std::string& text) {
  auto ranges = parseAcceptsRanges(text, env);
  if (!ranges.ok()) return ranges.error();
  return provesAccepts(env, *ranges);
}

using Interval = std::pair<int64_t, int64_t>;

TEST_F(GuardAcceptsTest, ARangeWithinEveryGuardIsProved) {
  EXPECT_TRUE(symLt(seq, SymInt(512), "position table"));
  auto r = accepts(*env, "s0=2..64,s1=2..64");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->accepted);
  EXPECT_EQ(r->status, SolveStatus::Unsat);
  EXPECT_TRUE(r->failed.empty());
  EXPECT_EQ(r->widest.at(0), (Interval{2, 64}));
  EXPECT_EQ(r->widest.at(1), (Interval{2, 64}));
}

TEST_F(GuardAcceptsTest, ZeroOneSpecializationIsTheRangeCheckThatFails) {
  auto r = accepts(*env, "s0=1..64");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->accepted);
  EXPECT_EQ(r->status, SolveStatus::Sat);
  EXPECT_EQ(r->counterexample.at(0), 1);
  ASSERT_EQ(r->failed.size(), 1u);
  EXPECT_EQ(r->failed[0].kind, "range");
  EXPECT_EQ(r->failed[0].actual, "s0 = 1");
  EXPECT_EQ(r->widest.at(0), (Interval{2, 64}));
}

TEST_F(GuardAcceptsTest, AGuardThatBoundsTheSizeIsNamedWithTheWidestRange) {
  EXPECT_TRUE(symLt(seq, SymInt(40), "position table of 40"));
  auto r = accepts(*env, "s1=2..64");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->accepted);
  ASSERT_EQ(r->failed.size(), 1u);
  EXPECT_EQ(r->failed[0].kind, "guard");
  EXPECT_GE(r->counterexample.at(1), 40);
  ASSERT_TRUE(r->failed[0].guard);
  EXPECT_EQ(env->guards()[*r->failed[0].guard].reason, "position table of 40 (s1 vs 40)");
  EXPECT_EQ(r->widest.at(1), (Interval{2, 39}));
  // Both ends of the widest interval, and what stops each: 0/1 specialization below, the guard above.
  ASSERT_EQ(r->stops.size(), 1u);
  EXPECT_EQ(r->stops[0].side, "above");
  EXPECT_EQ(r->stops[0].value, 40);
  ASSERT_EQ(r->stops[0].failed.size(), 1u);
  EXPECT_EQ(r->stops[0].failed[0].kind, "guard");
  auto fromOne = accepts(*env, "s1=1..64");
  ASSERT_TRUE(fromOne.ok());
  ASSERT_EQ(fromOne->stops.size(), 2u);
  EXPECT_EQ(fromOne->stops[0].side, "below");
  EXPECT_EQ(fromOne->stops[0].value, 1);
  EXPECT_EQ(fromOne->stops[0].failed.at(0).kind, "range");
}

TEST_F(GuardAcceptsTest, ASpecializedSizePassesOnlyAtItsValueAndOthersKeepTheirHints) {
  EXPECT_TRUE(symEq(batch, SymInt(5), "reshape to 5 rows"));
  auto pinned = accepts(*env, "s0=1..64");
  ASSERT_TRUE(pinned.ok());
  EXPECT_FALSE(pinned->accepted);
  EXPECT_EQ(pinned->widest.at(0), (Interval{5, 5}));
  // s0 is not named: it stays 5, so every sequence length passes.
  auto other = accepts(*env, "s1=2..300");
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->accepted);
}

TEST_F(GuardAcceptsTest, BadRangeTextsNameTheItem) {
  for (const char* text : {"s0", "s9=1..4", "s0=4..1", "s0=a..b", "s0=1..4,s0=2..3", "x=1..4"}) {
    auto r = parseAcceptsRanges(text, *env);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().message.find("--accepts: bad item"), std::string::npos) << r.error().message;
  }
  auto single = parseAcceptsRanges("s0=8", *env);
  ASSERT_TRUE(single.ok());
  EXPECT_EQ((*single)[0].lo, 8);
  EXPECT_EQ((*single)[0].hi, 8);
}

}  // namespace
}  // namespace fathom::sym
