// Functionalization's refusals (a graph whose backward cannot be formed must say which node and
// why) and its rewrite of a written graph input into a mutation output.
#include <gtest/gtest.h>

#include "engine/aot/Functionalize.h"
#include "engine/graph/GraphBuilder.h"

namespace fathom::aot {
namespace {

JointGraph oneInput(GraphBuilder& b, NodeRef out) {
  b.output({out});
  JointGraph j;
  j.graph = b.graph();
  j.numPrimals = 1;
  j.numForwardOutputs = 1;
  return j;
}

TEST(Functionalize, WritingIntoAViewOfAnInputIsRefusedNamingTheNode) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {2, 3}));
  NodeRef t = b.call("aten.t.default", {x});
  NodeRef w = b.call("aten.bernoulli_.float", {t, 0.5});
  JointGraph j = oneInput(b, w);
  Status s = functionalize(j);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().where, "%bernoulli_");
  EXPECT_NE(s.error().message.find("writes into %t, a view of another tensor"), std::string::npos) << s.error().message;
}

TEST(Functionalize, InPlaceOpWithoutAFunctionalFormIsRefused) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {2, 3}));
  NodeRef w = b.call("aten.bernoulli_.float", {x, 0.5});
  JointGraph j = oneInput(b, w);
  Status s = functionalize(j);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("has no functional form (aten.bernoulli.float is not registered)"), std::string::npos)
      << s.error().message;
}

TEST(Functionalize, TrainingBatchNormWritesBecomeMutationOutputs) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3, 2, 2}));
  NodeRef mean = b.input("running_mean", fakeTensor(DType::Float32, {3}));
  NodeRef var = b.input("running_var", fakeTensor(DType::Float32, {3}));
  NodeRef bn = b.call("aten.native_batch_norm.default", {x, None{}, None{}, mean, var, true, 0.1, 1e-5});
  NodeRef out = b.getitem(bn, 0);
  b.output({out});
  JointGraph j;
  j.graph = b.graph();
  j.numPrimals = 3;
  j.numForwardOutputs = 1;
  ASSERT_TRUE(functionalize(j).ok());
  EXPECT_EQ(j.mutatedInputs, (std::vector<size_t>{1, 2}));
  ASSERT_EQ(j.outputs().size(), 3u);  // new running_mean, new running_var, the output
  EXPECT_TRUE(j.graph.verify().ok());
  bool functional = false;
  for (const Node& n : j.graph.nodes()) functional = functional || n.target == "aten._native_batch_norm_legit_functional.default";
  EXPECT_TRUE(functional);
}

TEST(Functionalize, EvalBatchNormIsLeftAlone) {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {4, 3, 2, 2}));
  NodeRef mean = b.input("running_mean", fakeTensor(DType::Float32, {3}));
  NodeRef var = b.input("running_var", fakeTensor(DType::Float32, {3}));
  NodeRef bn = b.call("aten.native_batch_norm.default", {x, None{}, None{}, mean, var, false, 0.1, 1e-5});
  b.output({b.getitem(bn, 0)});
  JointGraph j;
  j.graph = b.graph();
  j.numPrimals = 3;
  j.numForwardOutputs = 1;
  ASSERT_TRUE(functionalize(j).ok());
  EXPECT_TRUE(j.mutatedInputs.empty());
}

}  // namespace
}  // namespace fathom::aot
