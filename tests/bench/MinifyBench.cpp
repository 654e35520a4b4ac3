// The minifier's speed (issue 8), on the 12-layer BERT-base (batch 2, seq 32) forward and
// backward AOT graphs, each with one injected culprit, against PyTorch 1.13's own minifier
// (functorch.compile.minifier) on the same graphs, measured in the same run:
//   tests/bench/minify_bert_torch.py (run first) exports both graphs with their real inputs as
//   one dump, picks each graph's culprit (a call 60% of the way in) and minifies it with
//   functorch, counting queries; a candidate fails when it still executes the culprit.
//   BM_MinifyBert12/GRAPH/MODE  fathom::minify::minify on the same graph and property (Fathom's
//   interpreter stops at the culprit), in-process, isolated -j 1 (workers forked by the zygote),
//   isolated -j 1 forking every worker from the minifier (MinifyOptions::zygote off, what isolation
//   was before the zygote) and isolated -j 2.
//   BM_QueryOverhead/GRAPH/MODE  isolation's own cost: once the real values are computed, 40
//   candidates (the whole graph returning one late node each, ~940 nodes on the backward) asked
//   with a predicate that does nothing, in-process, through the zygote and forking the minifier.
// Targets: queries <= PyTorch's, a result no larger than PyTorch's, -j 2 faster than -j 1;
// isolated -j 1 within 10% of in-process, and its overhead per query (wall time over in-process,
// divided by the queries, which are the same) at most 20 ms. CPU time counts this process and
// every descendant it reaped (the zygote, the workers), so it holds on a loaded machine too.
//   build/tests/bench/fathom_minify_bench [--work-dir=DIR] [--passes=KEYS | --skip-passes=KEYS] [benchmark flags]
// --work-dir keeps the dump and PyTorch's figures in DIR and reuses them when already there
// (default: a temporary folder, removed at the end; the side file is ~800 MB). The minifier spills
// large values to DIR/values.bin, as `fathom minify` does to its work folder.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "engine/dump/Dump.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "minifier/Minify.h"
#include "minifier/PassContext.h"
#include "tests/bench/MinifyBenchSupport.h"

namespace fathom {
namespace {

const char* const kGraphs[] = {"forward", "backward"};

struct Mode {
  const char* name;
  bool isolate;
  size_t jobs;
  bool zygote = true;
};
const Mode kModes[] = {{"in-process", false, 1}, {"isolated-j1", true, 1}, {"isolated-j1-fork", true, 1, false}, {"isolated-j2", true, 2}};
const Mode kQueryModes[] = {{"in-process", false, 1}, {"zygote", true, 1}, {"fork", true, 1, false}};
constexpr size_t kOverheadQueries = 40;

struct Measured {
  double seconds = 0, cpu = 0;
  size_t queries = 0, nodes = 0, calls = 0;
  size_t probesHere = 0;  // probes that ran in this process (not in a worker)
  std::map<std::string, size_t> queriesByPass;
};

Dump gDump;
std::filesystem::path gWorkDir;  // the dump, PyTorch's figures, the minifier's spill file
std::map<std::string, std::string> gTorch;       // minify_bert_torch.py's "key value" lines
std::map<std::string, Measured> gMeasured;        // "forward/isolated-j2" -> figures
std::map<std::string, double> gQueryMs;           // "backward/zygote" -> ms a query (BM_QueryOverhead)
const pid_t gMainPid = getpid();
size_t gProbesHere = 0;

// Runs a graph and fails at the culprit, as a broken kernel would: the property both minifiers
// keep is "the candidate still executes the culprit call".
class CulpritInterpreter : public Interpreter {
 public:
  CulpritInterpreter(const Graph& g, const std::string& culprit) : Interpreter(g), culprit_(culprit) {}
  bool reached() const { return reached_; }

 protected:
  Result<Value> runNode(const Node& node) override {
    if (node.kind == NodeKind::Call && node.name == culprit_) {
      reached_ = true;
      return invalidInput("injected failure");
    }
    return Interpreter::runNode(node);
  }

