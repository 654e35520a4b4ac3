// TraceEvents: every kind, written through a TraceLog with no field at its default, reads back
// field for field from the line (the writer and the reader share each struct's field list); a
// recompile's failure is guardFailureJson's object plus its entry's compile; a field that is
// missing or of another type keeps its default.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <variant>

#include "engine/core/TraceEvents.h"
#include "engine/core/TraceLog.h"
#include "engine/dump/GuardJson.h"
#include "engine/dump/TraceLogRead.h"
#include "engine/frontend/ShapeTracing.h"
#include "engine/symbolic/GuardSet.h"

namespace fathom {
namespace {

// One of each kind, every field set (optionals too) and none at its default.
auto everyKind() {
  const TraceSite site{"view_1", "aten.view.default", "m.cpp:9", "enc.0"};
  const CompileContext context{"8x4", 2, "/d/a.fathom.json"};
  RecompileFailure failure{3, "guard", "Eq(s0, 8)", "s0 = 4", "x", "trace", "view_1", "aten.view.default", {"x", "y"},
                           "m.cpp:9", "enc.0", "view halves", 1, "/d/b.fathom.json"};
  return std::make_tuple(
      SymbolCreatedEvent{"s0", 8, "x.size(0)", "[2, inf]"}, GuardAddedEvent{{"Eq(Mod(s0, 2), 0)", site, "view halves"}},
      LateGuardEvent{{"s0 >= 4", site, "late"}},
      SpecializationEvent{"s1", "1", "zero-one", site, "y.size(1)", "y.size(1) is 1"},
      GuardCheckEvent{"consistency", "all guards", "sat", 3.5}, CompileStartEvent{true, "min-cut", "lazy", context},
      GraphCapturedEvent{"joint", 12, 3, 4, context}, CompileEndEvent{2.25, context}, GuardsInstalledEvent{5},
      PartitionEvent{"default", 3, 96, 7, 6, 0.5}, BackwardCompiledEvent{"first backward", 6},
      CacheHitEvent{"6x4", 1, "/d/a.fathom.json"},
      RecompileEvent{"3x4", 2, {"entry #3: Eq(s0, 8)  [guard]"}, {failure, failure}},
      KernelCompiledEvent{"forward", "pointwise_0", "pointwise", {"relu", "add"}, "llvm", "/d/a.fathom.json", "compiled", 12.5,
                          "not eager"},
      CompileAssumptionEvent{"forward", "x", {"s0", "4"}, {"4", "1"}, "pointwise_0", {"relu"}, "unchecked", "/d/a.fathom.json"});
}

// The fields as text, nested objects included: what two events are compared by.
std::string text(const std::vector<LogField>& fields) {
  std::string out;
  for (const auto& f : fields) {
    out += f.key + "=";
    std::visit([&](const auto& v) {
      using T = std::decay_t<decltype(v)>;
      if constexpr (std::is_same_v<T, std::string>) out += "'" + v + "'";
      else if constexpr (std::is_same_v<T, std::vector<std::string>>) for (const auto& s : v) out += "'" + s + "',";
      else if constexpr (std::is_same_v<T, LogJson>) out += v.text;
      else if constexpr (std::is_same_v<T, LogField::Objects>) for (const auto& o : v) out += "{" + text(o) + "}";
      else out += std::to_string(v);
    }, f.value);
    out += "; ";
  }
  return out;
}

std::vector<std::string> readLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TraceEvents, EveryKindReadsBackWhatItWrote) {
  const std::string path = ::testing::TempDir() + "trace-events.jsonl";
  std::remove(path.c_str());
  const auto events = everyKind();
  {
    auto log = TraceLog::open(path);
    ASSERT_TRUE(log.ok()) << log.error().str();
    std::apply([&](const auto&... e) { (log->emit(7, "some-stage", e), ...); }, events);
  }
  const auto lines = readLines(path);
  ASSERT_EQ(lines.size(), std::tuple_size_v<decltype(events)>);
  size_t i = 0;
  std::apply([&](const auto&... e) {
    auto check = [&](const auto& written) {
      using Event = std::decay_t<decltype(written)>;
      auto line = readTraceLogLine(lines[i++]);
      ASSERT_TRUE(line.ok()) << line.error().str();
      const auto envelope = readTraceEvent<TraceEnvelope>(*line);
      EXPECT_EQ(envelope.event, Event::kName);
      EXPECT_EQ(envelope.compileId, 7);
      EXPECT_EQ(envelope.stage, "some-stage");
      EXPECT_EQ(text(traceFields(readTraceEvent<Event>(*line))), text(traceFields(written))) << Event::kName;
      // Not a field at its default, or the round trip could pass by reading nothing.
      std::map<std::string, std::string> defaults;
      for (const auto& f : traceFields(Event{})) defaults[f.key] = text({f});
      for (const auto& f : traceFields(written))
        if (defaults.count(f.key)) {
          EXPECT_NE(text({f}), defaults[f.key]) << Event::kName << "." << f.key << " is its default";
        }
    };
    (check(e), ...);
  }, events);
}

// The samples above are the codec's kinds, once each: a new kind cannot skip the round trip.
TEST(TraceEvents, EveryKindIsListedOnce) {
  std::multiset<std::string_view> sampled;
  std::apply([&](const auto&... e) { (sampled.insert(std::decay_t<decltype(e)>::kName), ...); }, everyKind());
  const std::multiset<std::string_view> listed(kTraceEventNames.begin(), kTraceEventNames.end());
  EXPECT_EQ(sampled, listed);
  EXPECT_EQ(std::set<std::string_view>(listed.begin(), listed.end()).size(), listed.size());
  EXPECT_TRUE(isTraceEnvelopeKey("time_us"));
  EXPECT_FALSE(isTraceEnvelopeKey("node"));
}

// The log's failure is the object `trace --calls --json` prints for it, then the compile that
// made the entry and its dump.
TEST(TraceEvents, ARecompileFailureIsGuardFailureJsonAndItsEntrysCompile) {
  const sym::GuardFailure f{"guard", "s1 < 512", "slice end", {"trace", "slice_1", "aten.slice.Tensor", "Bert.cpp:88", "embeddings", {"x"}},
                            "s1 = 600", "input_ids"};
  RecompileFailure r = recompileFailureOf(1, f);
  r.compileId = 4;
  r.dump = "/d/e1.fathom.json";
  const std::string path = ::testing::TempDir() + "trace-events-failure.jsonl";
  std::remove(path.c_str());
  {
    auto log = TraceLog::open(path);
    ASSERT_TRUE(log.ok()) << log.error().str();
    log->emit(5, "compile", RecompileEvent{"1x64", 2, {"entry #1: s1 < 512"}, {r}});
  }
  const auto lines = readLines(path);
  ASSERT_EQ(lines.size(), 1u);
  auto expected = guardFailureJson(1, f);
  expected["compile_id"] = 4;
  expected["dump"] = "/d/e1.fathom.json";
  EXPECT_EQ(nlohmann::ordered_json::parse(lines[0])["failures"][0].dump(), expected.dump());
}

// A hand-edited line: a count of another type, a string member given a number, a missing list.
TEST(TraceEvents, MissingOrMistypedFieldsKeepTheirDefaults) {
  auto line = readTraceLogLine(R"({"event":"partition","saved":"three","partitioner":7,"ms":null,"failures":[3,{"entry":2}]})");
  ASSERT_TRUE(line.ok()) << line.error().str();
  const auto p = readTraceEvent<PartitionEvent>(*line);
  EXPECT_EQ(p.saved, -1);
  EXPECT_EQ(p.partitioner, "7");
  EXPECT_EQ(p.ms, -1);
  const auto r = readTraceEvent<RecompileEvent>(*line);
  ASSERT_EQ(r.failures.size(), 1u);  // the item that is no object is skipped
  EXPECT_EQ(r.failures[0].entry, 2);
  EXPECT_FALSE(r.failures[0].dump.has_value());
  EXPECT_TRUE(r.failingGuards.empty());
  EXPECT_EQ(readTraceEvent<TraceEnvelope>(*line).compileId, -1);
}

}  // namespace
}  // namespace fathom
