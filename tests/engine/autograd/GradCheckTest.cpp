// Finite-difference checks of every derivative formula (GradCheck.h): one test per case, and a
// coverage test so a new formula cannot land without a case.
#include <gtest/gtest.h>

#include <set>

#include "engine/autograd/Formula.h"
#include "tests/engine/autograd/GradCheck.h"

namespace fathom::testing {
namespace {

std::vector<GradCase> allCases() {
  std::vector<GradCase> all;
  for (auto family : {pointwiseGradCases, mathGradCases, backwardGradCases, reductionGradCases, matmulGradCases, shapeGradCases,
                      nnGradCases, activationGradCases, scatterGradCases}) {
    auto cases = family();
    all.insert(all.end(), cases.begin(), cases.end());
  }
  return all;
}

}  // namespace

void PrintTo(const GradCase& c, std::ostream* os) { *os << c.op << " (" << c.label << ")"; }

namespace {

class FormulaGradCheck : public ::testing::TestWithParam<GradCase> {};

// The formula's vector-Jacobian product matches central differences of the op itself.
TEST_P(FormulaGradCheck, MatchesFiniteDifferences) {
  const GradCase& c = GetParam();
  EXPECT_EQ(gradCheck(c), "") << c.op << " (" << c.label << ")";
}

std::string caseName(const ::testing::TestParamInfo<GradCase>& info) {
  std::string name = info.param.op.substr(5) + "_" + std::to_string(info.index);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(GradCheck, FormulaGradCheck, ::testing::ValuesIn(allCases()), caseName);

// Every op with a built-in derivative formula has at least one gradient-check case. (Only aten
// ops: other tests register formulas for their own test ops in the same registry.)
TEST(GradCheckCoverage, EveryFormulaHasACase) {
  std::set<std::string> covered;
  for (const auto& c : allCases()) covered.insert(c.op);
  int formulas = 0;
  for (const auto& op : autograd::differentiableOps()) {
    if (!op.starts_with("aten.")) continue;
    ++formulas;
    EXPECT_TRUE(covered.count(op)) << op << " has no gradcheck case";
  }
  EXPECT_GT(formulas, 0);
}

// The harness is not vacuous: a formula off by a factor fails, and so does a case whose last
// recorded op is not the op it names.
TEST(GradCheckCoverage, WrongFormulaIsCaught) {
  GradCase c{"aten.alias.default", "", {real({3})},
             [](const TensorList& x) { return one(frontend::callOp1("aten.alias.default", {x[0]})); }};
  EXPECT_EQ(gradCheck(c), "");
  const autograd::Formula right = *autograd::findDerivative(c.op);
  autograd::registerDerivative(c.op, [](autograd::GradContext& g) { g.set(0, frontend::mul(g.grad(), 2.0)); });
  const std::string wrong = gradCheck(c);
  autograd::registerDerivative(c.op, right);
  EXPECT_NE(wrong.find("analytical"), std::string::npos) << wrong;
  c.op = "aten.clone.default";
  EXPECT_NE(gradCheck(c).find("made by aten.alias.default"), std::string::npos);
}

}  // namespace
}  // namespace fathom::testing
