// The `fathom minify --progress json` stream's encoder and decoder agree key for key, each event
// is one line, and a line that is not an event is an error naming what is wrong.
#include "engine/dump/MinifyProgressJson.h"

#include <gtest/gtest.h>

namespace fathom {
namespace {

MinifyEvent roundTrip(const MinifyEvent& e) {
  const std::string line = minifyEventLine(e);
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  auto back = parseMinifyEvent(line);
  EXPECT_TRUE(back.ok()) << line << ": " << back.error().str();
  return back.ok() ? *back : MinifyEvent{};
}

// Every field a start and an end carry comes back; end's node count is "end_nodes".
TEST(MinifyProgressJson, StartAndEndRoundTrip) {
  MinifyEvent s;
  s.kind = MinifyEventKind::Start;
  s.file = "in \"quoted\".json", s.graph = "forward", s.predicate = "accuracy:0.001", s.backend = "faulty-miscompile";
  s.output = "out.json", s.passes = {"truncate-suffix", "nodes-to-inputs"}, s.jobs = 2, s.isolated = true, s.resumed = true;
  s.startNodes = 986, s.nodes = 40;
  const MinifyEvent a = roundTrip(s);
  EXPECT_EQ(a.kind, MinifyEventKind::Start);
  EXPECT_EQ(a.file, s.file);
  EXPECT_EQ(a.predicate, s.predicate);
  EXPECT_EQ(a.passes, s.passes);
  EXPECT_EQ(a.jobs, 2u);
  EXPECT_TRUE(a.isolated && a.resumed);
  EXPECT_EQ(a.startNodes, 986u);
  EXPECT_EQ(a.nodes, 40u);

  MinifyEvent e;
  e.kind = MinifyEventKind::End;
  e.result = "interrupted", e.startNodes = 986, e.nodes = 31, e.queries = 12, e.cacheHits = 3, e.verifications = 2;
  e.flaky = 1, e.invalid = 4, e.passes = {"truncate suffix"}, e.seconds = 4.25, e.output = "out.json";
  const std::string line = minifyEventLine(e);
  EXPECT_NE(line.find("\"end_nodes\":31"), std::string::npos) << line;
  const MinifyEvent b = roundTrip(e);
  EXPECT_EQ(b.result, "interrupted");
  EXPECT_EQ(b.nodes, 31u);
  EXPECT_EQ(b.verifications, 2u);
  EXPECT_EQ(b.flaky, 1u);
  EXPECT_EQ(b.invalid, 4u);
  EXPECT_DOUBLE_EQ(b.seconds, 4.25);
  EXPECT_EQ(b.output, "out.json");
}

// An improvement names the candidate's nodes; a failed checkpoint write is null plus the reason.
TEST(MinifyProgressJson, ImproveNamesNodesAndAFailedCheckpoint) {
  MinifyEvent i;
  i.kind = MinifyEventKind::Improve;
  i.nodes = 5, i.queries = 9, i.inputs = {"y_1", "gt"}, i.calls = {"where"}, i.checkpointError = "disk full";
  const std::string line = minifyEventLine(i);
  EXPECT_NE(line.find("\"checkpoint\":null"), std::string::npos) << line;
  const MinifyEvent a = roundTrip(i);
  EXPECT_EQ(a.inputs, i.inputs);
  EXPECT_EQ(a.calls, i.calls);
  EXPECT_TRUE(a.checkpoint.empty());
  EXPECT_EQ(a.checkpointError, "disk full");
}

// A "waiting" event says how many isolated queries run and the oldest one's time.
TEST(MinifyProgressJson, WaitingCarriesTheQueriesInFlight) {
  MinifyEvent w;
  w.kind = MinifyEventKind::Waiting;
  w.queries = 12, w.pass = "nodes to inputs", w.nodes = 31, w.seconds = 5.5, w.running = 2, w.longestSeconds = 1.25;
  const std::string line = minifyEventLine(w);
  EXPECT_NE(line.find("\"event\":\"waiting\""), std::string::npos) << line;
  const MinifyEvent a = roundTrip(w);
  EXPECT_EQ(a.kind, MinifyEventKind::Waiting);
  EXPECT_EQ(a.queries, 12u);
  EXPECT_EQ(a.pass, "nodes to inputs");
  EXPECT_EQ(a.running, 2u);
  EXPECT_DOUBLE_EQ(a.longestSeconds, 1.25);
  EXPECT_FALSE(parseMinifyEvent("{\"event\": \"waiting\", \"running\": -2}").ok());
}

// Lines that are not events are errors saying why; unknown keys are ignored (the stream may grow).
TEST(MinifyProgressJson, BadLinesAreErrors) {
  auto message = [](std::string_view line) {
    auto r = parseMinifyEvent(line);
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(message("minify: 12 nodes"), "not a JSON object");
  EXPECT_EQ(message("{\"event\": \"query\""), "not a JSON object");
  EXPECT_EQ(message("[1, 2]"), "not a JSON object");
  EXPECT_EQ(message("{\"queries\": 3}"), "no \"event\" key");
  EXPECT_EQ(message("{\"event\": \"explode\"}"), "unknown event 'explode'");
  EXPECT_EQ(message("{\"event\": \"query\", \"queries\": \"many\"}"), "\"queries\" is not a count (event 'query')");
  EXPECT_EQ(message("{\"event\": \"query\", \"queries\": -1}"), "\"queries\" is not a count (event 'query')");
  EXPECT_EQ(message("{\"event\": \"improve\", \"inputs\": [1]}"), "\"inputs\" is not a list of strings (event 'improve')");
  EXPECT_EQ(message("{\"event\": \"query\", \"queries\": 3, \"future\": {\"x\": 1}}"), "ok");
  EXPECT_FALSE(parseMinifyEvent(std::string(100, '[') + std::string(100, ']')).ok());
}

}  // namespace
}  // namespace fathom
