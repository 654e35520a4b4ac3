// viz/model/Timeline: a trace log read into compile sessions. A hand-written log with every event
// kind (and bad lines, an unknown kind, a second run); the real session of `fathom trace bert
// --dynamic --calls 8x128,4x64,1x64,8x1`; files that are not trace logs.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/TestDataDir.h"
#include "tests/viz/BertRecompileSession.h"
#include "viz/model/Timeline.h"
#include "viz/model/TimelineEvents.h"

namespace fathom::viz {
namespace {

// Every kind once, in the order one AOT compile, a hit and a jit recompile log them; line 5 is
// empty, line 6 broken, line 14 JSON but no event; the last two lines (23, 24) are a second run.
const char* kEveryKind = R"log({"event":"compile_start","compile_id":0,"stage":"aot","time_us":100,"dynamic":true,"call":"8x4","entry":0,"dump":"/d/a.fathom.json"}
{"event":"symbol_created","compile_id":0,"stage":"trace","time_us":110,"symbol":"s0","hint":8,"source":"x.size(0)","range":"[2, inf]"}
{"event":"guard_added","compile_id":0,"stage":"trace","time_us":120,"expr":"Eq(Mod(s0, 2), 0)","node":"view_1","op":"aten.view.default","source":"m.cpp:9","module":"enc.0","reason":"view halves"}
{"event":"specialization","compile_id":0,"stage":"trace","time_us":130,"symbol":"","value":"1","kind":"zero-one","node":"","op":"","source":"","module":"","input":"y.size(1)","reason":"y.size(1) is 1"}

{"event":"guard_added","compile_id":0,"stage":"tr
{"event":"guards_installed","compile_id":0,"stage":"aot-forward","time_us":140,"guards":1}
{"event":"graph_captured","compile_id":0,"stage":"aot","time_us":150,"graph":"joint","nodes":12,"dump":"/d/a.fathom.json"}
{"event":"partition","compile_id":0,"stage":"partition","time_us":160,"partitioner":"default","saved":3,"saved_bytes":96,"forward_nodes":7,"backward_nodes":6,"ms":0.5}
{"event":"late_guard","compile_id":0,"stage":"aot-backward","time_us":170,"expr":"s0 >= 4","node":"view_2","op":"aten.view.default","source":"m.cpp:12","module":"enc.1","reason":"late"}
{"event":"backward_compiled","compile_id":0,"stage":"aot-backward","time_us":180,"when":"first backward","guards":2}
{"event":"compile_end","compile_id":0,"stage":"aot","time_us":2100,"ms":2.0,"dump":"/d/a.fathom.json"}
{"event":"cache_hit","compile_id":0,"stage":"compile","time_us":2200,"call":"6x4","entry":0,"dump":"/d/a.fathom.json"}
[1, 2, 3]
{"event":"recompile","compile_id":1,"stage":"compile","time_us":2300,"call":"3x4","entries":1,"failing_guards":["(text form)"],"failures":[{"entry":0,"kind":"guard","expr":"Eq(Mod(s0, 2), 0)","actual":"s0 = 3","input":"","stage":"trace","node":"view_1","op":"aten.view.default","args":[],"source":"m.cpp:9","module":"enc.0","reason":"view halves","compile_id":0,"dump":"/d/a.fathom.json"},{"entry":0,"kind":"range","expr":"s0 >= 4","actual":"s0 = 3","input":"x","stage":"trace","node":"","op":"","args":[],"source":"","module":"","reason":"range","compile_id":0}]}
{"event":"compile_start","compile_id":1,"stage":"trace","time_us":2400,"call":"3x4","dump":"/d/b.fathom.json"}
{"event":"compile_end","compile_id":1,"stage":"trace","time_us":3400,"ms":1.0,"dump":"/d/b.fathom.json"}
{"event":"kernel_compiled","compile_id":1,"stage":"compile","time_us":3500,"graph":"forward","kernel":"pointwise_0","kind":"pointwise","nodes":["relu","add"],"code":"llvm","source":"compiled","compile_ms":12.5}
{"event":"kernel_compiled","compile_id":1,"stage":"compile","time_us":3510,"graph":"forward","kernel":"pointwise_2","kind":"pointwise","nodes":["neg"],"code":"llvm","source":"disk cache","compile_ms":0.0}
{"event":"kernel_compiled","compile_id":1,"stage":"compile","time_us":3520,"graph":"forward","kernel":"extern_1","kind":"extern","nodes":["mm"],"code":"eager","why":"extern kernels run on the eager kernels"}
{"event":"compile_assumption","compile_id":1,"stage":"compile","time_us":3600,"graph":"forward","input":"x","sizes":["s0","4"],"strides":["4","1"],"kernel":"pointwise_0","nodes":["relu"],"check":"runtime"}
{"event":"autotune_done","compile_id":1,"stage":"compile","time_us":3800,"configs":4}
{"event":"guard_check","compile_id":0,"stage":"guards","time_us":50,"check":"consistency","subject":"all guards","status":"sat","ms":3.5}
{"event":"compile_start","compile_id":0,"stage":"trace","time_us":60,"call":"2x2"}
)log";

Timeline readText(const std::string& text) {
  std::istringstream in(text);
  auto t = readTimeline(in, "hand.jsonl");
  EXPECT_TRUE(t.ok()) << t.error().str();
  return t.ok() ? std::move(*t) : Timeline{};
}

const TimelineEvent& firstOf(const Timeline& t, TimelineKind kind) {
  for (const auto& e : t.events)
    if (e.kind == kind) return e;
  ADD_FAILURE() << "no " << timelineKindName(kind) << " event";
  static const TimelineEvent none;
  return none;
}

// Every kind is decoded, bad lines are listed by number and skipped, an unknown kind is Other.
TEST(Timeline, ReadsEveryKindAndSkipsBadLinesByNumber) {
  const Timeline t = readText(kEveryKind);
  EXPECT_EQ(t.events.size(), 21u);
  ASSERT_EQ(t.problems.size(), 2u);
  EXPECT_EQ(t.problems[0].line, 6);
  EXPECT_EQ(t.problems[1].line, 14);
  std::set<TimelineKind> kinds;
  for (const auto& e : t.events) kinds.insert(e.kind);
  EXPECT_EQ(kinds.size(), static_cast<size_t>(kTimelineKinds)) << "a kind was not decoded";
  const TimelineEvent& other = firstOf(t, TimelineKind::Other);
  EXPECT_EQ(other.name, "autotune_done");
  EXPECT_EQ(other.line, 22);
  EXPECT_NE(other.summary.find("autotune_done"), std::string::npos);
  EXPECT_NE(other.summary.find("configs 4"), std::string::npos) << other.summary;
}

// Compile sessions: start/end on the axis, the call, the dump and graph, hits, what was added.
TEST(Timeline, GroupsEventsIntoCompileSessions) {
  const Timeline t = readText(kEveryKind);
  ASSERT_EQ(t.compiles.size(), 3u);
  const CompileSession& c0 = t.compiles[0];
  EXPECT_EQ(c0.label(), "compile 0 · 8x4");
  EXPECT_EQ(c0.startUs, 100);
  EXPECT_EQ(c0.endUs, 2100);
  EXPECT_DOUBLE_EQ(c0.ms, 2.0);
  EXPECT_EQ(c0.dump, "/d/a.fathom.json");
  EXPECT_EQ(c0.graph, "joint");
  EXPECT_EQ(c0.nodes, 12);
  EXPECT_EQ(c0.hits.size(), 1u);
  EXPECT_EQ(c0.guardsAdded, 1);
  EXPECT_EQ(c0.specializations, 1);
  EXPECT_EQ(c0.lateGuards, 1);
  EXPECT_EQ(c0.recompile, -1);
  const CompileSession& c1 = t.compiles[1];
  EXPECT_EQ(c1.call, "3x4");
  EXPECT_EQ(c1.dump, "/d/b.fathom.json");
  EXPECT_EQ(c1.kernels, 3);
  ASSERT_GE(c1.recompile, 0);
  EXPECT_EQ(t.events[static_cast<size_t>(c1.recompile)].kind, TimelineKind::Recompile);
  // The second run restarts time and compile ids: its own session, after the first on the axis.
  const CompileSession& r2 = t.compiles[2];
  EXPECT_EQ(r2.run, 1);
  EXPECT_EQ(r2.label(), "run 2 · compile 0 · 2x2");
  EXPECT_GT(r2.startUs, 3800);
  EXPECT_EQ(t.runs, 2);
  // The Z3 check belongs to no compile.
  EXPECT_EQ(t.sessionOf(firstOf(t, TimelineKind::GuardCheck)), -1);
}

// What each event points at: its own dump/graph/node, else its compile's; a recompile's failing
// guards point into the entry they failed, with their provenance.
TEST(Timeline, EventsNameTheDumpGraphAndNodeToOpen) {
  const Timeline t = readText(kEveryKind);
  auto expectTarget = [](const TimelineTarget& got, const char* dump, const char* graph, const char* node, const char* what) {
    EXPECT_EQ(got.dump, dump) << what;
    EXPECT_EQ(got.graph, graph) << what;
    EXPECT_EQ(got.node, node) << what;
  };
  expectTarget(firstOf(t, TimelineKind::GuardAdded).target, "/d/a.fathom.json", "joint", "view_1", "guard_added");
  expectTarget(firstOf(t, TimelineKind::Specialization).target, "/d/a.fathom.json", "joint", "y", "specialization of y.size(1)");
  expectTarget(firstOf(t, TimelineKind::SymbolCreated).target, "/d/a.fathom.json", "joint", "x", "symbol of x.size(0)");
  expectTarget(firstOf(t, TimelineKind::LateGuard).target, "/d/a.fathom.json", "joint", "view_2", "late_guard");
  expectTarget(firstOf(t, TimelineKind::KernelCompiled).target, "/d/b.fathom.json", "forward", "relu", "kernel_compiled");
  expectTarget(firstOf(t, TimelineKind::CompileAssumption).target, "/d/b.fathom.json", "forward", "x", "compile_assumption");
  const TimelineEvent& r = firstOf(t, TimelineKind::Recompile);
  ASSERT_EQ(r.failures.size(), 2u);
  expectTarget(r.failures[0].target, "/d/a.fathom.json", "joint", "view_1", "failing guard with a node");
  expectTarget(r.failures[1].target, "/d/a.fathom.json", "joint", "x", "failing range check: its input, in its entry's dump");
  EXPECT_EQ(r.failures[0].provenance(), "%view_1 = aten.view.default  at m.cpp:9  in enc.0");
  EXPECT_EQ(r.failures[1].provenance(), "input %x");
  EXPECT_EQ(r.failures[1].entryCompileId, 0);
  EXPECT_EQ(r.summary, "recompile for 3x4: 2 failing guards in 1 entry");
  expectTarget(r.target, "/d/a.fathom.json", "joint", "view_1", "a recompile opens its first failing guard");
}

TEST(Timeline, SummaryCountsEveryKind) {
  const Timeline t = readText(kEveryKind);
  const TimelineSummary& s = t.summary;
  EXPECT_EQ(s.compiles, 3);
  EXPECT_EQ(s.hits, 1);
  EXPECT_EQ(s.recompiles, 1);
  EXPECT_EQ(s.failingGuards, 2);
  EXPECT_EQ(s.guardsAdded, 1);
  EXPECT_EQ(s.lateGuards, 1);
  EXPECT_EQ(s.kernels, 3);
  EXPECT_EQ(s.kernelsCompiled, 1);
  EXPECT_EQ(s.kernelsDiskCache, 1);
  EXPECT_EQ(s.kernelsEager, 1);
  EXPECT_DOUBLE_EQ(s.kernelMs, 12.5);
  EXPECT_EQ(s.guardChecks, 1);
  EXPECT_EQ(s.other, 1);
  EXPECT_EQ(s.runs, 2);
  EXPECT_NE(s.text().find("3 compiles (1 recompile, 2 failing guards), 1 cache hit"), std::string::npos) << s.text();
}

// Logs written before failures were structured: the text lines still give expr, kind, node.
TEST(Timeline, FailingGuardsFromTheOlderTextForm) {
  const FailingGuard g = failingGuardFromText(
      "entry #1: s1 < 512  [guard]  with s1 = 512; from %slice_1 = aten.slice.Tensor  at m.cpp:209  in embeddings; why: slice end");
  EXPECT_EQ(g.entry, 1);
  EXPECT_EQ(g.expr, "s1 < 512");
  EXPECT_EQ(g.kind, "guard");
  EXPECT_EQ(g.actual, "s1 = 512");
  EXPECT_EQ(g.node, "slice_1");
  EXPECT_EQ(g.op, "aten.slice.Tensor");
  EXPECT_EQ(g.source, "m.cpp:209");
  EXPECT_EQ(g.module, "embeddings");
  EXPECT_EQ(g.reason, "slice end");
  const FailingGuard range = failingGuardFromText("entry #0: s0 >= 2  [range]  with s0 = 1; of input %input_ids; why: sizes 0 and 1");
  EXPECT_EQ(range.target.node, "input_ids");
}

// The real session: 3 compiles, 1 hit, 2 recompiles whose failing guards are the range and
// static checks of entries #0 and #1, each pointing at the input it is about, in that entry's dump.
TEST(Timeline, TheBertRecompileSessionOfTheCli) {
  const auto& session = testing::bertRecompileSession();
  ASSERT_TRUE(session.error.empty()) << session.error;
  auto t = loadTimeline(session.log);
  ASSERT_TRUE(t.ok()) << t.error().str();
  EXPECT_TRUE(t->problems.empty());
  auto abs = [](const std::string& p) { return std::filesystem::absolute(p).lexically_normal().string(); };
  EXPECT_EQ(t->summary.compiles, 3);
  EXPECT_EQ(t->summary.hits, 1);
  EXPECT_EQ(t->summary.recompiles, 2);
  EXPECT_EQ(t->summary.failingGuards, 5);
  ASSERT_EQ(t->compiles.size(), 3u);
  const char* calls[] = {"8x128", "1x64", "8x1"};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(t->compiles[i].call, calls[i]);
    EXPECT_EQ(t->compiles[i].dump, abs(session.dumps[i]));
    EXPECT_EQ(t->compiles[i].graph, "forward");
    EXPECT_LT(t->compiles[i].startUs, t->compiles[i].endUs);
    EXPECT_GT(t->compiles[i].ms, 0);
  }
  EXPECT_EQ(t->compiles[0].hits.size(), 1u);
  EXPECT_EQ(t->firstDump(), abs(session.dumps[0]));
  const auto& r1 = t->events[static_cast<size_t>(t->compiles[1].recompile)];
  ASSERT_EQ(r1.failures.size(), 1u);
  EXPECT_EQ(r1.failures[0].expr, "s0 >= 2");
  EXPECT_EQ(r1.failures[0].provenance(), "input %input_ids");
  EXPECT_EQ(r1.failures[0].target.dump, abs(session.dumps[0]));
  EXPECT_EQ(r1.failures[0].target.node, "input_ids");
  const auto& r2 = t->events[static_cast<size_t>(t->compiles[2].recompile)];
  ASSERT_EQ(r2.failures.size(), 4u);
  const char* exprs[] = {"s1 >= 2", "input_ids.size(0) == 1", "attention_mask.size(0) == 1", "s0 >= 2"};
  const char* nodes[] = {"input_ids", "input_ids", "attention_mask", "input_ids"};
  const int entries[] = {0, 1, 1, 1};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(r2.failures[i].expr, exprs[i]);
    EXPECT_EQ(r2.failures[i].target.node, nodes[i]);
    EXPECT_EQ(r2.failures[i].entry, entries[i]);
    EXPECT_EQ(r2.failures[i].target.dump, abs(session.dumps[entries[i]])) << i;
    EXPECT_EQ(r2.failures[i].target.graph, "forward");
  }
  for (const auto& e : t->events)
    if (e.kind == TimelineKind::GuardAdded) {
      EXPECT_EQ(e.target.node, "slice_1");
      EXPECT_EQ(e.target.dump, t->compiles[static_cast<size_t>(t->sessionOf(e))].dump);
    }
}

