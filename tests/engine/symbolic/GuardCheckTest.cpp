// The guard analyses over ShapeEnvs built the way a trace builds them (decisions through
// symEq/symLt, so guards carry their raw form): a real unification is implied and sound; a
// guard asked after a replacement keeps its raw form, and the simplified set still accepts
// exactly what the raw guards accept; an inequality that leaves one value is found as an
// unrecorded specialization; an injected unsound replacement is caught with a counterexample;
// explain and overlap on the same envs. Skipped in a build without Z3.
#include <gtest/gtest.h>

#include "engine/symbolic/ExplainSizesText.h"
#include "engine/symbolic/GuardCheck.h"
#include "engine/symbolic/GuardExplain.h"
#include "engine/symbolic/GuardOverlap.h"

namespace fathom::sym {
namespace {

class GuardCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Solver::available()) GTEST_SKIP() << "skipped: this build has no Z3";
  }
};

std::shared_ptr<ShapeEnv> noDuckEnv() {
  ShapeEnvOptions o;
  o.duckSizing = false;
  return ShapeEnv::create(o);
}

TEST_F(GuardCheckTest, AGuardAskedAfterAReplacementKeepsItsRawFormAndTheSetIsSound) {
  auto env = noDuckEnv();
  SymInt s0 = env->createSize(16, "x.size(1)"), s1 = env->createSize(16, "mask.size(1)");
  EXPECT_TRUE(symEq(s0, s1, "same length"));    // s1 -> s0
  EXPECT_TRUE(symLt(s1, SymInt(512), "slice"));  // asked over s1, recorded over s0
  ASSERT_EQ(env->guards().size(), 2u);
  EXPECT_EQ(env->guards()[1].expr.str(), "s0 < 512");
  ASSERT_TRUE(env->guards()[1].raw);
  EXPECT_EQ(env->guards()[1].raw->str(), "s1 < 512");

  auto r = checkGuards(*env);
  EXPECT_EQ(r.consistency.status, SolveStatus::Sat);
  EXPECT_EQ(r.soundness.looser, SolveStatus::Unsat);
  EXPECT_EQ(r.soundness.stricter, SolveStatus::Unsat);
  EXPECT_TRUE(r.soundness.rawRecorded);
  ASSERT_EQ(r.specializations.size(), 1u);
  EXPECT_EQ(r.specializations[0].kind, "unified");
  EXPECT_TRUE(r.specializations[0].recorded && r.specializations[0].implied);
  EXPECT_EQ(r.specializations[0].causedBy, std::vector<size_t>{0});
  EXPECT_FALSE(r.problemFound());
  EXPECT_TRUE(r.undecided.empty());
}

TEST_F(GuardCheckTest, AnUnsoundReplacementIsCaughtWithACounterexample) {
  auto env = noDuckEnv();
  SymInt s0 = env->createSize(16, "x.size(1)"), s1 = env->createSize(16, "mask.size(1)");
  EXPECT_TRUE(symDecide(SymRel::Le, s1, s0, "fits"));  // s1 <= s0, no replacement
  env->addReplacement(1, Expr::symbol(0));  // injected: claims s1 == s0
  auto r = checkGuards(*env);
  EXPECT_TRUE(r.problemFound());
  EXPECT_EQ(r.soundness.stricter, SolveStatus::Sat);  // s1 < s0 passes the guards, not the simplified set
  ASSERT_TRUE(r.soundness.stricterExample);
  EXPECT_LT(r.soundness.stricterExample->values.at(1), r.soundness.stricterExample->values.at(0));
  ASSERT_EQ(r.specializations.size(), 1u);
  EXPECT_FALSE(r.specializations[0].implied);
}

