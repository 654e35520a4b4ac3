// TraceLogRead: what TraceLog writes reads back field for field (a LogJson field as the JSON it
// holds - a recompile's failures - and as a string when it is not JSON); lines that are not events
// say why; deep nesting is refused before parsing.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "engine/core/TraceLog.h"
#include "engine/dump/TraceLogRead.h"

namespace fathom {
namespace {

TEST(TraceLogRead, ReadsBackWhatTraceLogWrites) {
  const std::string path = ::testing::TempDir() + "tracelog-read.jsonl";
  std::remove(path.c_str());
  {
    auto log = TraceLog::open(path);
    ASSERT_TRUE(log.ok()) << log.error().str();
    log->emit("recompile", 3, "compile",
              {{"call", std::string("8x1")}, {"entries", int64_t{2}}, {"ms", 1.5}, {"dynamic", true},
               {"nodes", std::vector<std::string>{"relu", "add"}},
               {"failures", LogJson{R"([{"entry": 0, "expr": "s0 >= 2", "input": "x"}])"}}, {"broken", LogJson{"{not json"}}});
    EXPECT_EQ(log->eventCount(), 1);
  }
  std::ifstream in(path);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  auto v = readTraceLogLine(line);
  ASSERT_TRUE(v.ok()) << v.error().str();
  ASSERT_EQ(v->kind, TraceValue::Kind::Object);
  EXPECT_EQ(v->fields[0].key, "event");  // the line's order
  EXPECT_EQ(v->find("event")->text(), "recompile");
  EXPECT_EQ(v->find("compile_id")->integer, 3);
  EXPECT_EQ(v->find("call")->text(), "8x1");
  EXPECT_EQ(v->find("entries")->kind, TraceValue::Kind::Integer);
  EXPECT_DOUBLE_EQ(v->find("ms")->number, 1.5);
  EXPECT_TRUE(v->find("dynamic")->flag);
  ASSERT_EQ(v->find("nodes")->items.size(), 2u);
  EXPECT_EQ(v->find("nodes")->items[1].text(), "add");
  const TraceValue* failures = v->find("failures");
  ASSERT_TRUE(failures && failures->kind == TraceValue::Kind::List && failures->items.size() == 1);
  EXPECT_EQ(failures->items[0].find("input")->text(), "x");
  EXPECT_EQ(failures->items[0].find("entry")->integer, 0);
  EXPECT_EQ(v->find("nodes")->text(), R"(["relu","add"])");  // non-strings: their JSON text
  EXPECT_EQ(v->find("missing"), nullptr);
  EXPECT_EQ(v->find("broken")->kind, TraceValue::Kind::String);
  EXPECT_EQ(v->find("broken")->text(), "{not json");
}

TEST(TraceLogRead, LinesThatAreNotEventsSayWhy) {
  EXPECT_NE(readTraceLogLine("{\"event\": \"comp").error().message.find("not JSON"), std::string::npos);
  EXPECT_NE(readTraceLogLine("[1, 2]").error().message.find("not an event"), std::string::npos);
  EXPECT_NE(readTraceLogLine("{\"event\": 3}").error().message.find("not an event"), std::string::npos);
  const std::string deep = "{\"event\": \"x\", \"a\": " + std::string(100, '[') + std::string(100, ']') + "}";
  EXPECT_FALSE(readTraceLogLine(deep).ok());
}

}  // namespace
}  // namespace fathom
