// parseDump reads valid dumps on a streaming fast path and falls back to the DOM reader on
// anything else; the two must never disagree. For every dump-like file in the repository, the
// result of parseDump (either path) must equal that of the DOM reader alone: both load and
// serialize to the same bytes, or both fail with the same error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "engine/dump/DumpStreamReader.h"
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

}  // namespace
}  // namespace fathom