TEST_F(GuardCheckTest, InequalitiesThatLeaveOneValueAreAnUnrecordedSpecialization) {
  auto env = ShapeEnv::create();
  SymInt s0 = env->createSize(8, "x.size(0)");
  EXPECT_TRUE(symGe(s0, SymInt(8), "at least 8"));
  EXPECT_TRUE(symDecide(SymRel::Le, s0, SymInt(8), "at most 8"));
  auto r = checkGuards(*env);
  ASSERT_EQ(r.specializations.size(), 1u);
  EXPECT_EQ(r.specializations[0].kind, "constant");
  EXPECT_EQ(r.specializations[0].value, Expr(8));
  EXPECT_FALSE(r.specializations[0].recorded);
  EXPECT_EQ(r.specializations[0].causedBy, (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(r.redundancy.redundant.empty());
}

TEST_F(GuardCheckTest, ExplainListsFailingGuardsAndTheNearestPassingSizes) {
  auto env = ShapeEnv::create();
  SymInt s0 = env->createSize(16, "x.size(0)");
  EXPECT_TRUE(symEq(mod(s0, SymInt(4)), SymInt(0), "groups of 4"));
  EXPECT_TRUE(symLt(s0, SymInt(64), "slice"));
  auto sizes = parseExplainSizes("x=70", *env);
  ASSERT_TRUE(sizes.ok()) << sizes.error().str();
  auto r = explainSizes(*env, *sizes);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->failed.size(), 2u);
  EXPECT_EQ(r->failed[0].guard, std::optional<size_t>(0));
  ASSERT_EQ(r->nearest.status, SolveStatus::Sat);
  EXPECT_EQ(r->nearestInputs.at("x"), std::vector<int64_t>{60});
}

TEST_F(GuardCheckTest, ExplainChecksTheRankAndConstantDimensionsOfTheTracedInputs) {
  auto env = ShapeEnv::create();
  SymInt s0 = env->createSize(16, "x.size(0)");
  EXPECT_TRUE(symLt(s0, SymInt(64), "slice"));
  const std::vector<GuardedInput> traced{{"x", {s0, SymInt(3)}}};
  auto wrongConstant = explainSizes(*env, *parseExplainSizes("x=70x4", *env, traced), {}, traced);
  ASSERT_TRUE(wrongConstant.ok());
  ASSERT_EQ(wrongConstant->failed.size(), 2u);
  EXPECT_EQ(wrongConstant->failed[0].kind, "static");
  EXPECT_EQ(wrongConstant->failed[0].expr, "x.size(1) == 3");
  EXPECT_EQ(wrongConstant->failed[1].kind, "guard");
  EXPECT_EQ(wrongConstant->nearestInputs.at("x"), (std::vector<int64_t>{63, 3}));
  EXPECT_TRUE(wrongConstant->notes.empty());

  auto wrongRank = explainSizes(*env, *parseExplainSizes("x=8", *env, traced), {}, traced);
  ASSERT_TRUE(wrongRank.ok());
  ASSERT_EQ(wrongRank->failed.size(), 1u);
  EXPECT_EQ(wrongRank->failed[0].kind, "rank");
  EXPECT_EQ(wrongRank->nearestInputs.at("x"), (std::vector<int64_t>{8, 3}));

  // Without the traced inputs, the constant dimension can only be noted.
  auto unknown = explainSizes(*env, *parseExplainSizes("x=8x4", *env));
  ASSERT_TRUE(unknown.ok());
  EXPECT_TRUE(unknown->failed.empty());
  ASSERT_EQ(unknown->notes.size(), 1u);
  EXPECT_NE(unknown->notes[0].find("x.size(1)"), std::string::npos);
}

TEST_F(GuardCheckTest, OverlapFindsAWitnessOrTheSeparatingGuards) {
  auto a = ShapeEnv::create(), b = ShapeEnv::create();
  SymInt x = a->createSize(16, "x.size(0)"), y = b->createSize(700, "x.size(0)");
  EXPECT_TRUE(symLt(x, SymInt(512), "short"));
  EXPECT_FALSE(symLt(y, SymInt(512), "long"));  // records s0 >= 512
  GuardedEntry ea{"a", a.get(), {{"x", {x}}}}, eb{"b", b.get(), {{"x", {y}}}};
  auto disjoint = overlap(ea, eb);
  EXPECT_EQ(disjoint.status, SolveStatus::Unsat);
  EXPECT_EQ(disjoint.separating, (std::vector<std::string>{"a: x.size(0) == s0", "a: s0 < 512", "b: x.size(0) == s0", "b: s0 >= 512"}));
  GuardedEntry renamed{"d", b.get(), {{"y", {y}}}}, twoInputs{"e", b.get(), {{"x", {y}}, {"y", {y}}}};
  auto otherName = overlap(ea, renamed);
  EXPECT_EQ(otherName.status, SolveStatus::Unsat);
  EXPECT_EQ(otherName.reason, "the entries take different inputs: input 0 is x (rank 1) in a, y (rank 1) in d");
  EXPECT_TRUE(otherName.queries.empty());
  EXPECT_EQ(overlap(ea, twoInputs).reason, "the entries take different inputs: 1 and 2 of them");
  GuardedEntry same{"c", a.get(), {{"x", {x}}}};
  auto both = overlap(ea, same);
  ASSERT_EQ(both.status, SolveStatus::Sat);
  EXPECT_LT(both.witness.at(0).second.at(0), 512);
}

}  // namespace
}  // namespace fathom::sym
