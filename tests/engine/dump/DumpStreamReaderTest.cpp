// parseDump reads valid dumps on a streaming fast path and falls back to the DOM reader on
// anything else; the two must never disagree. For every dump-like file in the repository, the
// result of parseDump (either path) must equal that of the DOM reader alone: both load and
// serialize to the same bytes, or both fail with the same error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/aot/AotCompile.h"
#include "engine/dump/Dump.h"
#include "engine/dump/DumpStreamReader.h"
#include "samples/models/Models.h"
#include "tests/TestDataDir.h"

namespace fathom {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> jsonFiles() {
  const fs::path root(FATHOM_TEST_DATA_DIR);
  std::vector<std::string> out;
  for (const char* dir : {"samples", "samples/bad", "samples/bad-run", "tests/data"}) {
    if (!fs::is_directory(root / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / dir))
      if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(fs::relative(e.path(), root).string());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());  // samples/ includes samples/bad/
  return out;
}

TEST(DumpStreamReader, SameResultAsDomReaderForEveryRepositoryFile) {
  const auto files = jsonFiles();
  ASSERT_GT(files.size(), 20u);
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    // Labelled by full path: side files (tests/data/torch-*.fathom.bin) are found next to it.
    const std::string path = (fs::path(FATHOM_TEST_DATA_DIR) / file).string();
    auto text = readFile(path);
    ASSERT_TRUE(text.ok()) << text.error().str();
    auto streamed = parseDump(*text, path);
    auto dom = dumpread::parseDumpDomOnly(*text, path);
    ASSERT_EQ(streamed.ok(), dom.ok()) << (streamed.ok() ? dom.error().str() : streamed.error().str());
    if (streamed.ok()) {
      EXPECT_EQ(serializeDump(*streamed), serializeDump(*dom));
    } else {
      EXPECT_EQ(streamed.error().str(), dom.error().str());
      EXPECT_EQ(streamed.error().code, dom.error().code);
    }
  }
}

// The fast path must stay the path of the usual dumps, AOT partitions included (they were sent
// to the DOM reader once); only symbolic dumps need the DOM reader's order.
TEST(DumpStreamReader, StreamsUsualDumpsAndLeavesSymbolicOnesToTheDomReader) {
  for (const char* file : {"samples/mlp.fathom.json", "samples/bert.fathom.json", "tests/data/torch-mlp-aot.fathom.json"}) {
    SCOPED_TRACE(file);
    auto text = readFile((fs::path(FATHOM_TEST_DATA_DIR) / file).string());
    ASSERT_TRUE(text.ok());
    EXPECT_TRUE(dumpread::streamDump(dumpread::ParsedJson(*text, 64)).has_value());
  }
  // A static AOT trace: joint, forward, backward and the partition.
  auto model = models::buildModel("mlp", {.layers = 2, .batch = 4});
  ASSERT_TRUE(model.ok());
  auto compiled = aot::aotCompile(**model, {});
  ASSERT_TRUE(compiled.ok()) << compiled.error().message;
  ASSERT_TRUE(compiled->dump.partition != nullptr);
  const std::string aotText = serializeDump(compiled->dump);
  EXPECT_TRUE(dumpread::streamDump(dumpread::ParsedJson(aotText, 64)).has_value());
  auto fast = parseDump(aotText, "aot.fathom.json");
  auto dom = dumpread::parseDumpDomOnly(aotText, "aot.fathom.json");
  ASSERT_TRUE(fast.ok() && dom.ok());
  EXPECT_EQ(serializeDump(*fast), serializeDump(*dom));
  EXPECT_EQ(serializeDump(*fast), aotText);
  auto symbolic = readFile((fs::path(FATHOM_TEST_DATA_DIR) / "tests/data/mlp-dynamic.fathom.json").string());
  ASSERT_TRUE(symbolic.ok());
  EXPECT_FALSE(dumpread::streamDump(dumpread::ParsedJson(*symbolic, 64)).has_value());
}

}  // namespace
}  // namespace fathom
