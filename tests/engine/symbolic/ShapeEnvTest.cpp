// ShapeEnv: symbols, duck sizing, 0/1 specialization, decisions by range vs by guard,
// replacements with provenance; GuardSet: fast checks and the list of every failing guard.
#include <gtest/gtest.h>

#include <chrono>

#include "engine/core/Error.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/symbolic/GuardSet.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::sym {
namespace {

TEST(ShapeEnv, SymbolsDuckSizingAndZeroOne) {
  auto env = ShapeEnv::create();
  SymInt a = env->createSize(8, "x.size(0)");
  SymInt b = env->createSize(128, "x.size(1)");
  SymInt c = env->createSize(8, "mask.size(0)");
  SymInt one = env->createSize(1, "mask.size(1)");
  EXPECT_EQ(a.str(), "s0");
  EXPECT_EQ(b.str(), "s1");
  EXPECT_EQ(c.str(), "s0");  // duck sizing: equal hints share a symbol
  EXPECT_FALSE(one.isSymbolic());
  ASSERT_EQ(env->symbols().size(), 2u);
  EXPECT_EQ(env->symbols()[0].sources, (std::vector<std::string>{"x.size(0)", "mask.size(0)"}));
  EXPECT_EQ(env->symbols()[0].range.str(), "[2, inf]");
  ASSERT_EQ(env->specializations().size(), 1u);
  EXPECT_EQ(env->specializations()[0].kind, "zero-one");
  EXPECT_EQ(env->specializations()[0].source, "mask.size(1)");

  auto noDuck = ShapeEnv::create({.duckSizing = false});
  EXPECT_EQ(noDuck->createSize(8, "x.size(0)").str(), "s0");
  EXPECT_EQ(noDuck->createSize(8, "y.size(0)").str(), "s1");
}

TEST(ShapeEnv, ArithmeticStaysSymbolicWithHints) {
  auto env = ShapeEnv::create();
  SymInt s0 = env->createSize(8, "x.size(0)"), s1 = env->createSize(128, "x.size(1)");
  SymInt n = s0 * s1 * 12;
  EXPECT_EQ(n.str(), "12*s0*s1");
  EXPECT_EQ(n.hint(), 8 * 128 * 12);
  EXPECT_EQ(floorDiv(n, s1).str(), "12*s0");
  SymInt zero = s0 - s0;
  EXPECT_FALSE(zero.isSymbolic());
  EXPECT_EQ(symMax(s0, 1).str(), "s0");  // the range [2, inf] settles it
  EXPECT_EQ(symMax(s0, s1).str(), "Max(s0, s1)");
}

TEST(ShapeEnv, RangesSettleWithoutGuards) {
  auto env = ShapeEnv::create();
  SymInt s0 = env->createSize(8, "x.size(0)");
  EXPECT_FALSE(symEq(s0, 1, "is it 1"));
  EXPECT_FALSE(symEq(s0, 0, "is it empty"));
  EXPECT_TRUE(symGe(s0, 2, "at least 2"));
  EXPECT_TRUE(symLt(0, s0 * 3, "positive"));
  EXPECT_TRUE(env->guards().empty());
}

TEST(ShapeEnv, DecisionsRecordGuardsWithProvenance) {
  auto env = ShapeEnv::create();
  SymInt s0 = env->createSize(8, "x.size(0)"), s1 = env->createSize(128, "x.size(1)");
  env->setContext({"trace", "add_3", "aten.add.Tensor", "samples/models/Bert.cpp:88", "encoder.layer.0", {}});
  EXPECT_TRUE(symLt(s0, s1, "stride order"));
  ASSERT_EQ(env->guards().size(), 1u);
  const Guard& g = env->guards()[0];
  EXPECT_EQ(g.expr.str(), "s0 < s1");
  EXPECT_EQ(g.where.node, "add_3");
  EXPECT_EQ(g.where.op, "aten.add.Tensor");
  EXPECT_EQ(g.where.source, "samples/models/Bert.cpp:88");
  EXPECT_EQ(g.where.module, "encoder.layer.0");
  EXPECT_EQ(g.reason, "stride order (s0 vs s1)");
  // A false answer records the negation; asking again does not add a guard.
  EXPECT_FALSE(symEq(s0, 64, "is the batch 64"));
  EXPECT_FALSE(symEq(s0, 64, "is the batch 64"));
  ASSERT_EQ(env->guards().size(), 2u);
  EXPECT_EQ(env->guards()[1].expr.str(), "Ne(s0, 64)");
  EXPECT_EQ(env->guards()[1].count, 2);
}

TEST(ShapeEnv, EqualitiesBecomeReplacements) {
  auto env = ShapeEnv::create({.duckSizing = false});
  SymInt a = env->createSize(8, "x.size(0)"), b = env->createSize(8, "y.size(0)");
  SymInt c = env->createSize(128, "x.size(1)");
  env->setContext({"trace", "add", "aten.add.Tensor", "m.cpp:3", "", {}});
  auto shape = broadcastShapes({a, c}, {b, c});  // broadcasting s0 against s1 unifies them
  EXPECT_EQ(shape[0].str(), "s0");
  EXPECT_EQ(b.str(), "s0");  // s1 -> s0 applies to SymInts made before the replacement
  ASSERT_EQ(env->replacements().size(), 1u);
  EXPECT_EQ(env->replacements().at(1).str(), "s0");
  ASSERT_EQ(env->specializations().size(), 1u);
  EXPECT_EQ(env->specializations()[0].kind, "unified");
  EXPECT_EQ(env->specializations()[0].symbol, "s1");
  EXPECT_EQ(env->specializations()[0].where.node, "add");
  // Equal to a constant: specialized.
  EXPECT_TRUE(symEq(c, 128, "hidden size"));
  EXPECT_EQ(c.str(), "128");
  EXPECT_EQ(env->specializations().back().kind, "constant");
  const size_t guards = env->guards().size();
  EXPECT_TRUE(symEq(b, a, "again"));  // settled by the replacement, no new guard
  EXPECT_EQ(env->guards().size(), guards);
}

TEST(ShapeEnv, BroadcastReasonsNameTheOperands) {
  // [s0, 1, s1] + [s0, 12, 128]: dim 2 broadcasts s1 against 128, which pins s1; the guard says
  // which arguments of which node asked.
  auto env = ShapeEnv::create();
  GraphBuilder b;
  b.setBeforeMeta([&](const Node& n) {
    std::vector<std::string> args;
    forEachNodeRef(n, [&](NodeRef r) { args.push_back(b.graph().node(r).name); });
    env->setContext({"trace", n.name, n.target, n.provenance.source, n.provenance.module, args});
  });
  SymInt batch = env->createSize(8, "mask.size(0)"), seq = env->createSize(128, "mask.size(2)");
  NodeRef mask = b.input("mask", fakeTensor(DType::Float32, {batch, 1, seq}));
  NodeRef scores = b.input("scores", fakeTensor(DType::Float32, {env->createSize(8, "scores.size(0)"), 12, 128}));
  (void)b.call("aten.add.Tensor", {mask, scores});
  ASSERT_FALSE(env->guards().empty());
  const Guard& g = env->guards().back();
  EXPECT_EQ(g.expr.str(), "Eq(s1, 128)");
  EXPECT_EQ(g.reason, "broadcast: dim 2 of %mask (s1) vs dim 2 of %scores (128)");
  EXPECT_EQ(env->specializations().back().kind, "constant");
  EXPECT_EQ(g.where.argNames, (std::vector<std::string>{"mask", "scores"}));
}

TEST(ShapeEnv, MixingEnvironmentsIsAnError) {
  auto e1 = ShapeEnv::create(), e2 = ShapeEnv::create();
  SymInt a = e1->createSize(8, "x.size(0)"), b = e2->createSize(8, "y.size(0)");
  EXPECT_THROW((void)(a + b), OpError);
}

std::vector<GuardedInput> bertLike(const std::shared_ptr<ShapeEnv>& env) {
  SymInt b = env->createSize(8, "input_ids.size(0)"), s = env->createSize(128, "input_ids.size(1)");
  SymInt mb = env->createSize(8, "mask.size(0)"), ms = env->createSize(128, "mask.size(1)");
  return {{"input_ids", {b, s}}, {"mask", {mb, ms}}, {"weight", {SymInt(768), SymInt(768)}}};
}

TEST(GuardSet, ChecksInputsAndListsEveryFailure) {
  auto env = ShapeEnv::create();
  auto inputs = bertLike(env);
  env->setContext({"trace", "view_3", "aten.view.default", "samples/models/Bert.cpp:40", "encoder.layer.0.attention", {}});
  EXPECT_TRUE(symEq(mod(inputs[0].sizes[1], 2), 0, "view: inferred dim divides"));
  EXPECT_TRUE(symLt(inputs[0].sizes[1], 512, "position embeddings cover the sequence"));
  auto set = GuardSet::compile(*env, inputs);
  ASSERT_TRUE(set.ok()) << set.error().message;
  EXPECT_TRUE(set->check({{8, 128}, {8, 128}, {768, 768}}));
  EXPECT_TRUE(set->check({{4, 64}, {4, 64}, {768, 768}}));
  EXPECT_FALSE(set->check({{4, 64}, {4, 65}, {768, 768}}));  // duck-sized dims disagree
  EXPECT_FALSE(set->check({{1, 64}, {1, 64}, {768, 768}}));  // s0 >= 2
  EXPECT_FALSE(set->check({{4, 64}, {4, 64}, {768, 512}}));  // static size
  EXPECT_FALSE(set->check({{4, 64}, {4, 64}}));              // input count

  auto failures = set->failures({{1, 601}, {1, 601}, {768, 768}});
  ASSERT_EQ(failures.size(), 3u);  // s0 >= 2, Mod(s1, 2) == 0, s1 < 512: all of them
  EXPECT_EQ(failures[0].kind, "range");
  EXPECT_EQ(failures[0].expr, "s0 >= 2");
  EXPECT_EQ(failures[0].actual, "s0 = 1");
  EXPECT_EQ(failures[0].input, "input_ids");  // the input that binds s0: its placeholder is the provenance
  EXPECT_EQ(failures[1].kind, "guard");
  EXPECT_EQ(failures[1].input, "");  // a recorded guard has its own provenance
  EXPECT_EQ(failures[1].expr, "Eq(Mod(s1, 2), 0)");
  EXPECT_EQ(failures[1].where.node, "view_3");
  EXPECT_EQ(failures[1].where.source, "samples/models/Bert.cpp:40");
  EXPECT_EQ(failures[1].actual, "s1 = 601");
  EXPECT_EQ(failures[2].expr, "s1 < 512");
  auto staticMiss = set->failures({{4, 64}, {4, 64}, {768, 512}});
  ASSERT_EQ(staticMiss.size(), 1u);
  EXPECT_EQ(staticMiss[0].kind, "static");
  EXPECT_EQ(staticMiss[0].expr, "weight.size(1) == 768");
  EXPECT_EQ(staticMiss[0].actual, "weight.size(1) = 512");
  EXPECT_EQ(staticMiss[0].input, "weight");
}

TEST(GuardSet, ReplacedSymbolsCarryTheirProvenance) {
  auto env = ShapeEnv::create({.duckSizing = false});
  SymInt a = env->createSize(8, "x.size(0)"), b = env->createSize(8, "y.size(0)");
  env->setContext({"trace", "add", "aten.add.Tensor", "m.cpp:9", "", {}});
  (void)broadcastShapes({a}, {b});
  auto set = GuardSet::compile(*env, {{"x", {a}}, {"y", {b}}});
  ASSERT_TRUE(set.ok()) << set.error().message;
  auto f = set->failures({{8}, {9}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, "specialization");
  EXPECT_EQ(f[0].expr, "y.size(0) == s0");
  EXPECT_EQ(f[0].where.source, "m.cpp:9");
}

TEST(GuardSet, GuardOverAnUnboundSymbolIsAnError) {
  auto env = ShapeEnv::create();
  SymInt a = env->createSize(8, "x.size(0)"), b = env->createSize(9, "y.size(0)");
  EXPECT_TRUE(symLt(a, b, "order"));
  auto set = GuardSet::compile(*env, {{"x", {a}}});
  ASSERT_FALSE(set.ok());
  EXPECT_NE(set.error().message.find("names s1, which no input binds"), std::string::npos) << set.error().message;
}

}  // namespace
}  // namespace fathom::sym
