// The exporters' templates are embedded at build time (cmake/EmbedText.cmake): what the binary
// writes must be the files' exact bytes, or an edit to a template would not reach the repros.
#include <gtest/gtest.h>

#include <string>

#include "engine/dump/Dump.h"
#include "minifier/Templates.h"
#include "tests/TestDataDir.h"

namespace fathom::minify {
namespace {

std::string file(const char* name) {
  auto text = readFile(std::string(FATHOM_TEST_DATA_DIR) + "/minifier/templates/" + name);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : std::string();
}

TEST(Templates, EmbeddedTextIsTheFiles) {
  EXPECT_EQ(templates::kPyTorchRuntime, file("pytorch_runtime.py"));
  EXPECT_EQ(templates::kGtestLayout, file("gtest_layout.inc"));
  EXPECT_EQ(templates::kGtestPin, file("gtest_pin.inc"));
  EXPECT_EQ(templates::kGtestAccuracy, file("gtest_accuracy.inc"));
  EXPECT_EQ(templates::kGtestChild, file("gtest_child.inc"));
  EXPECT_NE(std::string(templates::kPyTorchRuntime).find("def main("), std::string::npos);
}

}  // namespace
}  // namespace fathom::minify
