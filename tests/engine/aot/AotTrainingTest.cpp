// AOT autograd on every sample, static and dynamic, with both partitioners: the partitioned
// forward + backward (aot_eager), the joint graph and the eager autograd engine agree on the
// outputs, every gradient and the updated running stats; min-cut saves no more than default.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/aot/AotCompile.h"
#include "engine/aot/TrainingStep.h"
#include "engine/interp/ExampleInputs.h"
#include "samples/models/Models.h"
#include "tests/engine/aot/SampleTrainingCases.h"

namespace fathom::aot {
namespace {

using Case = testing::TrainingCase;

::testing::AssertionResult close(const Value& a, const Value& b, const std::string& what) {
  if (a.isNone() && b.isNone()) return ::testing::AssertionSuccess();
  if (!a.is<Tensor>() || !b.is<Tensor>())
    return ::testing::AssertionFailure() << what << ": " << a.kindName() << " vs " << b.kindName();
  const Tensor& x = a.as<Tensor>();
  const Tensor& y = b.as<Tensor>();
  if (x.sizes() != y.sizes()) return ::testing::AssertionFailure() << what << ": sizes " << x.meta().str() << " vs " << y.meta().str();
  double scale = 0;
  for (int64_t i = 0; i < y.numel(); ++i) scale = std::max(scale, std::abs(y.atLinear(i)));
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double p = x.atLinear(i), q = y.atLinear(i);
    if (!(std::abs(p - q) <= 1e-4 * scale + 1e-5))
      return ::testing::AssertionFailure() << what << ": element " << i << ": " << p << " vs " << q << " (scale " << scale << ")";
  }
  return ::testing::AssertionSuccess();
}

void expectSameStep(const TrainingStep& got, const TrainingStep& want, const std::string& label) {
  ASSERT_EQ(got.outputs.size(), want.outputs.size()) << label;
  for (size_t i = 0; i < got.outputs.size(); ++i) EXPECT_TRUE(close(got.outputs[i], want.outputs[i], label + " output " + std::to_string(i)));
  ASSERT_EQ(got.grads.size(), want.grads.size()) << label;
  for (size_t i = 0; i < got.grads.size(); ++i) EXPECT_TRUE(close(got.grads[i], want.grads[i], label + " grad " + std::to_string(i)));
  ASSERT_EQ(got.updatedInputs.size(), want.updatedInputs.size()) << label;
  for (size_t i = 0; i < got.updatedInputs.size(); ++i)
    EXPECT_TRUE(close(got.updatedInputs[i], want.updatedInputs[i], label + " updated input " + std::to_string(i)));
}

class AotTraining : public ::testing::TestWithParam<Case> {};

TEST_P(AotTraining, PartitionedJointAndEagerAgree) {
  const Case& c = GetParam();
  int64_t savedBytes[2] = {0, 0};
  for (Partitioner p : {Partitioner::Default, Partitioner::MinCut}) {
    const std::string label = c.model + " " + std::string(partitionerName(p));
    auto model = models::buildModel(c.model, c.options);
    ASSERT_TRUE(model.ok()) << model.error().message;
    AotOptions o;
    o.shapes.dynamic = c.dynamic;
    o.partitioner = p;
    auto compiled = aotCompile(**model, o);
    ASSERT_TRUE(compiled.ok()) << label << ": " << compiled.error().message;
    const JointGraph& j = compiled->joint;
    const PartitionInfo& info = *compiled->dump.partition;
    savedBytes[p == Partitioner::MinCut] = info.savedBytes();
    EXPECT_EQ(info.gradInputs.size(), j.numPrimals);
    auto all = materializeInputs(j.inputs);
    ASSERT_TRUE(all.ok());
    const ValueList primals(all->begin(), all->begin() + static_cast<std::ptrdiff_t>(j.numPrimals));
    const ValueList tangents(all->begin() + static_cast<std::ptrdiff_t>(j.numPrimals), all->end());
    auto again = materializeInputs(j.inputs);  // fresh primals: runs write their buffers
    ASSERT_TRUE(again.ok());
    const ValueList primals2(again->begin(), again->begin() + static_cast<std::ptrdiff_t>(j.numPrimals));
    const size_t numParamsAndBuffers = (*model)->parameters().size() + (*model)->buffers().size();
    const ValueList modelInputs(primals.begin() + static_cast<std::ptrdiff_t>(numParamsAndBuffers), primals.end());

    auto eager = runEagerStep(**model, modelInputs, tangents, j.tangentOutputs, j.mutatedInputs);
    ASSERT_TRUE(eager.ok()) << label << ": " << eager.error().message;
    auto split = runPartitioned(*compiled->dump.graph("forward"), *compiled->dump.graph("backward"), info, primals, tangents);
    ASSERT_TRUE(split.ok()) << label << ": " << split.error().message;
    auto joint = runJoint(j, primals2, tangents);
    ASSERT_TRUE(joint.ok()) << label << ": " << joint.error().message;
    expectSameStep(*split, *eager, label + " aot_eager vs eager");
    expectSameStep(*joint, *eager, label + " joint vs eager");
    // The mutations were applied back into the inputs, as the runtime wrapper does.
    for (size_t k = 0; k < j.mutatedInputs.size(); ++k)
      EXPECT_TRUE(close(primals[j.mutatedInputs[k]], eager->updatedInputs[k], label + " running stat written back"));
  }
  EXPECT_LE(savedBytes[1], savedBytes[0]) << "min-cut saved more than default";
}

INSTANTIATE_TEST_SUITE_P(Samples, AotTraining, ::testing::ValuesIn(testing::sampleTrainingCases()), testing::trainingCaseName);

// Symbolic sizes the backward needs cross the partition as SymInts, not as the tensors they
// were read from.
TEST(AotPartition, DynamicShapesSaveSymInts) {
  for (Partitioner p : {Partitioner::Default, Partitioner::MinCut}) {
    auto model = models::buildModel("gpt2", {.layers = 1, .batch = 2, .seq = 8});
    ASSERT_TRUE(model.ok());
    AotOptions o;
    o.shapes.dynamic = true;
    o.partitioner = p;
    auto c = aotCompile(**model, o);
    ASSERT_TRUE(c.ok()) << c.error().message;
    size_t symInts = 0;
    for (const auto& s : c->dump.partition->saved) {
      if (!s.isSymInt) continue;
      ++symInts;
      EXPECT_TRUE(s.value.isSymbolic()) << s.name;
      EXPECT_EQ(s.bytes, 8);
      auto placeholder = c->dump.graph("backward")->find(s.name);
      ASSERT_TRUE(placeholder.has_value()) << s.name;
      EXPECT_TRUE(c->dump.graph("backward")->node(*placeholder).val.isInt());
    }
    EXPECT_GT(symInts, 0u) << partitionerName(p);
  }
}

TEST(AotPartition, StaticShapesSaveNoSymInts) {
  auto model = models::buildModel("gpt2", {.layers = 1, .batch = 2, .seq = 8});
  ASSERT_TRUE(model.ok());
  auto c = aotCompile(**model, {});
  ASSERT_TRUE(c.ok()) << c.error().message;
  for (const auto& s : c->dump.partition->saved) EXPECT_FALSE(s.isSymInt) << s.name;
}

TEST(AotFunctionalize, BatchNormRunningStatsAreMutationOutputs) {
  auto model = models::buildModel("resnet18", {.batch = 2, .seq = 32, .training = true});
  ASSERT_TRUE(model.ok());
  auto compiled = aotCompile(**model, {});
  ASSERT_TRUE(compiled.ok()) << compiled.error().message;
  const PartitionInfo& info = *compiled->dump.partition;
  // 20 batch norms, each with running_mean and running_var.
  EXPECT_EQ(info.mutatedInputs.size(), 40u);
  EXPECT_NE(info.mutatedInputs.front().find("running_mean"), std::string::npos);
  size_t functional = 0, inPlace = 0;
  for (const Node& n : compiled->dump.graph("forward")->nodes()) {
    functional += n.target == "aten._native_batch_norm_legit_functional.default";
    inPlace += n.target == "aten.native_batch_norm.default";
  }
  EXPECT_EQ(functional, 20u);
  EXPECT_EQ(inPlace, 0u);
}

}  // namespace
}  // namespace fathom::aot
