// Symbolic tracing and guard checking of the 12-layer BERT-base encoder (samples/models, batch 8,
// seq 128, batch and sequence symbolic) against PyTorch 1.13's make_fx(tracing_mode="symbolic")
// on the same model (tests/bench/trace_bert_torch.py), measured in the same run:
//   build/tests/bench/fathom_trace_bench [--torch-repeat=N] [benchmark flags]
// Targets (issue 4): the trace <= 100 ms; checking the guard set against new sizes <= 1 us.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "engine/frontend/ShapeTracing.h"
#include "engine/graph/GraphGuards.h"
#include "samples/models/Models.h"
#include "tests/bench/KeepTimes.h"
#include "tests/bench/TorchRepeatFlag.h"

namespace fathom {
namespace {

const models::ModelOptions kBert{.layers = 12, .batch = 8, .seq = 128};
std::unique_ptr<frontend::Model> gModel;

void BM_TraceBert12Symbolic(benchmark::State& state) {
  size_t guards = 0, nodes = 0;
  for (auto _ : state) {
    auto t = traceWithShapes(*gModel, dynamicShapes());
    if (!t.ok()) {
      state.SkipWithError(t.error().str().c_str());
      break;
    }
    guards = t->env->guards().size();
    nodes = t->dump.graphs.front().graph.size();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["guards"] = static_cast<double>(guards);
}
BENCHMARK(BM_TraceBert12Symbolic)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

// One call's question to the cache: do this entry's guards hold for input sizes 4x64?
void BM_GuardSetCheck(benchmark::State& state) {
  auto t = traceWithShapes(*gModel, dynamicShapes());
  auto guards = guardSetOf(t->dump.graphs.front().graph, *t->env);
  auto other = models::buildModel("bert", {.layers = 12, .batch = 4, .seq = 64});
  if (!guards.ok() || !other.ok()) {
    state.SkipWithError("cannot build the guard set");
    return;
  }
  const auto sizes = inputSizes(frontend::exampleInputs(**other));
  bool hit = false;
  for (auto _ : state) {
    hit = guards->check(sizes);
    benchmark::DoNotOptimize(hit);
  }
  state.counters["checks"] = static_cast<double>(guards->guardCount());
  state.counters["inputs"] = static_cast<double>(sizes.size());
  if (!hit) state.SkipWithError("the guards refused 4x64");
}
BENCHMARK(BM_GuardSetCheck)->Unit(benchmark::kNanosecond);

// PyTorch's best ms per symbolic trace, or a negative number when it cannot run.
double torchMs(int repeat) {
  const auto script = std::filesystem::path(FATHOM_SOURCE_DIR) / "tests" / "bench" / "trace_bert_torch.py";
  const std::string cmd = "/usr/bin/python3 '" + script.string() + "' --layers 12 --batch 8 --seq 128 --repeat " +
                          std::to_string(repeat) + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char line[512];
  double ms = -1;
  while (std::fgets(line, sizeof line, p)) {
    if (std::sscanf(line, "ms_per_trace %lf", &ms) != 1) std::fputs(line, stderr);
  }
  return pclose(p) == 0 ? ms : -1;
}

}  // namespace
}  // namespace fathom

int main(int argc, char** argv) {
  using namespace fathom;
  const int torchRepeat = initBenchmarkWithTorchRepeat(argc, argv, 3);
  auto model = models::buildModel("bert", kBert);
  if (!model.ok()) {
    std::fprintf(stderr, "cannot build BERT: %s\n", model.error().str().c_str());
    return 1;
  }
  gModel = std::move(*model);
  std::printf("BERT-base encoder, 12 layers, traced with symbolic batch and sequence (hints 8, 128)\n");
  KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double traceMs = reporter.time("BM_TraceBert12Symbolic").value_or(0), checkNs = reporter.time("BM_GuardSetCheck").value_or(0);
  std::printf("fathom trace %.1f ms (target <= 100 ms); guard set check %.0f ns (target <= 1000 ns)\n", traceMs, checkNs);
  const double torch = torchRepeat > 0 ? torchMs(torchRepeat) : -1;
  if (torch <= 0) {
    std::printf("PyTorch reference unavailable (needs /usr/bin/python3 with python3-torch)\n");
    return 0;
  }
  std::printf("PyTorch 1.13 make_fx(tracing_mode=\"symbolic\") %.0f ms: PyTorch / fathom = %.0fx\n", torch, torch / traceMs);
  return 0;
}
