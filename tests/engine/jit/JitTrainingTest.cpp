// Training steps through the jit: every sample model's AOT forward and backward graphs (static
// and dynamic, dropout and batch-norm statistics on) run with the jit as the graph runner match
// the same step on the eager interpreter - outputs, gradients and updated buffers, layouts
// exactly, values within 1e-4 of each value's largest element.
#include <gtest/gtest.h>

#include "engine/aot/AotCompile.h"
#include "engine/aot/TrainingStep.h"
#include "engine/jit/JitBackend.h"
#include "samples/models/Models.h"
#include "tests/engine/aot/SampleTrainingCases.h"
#include "tests/engine/jit/JitTestSupport.h"

namespace fathom {
namespace {

using Case = testing::TrainingCase;

void expectSameValues(const ValueList& got, const ValueList& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) testing::expectSameValue(got[i], want[i], what + " " + std::to_string(i), 1e-4, 1e-5);
}

class JitTraining : public ::testing::TestWithParam<Case> {};

TEST_P(JitTraining, StepMatchesEager) {
  FATHOM_SKIP_WITHOUT_JIT();
  const Case& c = GetParam();
  auto model = models::buildModel(c.model, c.options);
  ASSERT_TRUE(model.ok()) << model.error().message;
  aot::AotOptions o;
  o.shapes.dynamic = c.dynamic;
  auto compiled = aot::aotCompile(**model, o);
  ASSERT_TRUE(compiled.ok()) << compiled.error().message;
  const aot::JointGraph& j = compiled->joint;
  const PartitionInfo& info = *compiled->dump.partition;
  const Graph& fwd = *compiled->dump.graph("forward");
  const Graph& bwd = *compiled->dump.graph("backward");
  auto split = [&](const ValueList& all) {
    return std::pair{ValueList(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(j.numPrimals)),
                     ValueList(all.begin() + static_cast<std::ptrdiff_t>(j.numPrimals), all.end())};
  };
  auto first = materializeInputs(j.inputs), second = materializeInputs(j.inputs);  // runs write buffers
  ASSERT_TRUE(first.ok() && second.ok());
  auto [primals, tangents] = split(*first);
  auto [primals2, tangents2] = split(*second);
  JitRun stats;
  auto jit = aot::runPartitioned(fwd, bwd, info, primals, tangents, jitGraphRunner({}, &stats));
  ASSERT_TRUE(jit.ok()) << jit.error().str();
  auto eager = aot::runPartitioned(fwd, bwd, info, primals2, tangents2);
  ASSERT_TRUE(eager.ok()) << eager.error().str();
  expectSameValues(jit->outputs, eager->outputs, "output");
  expectSameValues(jit->grads, eager->grads, "grad");
  expectSameValues(jit->updatedInputs, eager->updatedInputs, "updated input");
  EXPECT_EQ(stats.graphs, 2);
  EXPECT_GT(stats.generated, 0) << "no kernel generated";
}

INSTANTIATE_TEST_SUITE_P(Samples, JitTraining, ::testing::ValuesIn(testing::sampleTrainingCases()), testing::trainingCaseName);

}  // namespace
}  // namespace fathom
