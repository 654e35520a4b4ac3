// The debug interpreter's cost (issue 6): the 12-layer BERT-base forward (batch 8, seq 128)
// run by the plain interpreter and by the debug interpreter, which checks every node's recorded
// meta against the real result; target: checking adds <= 10%.
//   build/tests/bench/fathom_check_bench [--benchmark_repetitions=3] [benchmark flags]
// (the run-to-run spread of a 2 s forward is a few percent: use repetitions for the figure)
#include <benchmark/benchmark.h>

#include <cstdio>

#include "engine/interp/DebugInterpreter.h"
#include "engine/interp/ExampleInputs.h"
#include "samples/models/Models.h"
#include "tests/bench/KeepTimes.h"

namespace fathom {
namespace {

Dump gDump;
ValueList gInputs;

void BM_Interpreter(benchmark::State& state) {
  for (auto _ : state) {
    auto out = Interpreter(gDump.graphs.front().graph).run(gInputs);
    if (!out.ok()) return state.SkipWithError(out.error().str().c_str());
  }
}
BENCHMARK(BM_Interpreter)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

void BM_DebugInterpreter(benchmark::State& state) {
  size_t mismatches = 0, checked = 0;
  for (auto _ : state) {
    DebugInterpreter d(gDump.graphs.front().graph);
    auto out = d.run(gInputs);
    if (!out.ok()) return state.SkipWithError(out.error().str().c_str());
    mismatches = d.mismatches().size();
    checked = d.checkedNodes();
  }
  state.counters["checked"] = static_cast<double>(checked);
  state.counters["mismatches"] = static_cast<double>(mismatches);
}
BENCHMARK(BM_DebugInterpreter)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

}  // namespace
}  // namespace fathom

int main(int argc, char** argv) {
  using namespace fathom;
  benchmark::Initialize(&argc, argv);
  auto dump = models::traceModel("bert", {.layers = 12, .batch = 8, .seq = 128});
  if (!dump.ok()) {
    std::fprintf(stderr, "cannot trace BERT: %s\n", dump.error().str().c_str());
    return 1;
  }
  gDump = std::move(*dump);
  auto inputs = materializeInputs(gDump.inputs.front().second);
  if (!inputs.ok()) return 1;
  gInputs = std::move(*inputs);
  KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double plain = reporter.time("BM_Interpreter/").value_or(0), checked = reporter.time("BM_DebugInterpreter/").value_or(0);
  if (plain > 0 && checked > 0)
    std::printf("BERT-12 forward: interpreter %.1f ms, debug interpreter %.1f ms: checking adds %.1f%% (target <= 10%%)\n",
                plain, checked, 100.0 * (checked - plain) / plain);
  return 0;
}
