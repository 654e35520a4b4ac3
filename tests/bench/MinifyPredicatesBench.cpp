// Fathom's minifier side by side with PyTorch 1.13's (functorch.compile.minifier) under five
// predicates (issue 25 item 1), on the BERT-base forward AOT graph (batch 2, seq 32; 4 layers by
// default, --layers=12 for the setting):
//   tests/bench/minify_predicates_torch.py (run first) exports the graph with its real inputs as
//   one dump (node names are FX's), defines the predicates - one culprit, two distant culprit
//   nodes both needed, two ops both needed, a culprit that fails only on a large enough input
//   shape, a wrong result caught by comparing the outputs -, prints their parameters and runs
//   functorch's minifier under each, counting queries.
//   BM_MinifyPredicate/P/MODE  fathom::minify::minify on the same graph under the same predicate
//   (MinifyBenchPredicates.h, its parameters read from the script's lines so both sides use one
//   definition), in-process and isolated -j 1.
// The summary is a table: queries, result op nodes (call nodes), result nodes and wall time of
// both tools, and the ratios fathom / PyTorch. Targets: op nodes <= 1 and queries <= 1. No time
// is asserted.
//   build/tests/bench/fathom_minify_predicates_bench [--work-dir=DIR] [--layers=N]
//       [--predicates=one,two-nodes,two-ops,shape,accuracy] [--passes=KEYS | --skip-passes=KEYS]
//       [benchmark flags]
// --work-dir keeps the dump and PyTorch's figures in DIR and reuses them when already there for
// the same --layers and --predicates (default: a temporary folder, removed at the end).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "minifier/Minify.h"
#include "tests/bench/MinifyBenchPredicates.h"
#include "tests/bench/MinifyBenchSupport.h"

