// The PyTorch oracle's elementwise and reduction cases (tests/oracle/fixtures, PyTorch 1.13)
// through the jit: each case's one-op graph, its call node given the meta the op's meta function
// computes (what a trace records), compiled; where the op is generated (not left eager), the
// generated kernel's results must match PyTorch's: layout exactly, values within torch.testing's
// tolerance (float32 exp, log, tanh and erf are polynomials here: a few ulp, so 4e-6 relative).
#include <gtest/gtest.h>

#include <fstream>

#include "engine/dump/Dump.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/ops/OpArgs.h"
#include "tests/engine/jit/JitTestSupport.h"
#include "tests/engine/oracle/OracleCase.h"

namespace fathom {
namespace {

using oracle::json;

// The call node's meta, as a trace would record it.
Status recordMeta(Graph& g) {
  for (Node& n : g.mutableNodes()) {
    if (n.kind != NodeKind::Call || !n.op) continue;
    auto bound = bindArguments(n.op->schema, n.args, n.kwargs);
    FATHOM_TRY(bound);
    for (Value& a : *bound)
      if (const auto* r = a.tryAs<NodeRef>()) a = g.node(*r).val;
    auto meta = callMeta(*n.op, *bound);
    FATHOM_TRY(meta);
    n.val = meta->size() == 1 ? (*meta)[0] : Value(*meta);
  }
  return {};
}

struct Tally {
  int cases = 0, generated = 0;
};

// "" when the case matches PyTorch through the jit (or is not generated); else what differs.
std::string checkCase(const json& c, Tally* tally) {
  auto dump = parseDump(oracle::caseDump(c).dump(), c.at("case").get<std::string>());
  if (!dump.ok()) return "";  // refused at load: the oracle test covers it
  Graph& g = dump->graphs.at(0).graph;
  if (!recordMeta(g).ok()) return "";  // the op refuses these inputs: an error case
  auto compiled = CompiledGraph::compile(g, {});
  if (!compiled.ok()) return "compile: " + compiled.error().str();
  ++tally->cases;
  if ((*compiled)->generatedKernels() == 0) return "";
  ++tally->generated;
  auto inputs = materializeInputs(dump->inputs.at(0).second);
  if (!inputs.ok()) return "inputs: " + inputs.error().str();
  auto outs = (*compiled)->run(*inputs);
  if (!outs.ok()) return "run: " + outs.error().str();
  json tol = c.value("tol", json());
  if (!tol.is_array()) {
    auto [rtol, atol] = oracle::defaultTolerance(DType::Float32);
    tol = json::array({std::max(rtol, 4e-6), atol});
  }
  std::string why;
  for (size_t i = 0; i < c.at("outputs").size() && i < outs->size(); ++i) {
    const json& want = c["outputs"][i];
    const auto* t = (*outs)[i].tryAs<Tensor>();
    if (want.is_null() || !t) continue;
    const json caseTol = want.at("dtype") == "float32" ? tol : c.value("tol", json());
    why += oracle::compareTensor(*t, want, caseTol);
  }
  return why;
}

TEST(JitOracle, ElementwiseAndReductionCasesMatchPyTorch) {
  FATHOM_SKIP_WITHOUT_JIT();
  Tally tally;
  int bad = 0;
  for (const char* family : {"elementwise", "activations", "math", "division", "masks", "reductions", "nn"}) {
    std::ifstream in(oracle::fixtureDir() / (std::string(family) + ".jsonl"));
    ASSERT_TRUE(in) << family;
    std::string line;
    while (std::getline(in, line)) {
      const json c = json::parse(line);
      if (c.contains("error") || c.value("multi", false) || c.contains("mutated")) continue;
      const std::string why = checkCase(c, &tally);
      if (!why.empty() && bad++ < 10) ADD_FAILURE() << c.at("case").get<std::string>() << ": " << why;
    }
  }
  std::printf("jit oracle: %d of %d cases through generated kernels, %d differ from PyTorch\n", tally.generated,
              tally.cases, bad);
  EXPECT_EQ(bad, 0);
  EXPECT_GE(tally.generated, 300);
}

}  // namespace
}  // namespace fathom
