// MinifyRun, the minifier panel's model: the command line it asks for, the progress stream
// (engine/dump/MinifyProgressJson.h) turned into state - including a cancel, a malformed line
// and the CLI's error line - and the exit code into the outcome.
#include "viz/model/MinifyRun.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace fathom::viz {
namespace {

MinifyChoices choices() {
  MinifyChoices c;
  c.input = "in.fathom.json";
  c.output = "/tmp/out.fathom.json";
  c.jobs = 2;
  c.timeoutSeconds = 7.5;
  return c;
}

std::string line(MinifyEvent e) { return minifyEventLine(e); }

MinifyEvent startEvent(size_t nodes) {
  MinifyEvent e;
  e.kind = MinifyEventKind::Start;
  e.graph = "forward", e.predicate = "accuracy:0.001", e.backend = "faulty-miscompile", e.output = "/tmp/out.fathom.json";
  e.startNodes = nodes, e.nodes = nodes;
  return e;
}

MinifyEvent queryEvent(size_t queries, size_t hits, size_t nodes, const char* pass) {
  MinifyEvent e;
  e.queries = queries, e.cacheHits = hits, e.nodes = nodes, e.pass = pass, e.seconds = 0.1 * static_cast<double>(queries);
  return e;
}

MinifyEvent improveEvent(size_t queries, std::vector<std::string> inputs, std::vector<std::string> calls) {
  MinifyEvent e;
  e.kind = MinifyEventKind::Improve;
  e.nodes = inputs.size() + calls.size() + 1, e.queries = queries, e.checkpoint = "/tmp/out.fathom.json";
  e.inputs = std::move(inputs), e.calls = std::move(calls);
  return e;
}

MinifyEvent endEvent(const char* result, size_t start, size_t end, size_t queries) {
  MinifyEvent e;
  e.kind = MinifyEventKind::End;
  e.result = result, e.startNodes = start, e.nodes = end, e.queries = queries, e.output = "/tmp/out.fathom.json", e.seconds = 1.5;
  return e;
}

// The panel's choices become `fathom minify` with the progress stream, -o and --force; the
// repro's own predicate and backend are what the CLI takes when neither flag is given.
TEST(VizMinifyRun, ArgumentsFromTheChoices) {
  MinifyChoices c = choices();
  EXPECT_EQ(minifyArguments(c), (std::vector<std::string>{"minify", "in.fathom.json", "-o", "/tmp/out.fathom.json", "--force", "--progress",
                                                          "json", "-j", "2", "--timeout", "7.5"}));
  c.predicate = "accuracy:kernels", c.backend = "jit", c.graph = "forward";
  const auto args = minifyArguments(c);
  const std::vector<std::string> tail(args.end() - 6, args.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"--graph", "forward", "--predicate", "accuracy:kernels", "--backend", "jit"}));
  c.trustPaths = true;
  EXPECT_EQ(minifyArguments(c).back(), "--trust-paths");
}

// The offered predicates come from the minifier's table: literal arguments are offered, required
// ones shown as their usage spells them; the backends are the minifier's, eager first.
TEST(VizMinifyRun, ChoicesComeFromTheMinifiersTables) {
  const auto p = predicateChoices();
  for (const char* want : {"exception", "crash", "timeout:SECONDS", "accuracy", "accuracy:kernels", "mismatch", "guard", "script:CMD", "torch",
                           "torch:meta"})
    EXPECT_NE(std::find(p.begin(), p.end(), want), p.end()) << want;
  EXPECT_EQ(std::find(p.begin(), p.end(), "exception:REGEX"), p.end());
  const auto b = backendChoices();
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(b.front().first, "eager");
  EXPECT_TRUE(std::any_of(b.begin(), b.end(), [](const auto& x) { return x.first == "faulty-crash" && !x.second.empty(); }));
}

// A whole run: start, queries, improvements, end, exit 0.
TEST(VizMinifyRun, ProgressUpdatesTheState) {
  MinifyRun run;
  run.begin(choices());
  EXPECT_TRUE(run.running());
  EXPECT_EQ(run.feed(line(startEvent(16))), MinifyRun::Change::Started);
  EXPECT_EQ(run.startNodes(), 16u);
  EXPECT_EQ(run.nodes(), 16u);
  EXPECT_EQ(run.feed(line(queryEvent(2, 0, 16, "truncate suffix")) + "\n"), MinifyRun::Change::Progress);
  EXPECT_EQ(run.queries(), 2u);
  EXPECT_EQ(run.pass(), "truncate suffix");
  EXPECT_EQ(run.feed(line(improveEvent(4, {"t_1", "b"}, {"addmm", "relu"}))), MinifyRun::Change::Improved);
  EXPECT_EQ(run.nodes(), 5u);
  ASSERT_TRUE(run.lastImprovement());
  EXPECT_EQ(run.lastImprovement()->calls, (std::vector<std::string>{"addmm", "relu"}));
  EXPECT_EQ(run.feed(line(queryEvent(9, 3, 5, "nodes to inputs"))), MinifyRun::Change::Progress);
  EXPECT_EQ(run.progressLine(), "16 -> 5 nodes · 9 queries (3 cached) · nodes to inputs · 0.9 s");
  // While isolated queries run, the line says so and moves with the oldest one's time.
  EXPECT_EQ(run.feed(R"({"event": "waiting", "queries": 9, "pass": "nodes to inputs", "nodes": 5, "seconds": 3.5, "running": 2, "longest": 2.5})"),
            MinifyRun::Change::Progress);
  EXPECT_EQ(run.queriesInFlight(), 2u);
  EXPECT_DOUBLE_EQ(run.longestInFlight(), 2.5);
  EXPECT_EQ(run.progressLine(), "16 -> 5 nodes · 9 queries (3 cached) · nodes to inputs · 3.5 s · 2 running (longest 2.5 s)");
  EXPECT_EQ(run.feed(line(queryEvent(10, 3, 5, "nodes to inputs"))), MinifyRun::Change::Progress);
  EXPECT_EQ(run.progressLine().find("running"), std::string::npos);
  EXPECT_EQ(run.feed(line(endEvent("minimized", 16, 5, 9))), MinifyRun::Change::Ended);
  EXPECT_TRUE(run.running());  // until the process has exited
  run.finish(0, false);
  EXPECT_EQ(run.phase(), MinifyPhase::Minimized);
  EXPECT_TRUE(run.hasResult());
  EXPECT_EQ(run.improvements(), 1u);
  EXPECT_EQ(run.outcome(), "minimized: 16 -> 5 nodes in 9 queries (1.5 s)");  // the end event's seconds
  EXPECT_TRUE(run.message().empty());
}