namespace fathom {
namespace {

struct Mode {
  const char* name;
  bool isolate;
};
const Mode kModes[] = {{"in-process", false}, {"isolated-j1", true}};

struct Measured {
  double seconds = 0;
  size_t queries = 0, nodes = 0, calls = 0;
  std::string callNames;
  std::map<std::string, size_t> queriesByPass;
};

Dump gDump;
std::filesystem::path gWorkDir;
std::map<std::string, std::string> gTorch;   // minify_predicates_torch.py's "key value" lines
std::map<std::string, Measured> gMeasured;   // "shape/in-process" -> figures
std::vector<std::string> gPredicates;        // the keys that ran, in order

double torchFigure(const std::string& key) { return figureOf(gTorch, key); }

std::string callNamesOf(const Graph& g) {
  std::string out;
  for (const auto& node : g.nodes())
    if (node.kind == NodeKind::Call) out += (out.empty() ? "" : ",") + node.name;
  return out;
}

void BM_MinifyPredicate(benchmark::State& state, const std::string& key, Mode mode) {
  const Graph* g = gDump.graph("forward");
  const auto* inputs = gDump.inputsFor("forward");
  if (!g || !inputs) return state.SkipWithError("the dump has no graph 'forward' with inputs");
  auto spec = bench::predicateSpec(key, gTorch);
  if (!spec.ok()) return state.SkipWithError(spec.error().str().c_str());
  if (auto missing = bench::missingNode(*spec, *g); !missing.empty())
    return state.SkipWithError(("no call node %" + missing + " in the graph: the export renamed it").c_str());
  minify::Oracle oracle([&spec](const minify::Candidate& c) { return bench::probe(*spec, c); });
  minify::MinifyOptions options;
  options.isolate = mode.isolate;
  options.spillFile = (gWorkDir / "values.bin").string();  // as `fathom minify` does
  Measured m;
  for (auto _ : state) {
    TimedMinify t = timedMinify(*g, *inputs, oracle, options);
    if (!t.result.ok()) return state.SkipWithError(t.result.error().str().c_str());
    const minify::MinifyResult& r = *t.result;
    if (!r.originalFails) return state.SkipWithError(("the original does not fail: " + r.originalWhat).c_str());
    m.seconds = t.seconds;
    m.queries = r.stats.queries;
    m.queriesByPass = std::move(t.queriesByPass);
    m.nodes = r.best.graph.size();
    m.calls = callsIn(r.best.graph);
    m.callNames = callNamesOf(r.best.graph);
  }
  gMeasured[key + "/" + mode.name] = m;
  state.counters["queries"] = static_cast<double>(m.queries);
  state.counters["torch_queries"] = torchFigure("torch_queries." + key);
  state.counters["calls"] = static_cast<double>(m.calls);
  state.counters["torch_calls"] = torchFigure("torch_calls." + key);
}

void registerBenchmarks() {
  for (const std::string& key : gPredicates)
    for (const Mode& mode : kModes)
      benchmark::RegisterBenchmark(("BM_MinifyPredicate/" + key + "/" + mode.name).c_str(),
                                   [key, mode](benchmark::State& s) { BM_MinifyPredicate(s, key, mode); })
          ->Iterations(1)
          ->Unit(benchmark::kSecond)
          ->UseRealTime();
}

std::string ratio(double fathom, double torch) {
  if (fathom < 0 || torch <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", fathom / torch);
  return text;
}

const Measured* measured(const std::string& key, const char* mode) {
  auto it = gMeasured.find(key + "/" + mode);
  return it == gMeasured.end() ? nullptr : &it->second;
}

std::string secondsOf(const Measured* m) {
  if (!m) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", m->seconds);
  return text;
}

void printRow(const std::string& key) {
  const Measured* here = measured(key, "in-process");
  const Measured* j1 = measured(key, "isolated-j1");
  const Measured* any = here ? here : j1;  // -j 1 asks what in-process asks
  if (!any) return;
  const double tq = torchFigure("torch_queries." + key), tc = torchFigure("torch_calls." + key);
  const double tn = torchFigure("torch_nodes." + key), ts = torchFigure("torch_seconds." + key);
  std::printf("%-10s | %5zu %5.0f %5s | %4zu %4.0f %5s | %4zu %4.0f | %7s %7s %7.1f %5s\n", key.c_str(), any->queries, tq,
              ratio(static_cast<double>(any->queries), tq).c_str(), any->calls, tc,
              ratio(static_cast<double>(any->calls), tc).c_str(), any->nodes, tn, secondsOf(here).c_str(),
              secondsOf(j1).c_str(), ts, ratio(here ? here->seconds : -1, ts).c_str());
}

void printSummary() {
  std::printf("\nBERT-base forward, %s layers (%s nodes, %s call nodes); F = fathom (in-process), T = PyTorch's minifier\n",
              gTorch["layers"].c_str(), gTorch["nodes"].c_str(), gTorch["calls"].c_str());
  std::printf("%-10s | %5s %5s %5s | %4s %4s %5s | %4s %4s | %7s %7s %7s %5s\n", "predicate", "F q", "T q", "F/T", "F op",
              "T op", "F/T", "F n", "T n", "F s", "F -j1 s", "T s", "F/T");
  for (const std::string& key : gPredicates) printRow(key);
  std::printf("(q: queries; op: the result's op nodes - FX call_function, Fathom call nodes; n: the result's nodes; s: wall "
              "seconds. Targets: op F/T <= 1, q F/T <= 1.)\n");
  for (const std::string& key : gPredicates) {
    const Measured* m = measured(key, "in-process");
    if (!m) m = measured(key, "isolated-j1");
    if (!m) continue;
    std::printf("%s: fathom kept %s; PyTorch kept %s\n  fathom's queries by pass:", key.c_str(), m->callNames.c_str(),
                gTorch["torch_result." + key].c_str());
    for (const auto& [pass, count] : m->queriesByPass) std::printf(" %s %zu;", pass.c_str(), count);
    std::printf("\n");
  }
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace
}  // namespace fathom

int main(int argc, char** argv) {
  using namespace fathom;
  std::vector<char*> rest;
  std::string layers = "4", predicates = "one,two-nodes,two-ops,shape,accuracy";
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--work-dir=", 11) == 0) gWorkDir = argv[i] + 11;
    else if (std::strncmp(argv[i], "--layers=", 9) == 0) layers = std::to_string(std::atoi(argv[i] + 9));
    else if (std::strncmp(argv[i], "--predicates=", 13) == 0) predicates = argv[i] + 13;
    else if (!takePassFlag(argv[i])) rest.push_back(argv[i]);
  }
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  gPredicates = splitList(predicates);
  for (const auto& key : gPredicates)
    if (!bench::isPredicateKey(key)) {
      std::fprintf(stderr, "unknown predicate '%s'; the predicates are %s\n", key.c_str(), bench::predicateKeyList().c_str());
      return 2;
    }
  const bool temporary = prepareWorkDir(gWorkDir, "fathom-minify-predicates-");
  const std::string args = "--out '" + gWorkDir.string() + "' --layers " + layers + " --predicates " + predicates;
  gTorch = cachedTorchReference(gWorkDir, "torch-predicates.txt", "minify_predicates_torch.py", args,
                                "exporting the BERT-base forward and minifying it with PyTorch's minifier under each predicate...");
  gTorch["layers"] = layers;
  const int rc = withTorchExport(gTorch, [](Dump&& d) {
    gDump = std::move(d);
    registerBenchmarks();
    benchmark::RunSpecifiedBenchmarks();
    printSummary();
  });
  if (temporary) std::filesystem::remove_all(gWorkDir);
  return rc;
}