 private:
  const std::string& culprit_;
  bool reached_ = false;
};

minify::Verdict executesCulprit(const minify::Candidate& c, const std::string& culprit) {
  if (getpid() == gMainPid) ++gProbesHere;
  auto values = materializeInputs(c.inputs);
  if (!values.ok()) return {false, "inputs: " + values.error().str()};
  CulpritInterpreter interp(c.graph, culprit);
  auto out = interp.run(std::move(*values));
  if (out.ok()) return {false, "ran cleanly"};
  return {interp.reached(), "raised: " + out.error().str()};
}

double torchFigure(const std::string& key) { return figureOf(gTorch, key); }

void BM_MinifyBert12(benchmark::State& state, const std::string& graphName, Mode mode) {
  const Graph* g = gDump.graph(graphName);
  const auto* inputs = gDump.inputsFor(graphName);
  const std::string culprit = gTorch["culprit_" + graphName];
  if (!g || !inputs) return state.SkipWithError(("the dump has no graph " + graphName + " with inputs").c_str());
  auto at = g->find(culprit);
  if (!at || g->node(*at).kind != NodeKind::Call)
    return state.SkipWithError(("no call node %" + culprit + " in " + graphName + ": the export renamed it").c_str());
  minify::Oracle oracle([&culprit](const minify::Candidate& c) { return executesCulprit(c, culprit); });
  minify::MinifyOptions options;
  options.isolate = mode.isolate;
  options.jobs = mode.jobs;
  options.zygote = mode.zygote;
  options.spillFile = (gWorkDir / "values.bin").string();  // as `fathom minify` does
  Measured m;
  for (auto _ : state) {
    gProbesHere = 0;
    TimedMinify t = timedMinify(*g, *inputs, oracle, options);
    if (!t.result.ok()) return state.SkipWithError(t.result.error().str().c_str());
    const minify::MinifyResult& r = *t.result;
    if (!r.originalFails) return state.SkipWithError(("the original does not fail: " + r.originalWhat).c_str());
    if (m.queries == 0 || t.seconds < m.seconds) {
      m.seconds = t.seconds;
      m.cpu = t.cpuSeconds;
    }
    m.queries = r.stats.queries;
    m.queriesByPass = std::move(t.queriesByPass);
    m.nodes = r.best.graph.size();
    m.calls = callsIn(r.best.graph);
    m.probesHere = gProbesHere;
  }
  gMeasured[graphName + "/" + mode.name] = m;
  const double torchQueries = torchFigure("torch_queries_" + graphName);
  state.counters["queries"] = static_cast<double>(m.queries);
  state.counters["cpu_s"] = m.cpu;
  state.counters["torch_queries"] = torchQueries;
  state.counters["nodes"] = static_cast<double>(m.nodes);
  state.counters["torch_nodes"] = torchFigure("torch_nodes_" + graphName);
  if (torchQueries > 0) state.counters["queries/torch"] = static_cast<double>(m.queries) / torchQueries;
}

// The time per query of kOverheadQueries distinct candidates under a predicate with no work of
// its own, after the real values exist (what a run's queries cost beyond the predicate).
void BM_QueryOverhead(benchmark::State& state, const std::string& graphName, Mode mode) {
  const Graph* g = gDump.graph(graphName);
  const auto* inputs = gDump.inputsFor(graphName);
  if (!g || !inputs) return state.SkipWithError(("the dump has no graph " + graphName + " with inputs").c_str());
  minify::Oracle nothing([](const minify::Candidate&) { return minify::Verdict{true, ""}; });
  minify::MinifyOptions options;
  options.isolate = mode.isolate;
  options.zygote = mode.zygote;
  options.spillFile = (gWorkDir / "values.bin").string();
  for (auto _ : state) {
    state.PauseTiming();
    minify::PassContext context(*g, *inputs, nothing, options);
    context.startZygote();
    if (auto s = context.computeRealValues(); !s.ok()) return state.SkipWithError(s.error().str().c_str());
    if (!context.askOriginal().ok()) return state.SkipWithError("the original cannot be asked");
    const std::vector<int32_t> computed = context.computed(context.best());
    std::vector<minify::Cut> cuts;
    for (size_t k = 0; k < kOverheadQueries && k * 7 < computed.size(); ++k) {
      cuts.push_back(context.best().cut);
      cuts.back().outputs = {Value(NodeRef{computed[computed.size() - 1 - k * 7]})};
    }
    state.ResumeTiming();
    const auto start = std::chrono::steady_clock::now();
    for (const auto& cut : cuts) context.ask({cut}, std::nullopt, false);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / static_cast<double>(cuts.size());
    state.counters["ms_per_query"] = ms;
    gQueryMs[graphName + "/" + mode.name] = ms;
    state.PauseTiming();
    std::filesystem::remove(options.spillFile);
    state.ResumeTiming();
  }
}

// NAME/GRAPH/MODE for every graph and mode, run once each.
template <size_t N>
void registerEach(const char* name, const Mode (&modes)[N], void (*bench)(benchmark::State&, const std::string&, Mode), benchmark::TimeUnit unit) {
  for (const char* graph : kGraphs)
    for (const Mode& mode : modes)
      benchmark::RegisterBenchmark((std::string(name) + "/" + graph + "/" + mode.name).c_str(),
                                   [graph = std::string(graph), mode, bench](benchmark::State& s) { bench(s, graph, mode); })
          ->Iterations(1)
          ->Unit(unit)
          ->UseRealTime();
}

void registerBenchmarks() {
  registerEach("BM_MinifyBert12", kModes, BM_MinifyBert12, benchmark::kSecond);
  registerEach("BM_QueryOverhead", kQueryModes, BM_QueryOverhead, benchmark::kMillisecond);
}

// What isolation costs over in-process (same queries): the isolated / in-process ratio and the
// overhead per query, in wall and in CPU time.
void printIsolationCost(const Measured* here, const Measured* isolated, const char* how) {
  if (!here || !isolated || isolated->queries == 0) return;
  const double q = static_cast<double>(isolated->queries);
  std::printf("  %s / in-process: wall %.2f, %+.1f ms a query; CPU %.1f s / %.1f s, %+.1f ms a query\n", how,
              isolated->seconds / here->seconds, (isolated->seconds - here->seconds) / q * 1e3, isolated->cpu, here->cpu,
              (isolated->cpu - here->cpu) / q * 1e3);
}

using Find = std::function<const Measured*(const char* mode)>;

// Queries and result against PyTorch's minifier, and the wall times of the modes that ran.
void printHeadline(const std::string& g, const Find& find) {
  const Measured* here = find("in-process");
  const Measured* j1 = find("isolated-j1");
  const Measured* j2 = find("isolated-j2");
  const Measured* fork = find("isolated-j1-fork");
  const Measured* any = here ? here : j1 ? j1 : j2;  // -j 1 asks what in-process asks
  if (!any) return;
  const char* which = here ? "in-process" : j1 ? "-j 1" : "-j 2";
  const double tq = torchFigure("torch_queries_" + g), tn = torchFigure("torch_nodes_" + g);
  std::printf("%s (%s nodes, culprit %%%s): fathom (%s) %zu queries -> %zu nodes (%zu calls); PyTorch's minifier %.0f queries -> "
              "%.0f nodes (%.0f calls) in %.1f s\n",
              g.c_str(), gTorch["nodes_" + g].c_str(), gTorch["culprit_" + g].c_str(), which, any->queries, any->nodes, any->calls, tq, tn,
              torchFigure("torch_calls_" + g), torchFigure("torch_seconds_" + g));
  std::printf("  fathom's queries by pass:");
  for (const auto& [pass, count] : any->queriesByPass) std::printf(" %s %zu;", pass.c_str(), count);
  std::printf("\n");
  if (tq > 0 && tn > 0)
    std::printf("  queries fathom / PyTorch = %.2f (target <= 1); nodes fathom / PyTorch = %.2f (target <= 1)\n",
                static_cast<double>(any->queries) / tq, static_cast<double>(any->nodes) / tn);
  std::printf("  wall:");
  if (here) std::printf(" in-process %.2f s (%zu queries),", here->seconds, here->queries);
  if (j1) std::printf(" isolated -j 1 %.2f s (%zu queries),", j1->seconds, j1->queries);
  if (fork) std::printf(" isolated -j 1 forking the minifier %.2f s,", fork->seconds);
  if (j2) std::printf(" isolated -j 2 %.2f s (%zu queries)", j2->seconds, j2->queries);
  if (j1 && j2) std::printf(": -j 2 / -j 1 = %.2f (target < 1)", j2->seconds / j1->seconds);
  std::printf("\n");
  for (const Measured* m : {j1, j2})
    if (m && m->probesHere > 0)
      std::printf("  note: an isolated run probed %zu candidates in this process (isolation not in effect)\n", m->probesHere);
}

// Isolated -j 1 against in-process with the real predicate (target: wall <= 1.10), and the cost of
// a query beyond the predicate's work (BM_QueryOverhead; target: isolation adds <= 20 ms).
void printIsolation(const std::string& g, const Find& find) {
  printIsolationCost(find("in-process"), find("isolated-j1"), "isolated -j 1 (zygote)");
  printIsolationCost(find("in-process"), find("isolated-j1-fork"), "isolated -j 1 (forking the minifier)");
  auto ms = [&](const char* mode) { auto it = gQueryMs.find(g + "/" + mode); return it == gQueryMs.end() ? -1.0 : it->second; };
  const double here = ms("in-process"), zygote = ms("zygote"), fork = ms("fork");
  if (here < 0 || zygote < 0 || fork < 0) return;
  std::printf("  a query with a predicate that does nothing: in-process %.1f ms, isolated through the zygote %.1f ms (%+.1f, target <= +20), "
              "forking the minifier %.1f ms (%+.1f)\n",
              here, zygote, zygote - here, fork, fork - here);
}

void printSummary() {
  for (const char* graph : kGraphs) {
    const std::string g = graph;
    const Find find = [&](const char* mode) -> const Measured* {
      auto it = gMeasured.find(g + "/" + mode);
      return it == gMeasured.end() ? nullptr : &it->second;
    };
    printHeadline(g, find);
    printIsolation(g, find);
  }
}

}  // namespace
}  // namespace fathom

int main(int argc, char** argv) {
  using namespace fathom;
  std::vector<char*> rest;
  std::filesystem::path& dir = gWorkDir;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--work-dir=", 11) == 0) dir = argv[i] + 11;
    else if (!takePassFlag(argv[i])) rest.push_back(argv[i]);
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  const bool temporary = prepareWorkDir(dir, "fathom-minify-bench-");
  gTorch = cachedTorchReference(dir, "torch.txt", "minify_bert_torch.py", "--out '" + dir.string() + "'",
                                "exporting the 12-layer BERT-base forward + backward and minifying them with PyTorch's minifier...");
  const int rc = withTorchExport(gTorch, [](Dump&& d) {
    gDump = std::move(d);
    registerBenchmarks();
    benchmark::RunSpecifiedBenchmarks();
    printSummary();
  });
  if (temporary) std::filesystem::remove_all(dir);  // an ~800 MB side file: do not leave it in /tmp
  return rc;
}
