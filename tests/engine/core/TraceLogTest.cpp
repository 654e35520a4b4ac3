// TraceLog writes one JSON object per line; a LogJson field is written as JSON (the recompile's
// failing guards as objects a viewer reads field by field), and text that is not JSON is kept as
// a string rather than lost or thrown.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engine/core/TraceLog.h"

namespace fathom {
namespace {

std::vector<nlohmann::json> readLines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(TraceLog, JsonFieldsAreWrittenAsJsonAndBadJsonAsText) {
  const std::string path = ::testing::TempDir() + "tracelog-json.jsonl";
  std::remove(path.c_str());
  {
    auto log = TraceLog::open(path);
    ASSERT_TRUE(log.ok()) << log.error().str();
    log->emit("recompile", 2, "compile",
              {{"call", std::string("8x1")}, {"failures", LogJson{R"([{"expr": "s0 >= 2", "node": "", "input": "x"}])"}},
               {"broken", LogJson{"{not json"}}});
    EXPECT_EQ(log->eventCount(), 1);
  }
  const auto lines = readLines(path);
  ASSERT_EQ(lines.size(), 1u);
  const auto& j = lines.front();
  EXPECT_EQ(j["event"], "recompile");
  EXPECT_EQ(j["compile_id"], 2);
  ASSERT_TRUE(j["failures"].is_array());
  EXPECT_EQ(j["failures"][0]["input"], "x");
  EXPECT_EQ(j["broken"], "{not json");
}

}  // namespace
}  // namespace fathom
