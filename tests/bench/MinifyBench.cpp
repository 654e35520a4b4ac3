// The minifier's speed (issue 8), on the 12-layer BERT-base (batch 2, seq 32) forward and
// backward AOT graphs, each with one injected culprit, against PyTorch 1.13's own minifier
// (functorch.compile.minifier) on the same graphs, measured in the same run:
//   tests/bench/minify_bert_torch.py (run first) exports both graphs with their real inputs as
//   one dump, picks each graph's culprit (a call 60% of the way in) and minifies it with
//   functorch, counting queries; a candidate fails when it still executes the culprit.
//   BM_MinifyBert12/GRAPH/MODE  fathom::minify::minify on the same graph and property (Fathom's
//   interpreter stops at the culprit), in-process, isolated -j 1 and isolated -j 2.
// Targets: queries <= PyTorch's, a result no larger than PyTorch's, -j 2 faster than -j 1.
//   build/tests/bench/fathom_minify_bench [--work-dir=DIR] [benchmark flags]
// --work-dir keeps the dump and PyTorch's figures in DIR and reuses them when already there
// (default: a temporary folder, removed at the end; the side file is ~800 MB). The minifier spills
// large values to DIR/values.bin, as `fathom minify` does to its work folder.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include "engine/dump/Dump.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "minifier/Minify.h"
#include "tests/bench/MinifyBenchSupport.h"

namespace fathom {
namespace {

const char* const kGraphs[] = {"forward", "backward"};

struct Mode {
  const char* name;
  bool isolate;
  size_t jobs;
};
const Mode kModes[] = {{"in-process", false, 1}, {"isolated-j1", true, 1}, {"isolated-j2", true, 2}};

struct Measured {
  double seconds = 0;
  size_t queries = 0, nodes = 0, calls = 0;
  size_t probesHere = 0;  // probes that ran in this process (not in a worker)
  std::map<std::string, size_t> queriesByPass;
};

Dump gDump;
std::filesystem::path gWorkDir;  // the dump, PyTorch's figures, the minifier's spill file
std::map<std::string, std::string> gTorch;       // minify_bert_torch.py's "key value" lines
std::map<std::string, Measured> gMeasured;        // "forward/isolated-j2" -> figures
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
  options.spillFile = (gWorkDir / "values.bin").string();  // as `fathom minify` does
  Measured m;
  for (auto _ : state) {
    gProbesHere = 0;
    TimedMinify t = timedMinify(*g, *inputs, oracle, options);
    if (!t.result.ok()) return state.SkipWithError(t.result.error().str().c_str());
    const minify::MinifyResult& r = *t.result;
    if (!r.originalFails) return state.SkipWithError(("the original does not fail: " + r.originalWhat).c_str());
    if (m.queries == 0 || t.seconds < m.seconds) m.seconds = t.seconds;
    m.queries = r.stats.queries;
    m.queriesByPass = std::move(t.queriesByPass);
    m.nodes = r.best.graph.size();
    m.calls = callsIn(r.best.graph);
    m.probesHere = gProbesHere;
  }
  gMeasured[graphName + "/" + mode.name] = m;
  const double torchQueries = torchFigure("torch_queries_" + graphName);
  state.counters["queries"] = static_cast<double>(m.queries);
  state.counters["torch_queries"] = torchQueries;
  state.counters["nodes"] = static_cast<double>(m.nodes);
  state.counters["torch_nodes"] = torchFigure("torch_nodes_" + graphName);
  if (torchQueries > 0) state.counters["queries/torch"] = static_cast<double>(m.queries) / torchQueries;
}

void registerBenchmarks() {
  for (const char* graph : kGraphs)
    for (const Mode& mode : kModes)
      benchmark::RegisterBenchmark((std::string("BM_MinifyBert12/") + graph + "/" + mode.name).c_str(),
                                   [graph = std::string(graph), mode](benchmark::State& s) { BM_MinifyBert12(s, graph, mode); })
          ->Iterations(1)
          ->Unit(benchmark::kSecond)
          ->UseRealTime();
}

void printSummary() {
  for (const char* graph : kGraphs) {
    const std::string g = graph;
    auto find = [&](const char* mode) -> const Measured* {
      auto it = gMeasured.find(g + "/" + mode);
      return it == gMeasured.end() ? nullptr : &it->second;
    };
    const Measured* here = find("in-process");
    const Measured* j1 = find("isolated-j1");
    const Measured* j2 = find("isolated-j2");
    const Measured* any = here ? here : j1 ? j1 : j2;  // -j 1 asks what in-process asks
    if (!any) continue;
    const char* which = here ? "in-process" : j1 ? "-j 1" : "-j 2";
    const double tq = torchFigure("torch_queries_" + g), tn = torchFigure("torch_nodes_" + g);
    std::printf("%s (%s nodes, culprit %%%s): fathom (%s) %zu queries -> %zu nodes (%zu calls); PyTorch's minifier %.0f queries -> "
                "%.0f nodes (%.0f calls) in %.1f s\n",
                graph, gTorch["nodes_" + g].c_str(), gTorch["culprit_" + g].c_str(), which, any->queries, any->nodes, any->calls, tq, tn,
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
    if (j2) std::printf(" isolated -j 2 %.2f s (%zu queries)", j2->seconds, j2->queries);
    if (j1 && j2) std::printf(": -j 2 / -j 1 = %.2f (target < 1)", j2->seconds / j1->seconds);
    std::printf("\n");
    for (const Measured* m : {j1, j2})
      if (m && m->probesHere > 0)
        std::printf("  note: an isolated run probed %zu candidates in this process (isolation not in effect)\n", m->probesHere);
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
    else rest.push_back(argv[i]);
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
