// Inputs the dump-reader fuzzer (tests/fuzz) once crashed on, kept in
// tests/data/fuzz-regressions/ and named after the bug. Each must load or fail with an error,
// never crash; one that loads must round-trip (serialize(parse(serialize(d))) == serialize(d)).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "tests/TestDataDir.h"

namespace fathom {
namespace {

const std::filesystem::path kDir = std::filesystem::path(FATHOM_TEST_DATA_DIR) / "tests/data/fuzz-regressions";

std::vector<std::string> regressionFiles() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(kDir))
    if (e.is_regular_file()) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class DumpFuzzRegression : public testing::TestWithParam<std::string> {};

// The input loads or is rejected with an error naming the input, and a loaded one round-trips.
TEST_P(DumpFuzzRegression, LoadsOrFailsCleanly) {
  auto text = readFile((kDir / GetParam()).string());
  ASSERT_TRUE(text.ok()) << text.error().str();
  auto dump = parseDump(*text, GetParam());
  if (!dump.ok()) {
    EXPECT_EQ(dump.error().code, ErrorCode::InvalidInput);
    EXPECT_NE(dump.error().str().find(GetParam()), std::string::npos) << dump.error().str();
    return;
  }
  const std::string first = serializeDump(*dump);
  auto again = parseDump(first, GetParam() + " (serialized)");
  ASSERT_TRUE(again.ok()) << again.error().str();
  EXPECT_EQ(serializeDump(*again), first);
}

INSTANTIATE_TEST_SUITE_P(Inputs, DumpFuzzRegression, testing::ValuesIn(regressionFiles()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace fathom
