// Whole-file reads do not trust st_size, and atomic writes leave no partial file.
#include <gtest/gtest.h>

#include "engine/dump/Dump.h"

namespace fathom {
namespace {

// Regression: readFile sized its buffer from stat(), so pipes (`--inputs <(...)`) and /proc
// files, which report size 0, read as empty.
TEST(FileIOTest, ReadsFilesThatReportSizeZero) {
  auto text = readFile("/proc/self/status");
  ASSERT_TRUE(text.ok()) << text.error().str();
  EXPECT_NE(text->find("Name:"), std::string::npos);
}

TEST(FileIOTest, DirectoriesAndMissingFilesAreErrors) {
  auto dir = readFile("/tmp");
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().str(), "/tmp: is a directory, not a file");
  EXPECT_FALSE(readFile("/nonexistent/file").ok());
  EXPECT_FALSE(writeFileAtomically("/nonexistent/dir/out.json", "x").ok());
}

}  // namespace
}  // namespace fathom
