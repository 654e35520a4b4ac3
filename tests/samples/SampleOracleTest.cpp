// Every bundled sample gives PyTorch's values: tests/oracle/samples/NAME.json holds what
// PyTorch 1.13's nn.functional modules compute on the inputs Fathom draws from the dump's seeds
// (tests/oracle/sample_refs.py). Whole models accumulate rounding differently (GEMM blocking,
// summation order), so values are compared with a model-level tolerance, and the largest
// difference is printed.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "samples/Samples.h"
#include "tests/TestDataDir.h"

namespace fathom {
namespace {

TEST(SampleOracleTest, SamplesMatchPyTorch) {
  for (const auto& sample : samples::allSamples()) {
    SCOPED_TRACE(sample.name);
    const std::string root = FATHOM_TEST_DATA_DIR;
    std::ifstream refFile(root + "/tests/oracle/samples/" + sample.name + ".json");
    ASSERT_TRUE(refFile) << "no PyTorch reference for sample " << sample.name
                         << " (run /usr/bin/python3 tests/oracle/generate.py samples)";
    const auto ref = nlohmann::json::parse(refFile);
    auto dump = loadDump(root + "/samples/" + sample.name + ".fathom.json");
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    auto inputs = materializeInputs(*dump->inputsFor("forward"));
    ASSERT_TRUE(inputs.ok()) << inputs.error().str();
    Interpreter interp(*dump->graph("forward"));
    auto outs = interp.run(std::move(*inputs));
    ASSERT_TRUE(outs.ok()) << outs.error().str();
    ASSERT_EQ(outs->size(), ref["outputs"].size());
    for (size_t i = 0; i < outs->size(); ++i) {
      const Tensor& t = (*outs)[i].as<Tensor>();
      const auto& want = ref["outputs"][i];
      ASSERT_EQ(t.sizes(), want["sizes"].get<IntList>());
      const auto& data = want["data"];
      ASSERT_EQ(static_cast<size_t>(t.numel()), data.size());
      double maxDiff = 0;
      int64_t bad = 0;
      for (int64_t k = 0; k < t.numel(); ++k) {
        const double got = t.atLinear(k), exp = data[static_cast<size_t>(k)].get<double>();
        const double diff = std::fabs(got - exp);
        maxDiff = std::max(maxDiff, diff);
        if (!(diff <= 1e-4 + 1e-4 * std::fabs(exp))) ++bad;
      }
      std::printf("%s output %zu: %lld values, max |fathom - torch| = %.3g\n", sample.name.c_str(), i,
                  static_cast<long long>(t.numel()), maxDiff);
      EXPECT_EQ(bad, 0) << bad << " values differ from PyTorch by more than 1e-4 (relative and absolute)";
    }
  }
}

}  // namespace
}  // namespace fathom