// A file that is not a trace log is one error naming it and the line; reading stops early.
TEST(Timeline, NotATraceLogIsOneErrorNamingFileAndLine) {
  const std::string dump = std::string(FATHOM_TEST_DATA_DIR) + "/samples/mlp.fathom.json";
  auto t = loadTimeline(dump);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().str().find(dump + ": line 1: not a trace log"), std::string::npos) << t.error().str();
  std::istringstream empty("\n\n");
  auto e = readTimeline(empty, "empty.jsonl");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().str().find("empty.jsonl: no events"), std::string::npos) << e.error().str();
  std::string prose;
  for (int i = 0; i < 1000; ++i) prose += "line " + std::to_string(i) + " of a text file\n";
  std::istringstream text(prose);
  auto p = readTimeline(text, "notes.txt");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().str().find("notes.txt: line 1: not a trace log: not JSON"), std::string::npos) << p.error().str();
  auto missing = loadTimeline("/nonexistent/tl.jsonl");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().str().find("/nonexistent/tl.jsonl"), std::string::npos);
}

// An interrupted run's last line is cut: the events before it are kept, the line is reported.
TEST(Timeline, ATruncatedLastLineIsReportedAndTheRestKept) {
  std::string text = kEveryKind;
  text = text.substr(0, text.size() - 20);
  const Timeline t = readText(text);
  EXPECT_EQ(t.events.size(), 20u);
  ASSERT_EQ(t.problems.size(), 3u);
  EXPECT_EQ(t.problems.back().line, 24);
}

TEST(Timeline, CancelStopsReading) {
  std::atomic<bool> cancel{true};
  std::istringstream in(kEveryKind);
  auto t = readTimeline(in, "hand.jsonl", {&cancel, nullptr});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().str().find("cancelled"), std::string::npos);
}

// A dump named by a moved log is looked for beside the log.
TEST(Timeline, ResolvesAMovedSessionsDumpBesideTheLog) {
  const auto& session = testing::bertRecompileSession();
  ASSERT_TRUE(session.error.empty()) << session.error;
  EXPECT_EQ(resolveTimelineDump(session.log, "/gone/elsewhere/bert.entry1.fathom.json"), session.dir + "/bert.entry1.fathom.json");
  EXPECT_EQ(resolveTimelineDump(session.log, session.dumps[2]), session.dumps[2]);
  EXPECT_EQ(resolveTimelineDump(session.log, "/gone/missing.fathom.json"), "/gone/missing.fathom.json");
}

}  // namespace
}  // namespace fathom::viz
