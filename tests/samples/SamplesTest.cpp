// The committed sample dumps are exactly what the sample builders produce today, they load,
// verify and run. (Regenerate one with `./fathom sample NAME -o samples/NAME.fathom.json --force`.)
#include "samples/Samples.h"

#include <gtest/gtest.h>

#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "tests/TestDataDir.h"

namespace fathom {
namespace {

TEST(SamplesTest, CommittedDumpsAreCurrent) {
  for (const auto& sample : samples::allSamples()) {
    auto built = sample.build();
    ASSERT_TRUE(built.ok()) << sample.name << ": " << built.error().str();
    const std::string path = std::string(FATHOM_TEST_DATA_DIR) + "/samples/" + sample.name + ".fathom.json";
    auto committed = readFile(path);
    ASSERT_TRUE(committed.ok()) << committed.error().str();
    EXPECT_EQ(serializeDump(*built), *committed)
        << path << " is stale: run ./fathom sample " << sample.name << " -o " << path << " --force";
  }
}

TEST(SamplesTest, SamplesLoadAndRun) {
  for (const auto& sample : samples::allSamples()) {
    const std::string path = std::string(FATHOM_TEST_DATA_DIR) + "/samples/" + sample.name + ".fathom.json";
    auto dump = loadDump(path);
    ASSERT_TRUE(dump.ok()) << dump.error().str();
    for (const auto& [name, graph] : dump->graphs) {
      auto spec = chooseInputs(dump->graph(name), name, dump->inputsFor(name), nullptr);
      ASSERT_TRUE(spec.ok()) << spec.error().str();
      auto inputs = materializeInputs(*spec);
      ASSERT_TRUE(inputs.ok()) << inputs.error().str();
      Interpreter interp(graph);
      auto out = interp.run(std::move(*inputs));
      ASSERT_TRUE(out.ok()) << sample.name << "/" << name << ": " << out.error().str();
      EXPECT_FALSE(out->empty());
    }
  }
}

}  // namespace
}  // namespace fathom
