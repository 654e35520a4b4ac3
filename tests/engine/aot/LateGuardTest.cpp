// Backward timing and late guards: a test op whose derivative adds a guard (it views the
// gradient in halves, so the batch size must be even). Compiled eagerly, that guard joins the
// guard set before the first call returns; compiled lazily, it arrives after the forward's
// guards were installed and is reported as a late guard, with its provenance.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <mutex>

#include "engine/aot/AotCompile.h"
#include "engine/autograd/Formula.h"
#include "engine/core/TraceLog.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"
#include "tests/engine/IdentityTestOp.h"

namespace fathom::aot {
namespace {

using frontend::SymValue;
using frontend::Tensor;

// test.pairs(x) = x; its backward views the gradient as [n // 2, 2, ...] and back.
void registerPairsOp() {
  static std::once_flag once;
  std::call_once(once, [] {
    testing::registerIdentityTestOp("test::pairs(Tensor self) -> Tensor");
    autograd::registerDerivative("test.pairs.default", [](autograd::GradContext& c) {
      if (!c.needs(0)) return;
      const Tensor& g = c.grad();
      frontend::SymValues halves = g.sizes();
      const SymValue n = halves[0];
      halves[0] = frontend::floorDiv(n, 2);
      halves.insert(halves.begin() + 1, SymValue(2));
      c.set(0, frontend::view(frontend::view(g, halves), c.sizes(0)));
    });
  });
}

class PairsModel : public frontend::Model {
 public:
  PairsModel() : w_(addParameter("w", {4}, frontend::Init::normal())) {}
  std::vector<ExampleInput> inputSpecs() const override { return {frontend::inputSpec("x", DType::Float32, {8, 4})}; }
  std::vector<Tensor> forward(const std::vector<Tensor>& in) override {
    return {frontend::callOp1("test.pairs.default", {frontend::mul(in[0], w_.tensor())})};
  }

 private:
  frontend::Parameter& w_;
};

AotOptions dynamicWith(BackwardTiming timing) {
  AotOptions o;
  o.shapes.dynamic = true;
  o.backward = timing;
  return o;
}

TEST(AotBackwardTiming, EagerBackwardCompileInstallsEveryGuard) {
  registerPairsOp();
  PairsModel model;
  auto c = aotCompile(model, dynamicWith(BackwardTiming::Eager));
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->lateGuards.empty());
  EXPECT_EQ(c->installedGuards, c->env->guards().size());
  bool backwardGuard = false;
  for (const auto& g : c->env->guards()) backwardGuard = backwardGuard || g.where.stage == "aot-backward";
  EXPECT_TRUE(backwardGuard) << "the derivative's view should have added a guard while the backward was traced";
}

TEST(AotBackwardTiming, LazyBackwardReportsTheLateGuardWithProvenance) {
  registerPairsOp();
  PairsModel model;
  auto c = aotCompile(model, dynamicWith(BackwardTiming::Lazy));
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_FALSE(c->lateGuards.empty());
  const LateGuard& g = c->lateGuards.front();
  EXPECT_EQ(g.where.stage, "aot-backward");
  EXPECT_EQ(g.where.op, "aten.view.default");
  EXPECT_NE(g.where.source.find("tests/engine/aot/LateGuardTest.cpp:"), std::string::npos) << g.where.source;
  EXPECT_NE(g.expr.find("s0"), std::string::npos) << g.expr;
  EXPECT_LT(c->installedGuards, c->env->guards().size());
}

// In the trace log, the late guard names the node, op and module it came from (a viewer selects
// that node), and the compile's events carry the caller's fields: the dump it is written to.
TEST(AotBackwardTiming, TraceLogNamesTheLateGuardsNodeAndTheDump) {
  registerPairsOp();
  PairsModel model;
  const std::string path = ::testing::TempDir() + "late-guard.jsonl";
  std::remove(path.c_str());
  auto log = TraceLog::open(path);
  ASSERT_TRUE(log.ok()) << log.error().str();
  AotOptions o = dynamicWith(BackwardTiming::Lazy);
  o.shapes.log = &*log;
  o.shapes.compileContext.dump = "/tmp/pairs.fathom.json";
  auto c = aotCompile(model, o);
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_FALSE(c->lateGuards.empty());
  nlohmann::json late, end;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);
    if (j["event"] == "late_guard" && late.is_null()) late = j;
    if (j["event"] == "compile_end") end = j;
  }
  ASSERT_FALSE(late.is_null());
  EXPECT_EQ(late["node"], c->lateGuards.front().where.node);
  EXPECT_FALSE(late["node"].get<std::string>().empty());
  EXPECT_EQ(late["op"], "aten.view.default");
  EXPECT_TRUE(late.contains("module") && late.contains("source"));
  EXPECT_EQ(end["dump"], "/tmp/pairs.fathom.json");
}

TEST(AotBackwardTiming, StaticShapesHaveNoGuardsToBeLate) {
  registerPairsOp();
  PairsModel model;
  AotOptions o;
  o.backward = BackwardTiming::Lazy;
  auto c = aotCompile(model, o);
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->lateGuards.empty());
}

}  // namespace
}  // namespace fathom::aot