// Cancel: SIGINT makes the CLI end the stream with "interrupted" and exit 130; the best so far
// is the result. Cancelled before the minifier started (killed while loading): no result.
TEST(VizMinifyRun, CancelKeepsTheBestSoFar) {
  MinifyRun run;
  run.begin(choices());
  run.feed(line(startEvent(986)));
  run.feed(line(improveEvent(5, {"gelu_3"}, {"addmm_7", "gelu_4"})));
  run.requestCancel();
  EXPECT_EQ(run.outcome(), "cancelling: the minifier writes its best so far…");
  run.feed(line(endEvent("interrupted", 986, 4, 6)));
  run.finish(130, false);
  EXPECT_EQ(run.phase(), MinifyPhase::Cancelled);
  EXPECT_TRUE(run.hasResult());
  EXPECT_EQ(run.outcome(), "cancelled: the best so far, 986 -> 4 nodes, is kept");

  MinifyRun early;
  early.begin(choices());
  early.requestCancel();
  early.finish(0, true);
  EXPECT_EQ(early.phase(), MinifyPhase::Cancelled);
  EXPECT_FALSE(early.hasResult());
}

// A malformed progress line is counted and skipped; the run goes on and ends by its exit code.
TEST(VizMinifyRun, MalformedLinesAreSkipped) {
  MinifyRun run;
  run.begin(choices());
  run.feed(line(startEvent(16)));
  EXPECT_EQ(run.feed("{\"event\": \"query\", \"queries\": "), MinifyRun::Change::None);
  EXPECT_EQ(run.feed("{\"event\": \"warp\"}"), MinifyRun::Change::None);
  EXPECT_EQ(run.feed("{\"event\": \"query\", \"queries\": \"three\"}"), MinifyRun::Change::None);
  EXPECT_EQ(run.malformedLines(), 3u);
  EXPECT_EQ(run.queries(), 0u);
  EXPECT_TRUE(run.running());
  run.feed(line(queryEvent(3, 0, 16, "truncate suffix")));
  EXPECT_EQ(run.queries(), 3u);
}

// The CLI's error line is the message; the exit code says which kind of end it was.
TEST(VizMinifyRun, ErrorLineAndExitCodes) {
  MinifyRun bad;
  bad.begin(choices());
  EXPECT_EQ(bad.feed("fathom: --predicate must be exception[:REGEX], crash[:SIGNAL], ... not 'segfault'"), MinifyRun::Change::Message);
  bad.finish(2, false);
  EXPECT_EQ(bad.phase(), MinifyPhase::Failed);
  EXPECT_EQ(bad.message(), "fathom: --predicate must be exception[:REGEX], crash[:SIGNAL], ... not 'segfault'");
  EXPECT_FALSE(bad.hasResult());

  MinifyRun healthy;
  healthy.begin(choices());
  healthy.feed("fathom: in.fathom.json: graph 'forward': the graph does not raise an error under backend eager; instead: ran cleanly");
  healthy.finish(1, false);
  EXPECT_EQ(healthy.phase(), MinifyPhase::NotFailing);
  EXPECT_NE(healthy.message().find("instead: ran cleanly"), std::string::npos);

  MinifyRun chatter;  // no error line: the last other line, else the status, explains the failure
  chatter.begin(choices());
  chatter.feed("Segmentation fault in the script");
  chatter.finish(3, false);
  EXPECT_EQ(chatter.message(), "Segmentation fault in the script");
  MinifyRun killed;
  killed.begin(choices());
  killed.feed(line(startEvent(16)));
  killed.finish(0, true);
  EXPECT_EQ(killed.phase(), MinifyPhase::Failed);
  EXPECT_EQ(killed.message(), "fathom minify was killed by a signal");
  MinifyRun silent;  // exit 0 without an end event is not taken for a result
  silent.begin(choices());
  silent.finish(0, false);
  EXPECT_EQ(silent.phase(), MinifyPhase::Failed);
  EXPECT_FALSE(silent.hasResult());
}

}  // namespace
}  // namespace fathom::viz
