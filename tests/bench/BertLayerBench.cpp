// BERT-base encoder layer forward (batch 8, seq 128; samples/Bert.cpp) in Fathom's eager
// interpreter, against PyTorch 1.13 eager (nn.functional, tests/bench/bert_layer_torch.py) on
// the same machine and thread count, measured in the same run. Prints both and the ratio.
//   build/tests/bench/fathom_bert_layer_bench [--threads=N] [--torch-seconds=S] [benchmark flags]
// Without /usr/bin/python3 + torch the PyTorch half is reported as unavailable.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "engine/core/Parallel.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "samples/Samples.h"
#include "tests/bench/KeepTimes.h"

extern "C" void openblas_set_num_threads(int);

namespace fathom {
namespace {

const Graph* gGraph = nullptr;
ValueList gInputs;

void BM_FathomBertLayer(benchmark::State& state) {
  for (auto _ : state) {
    Interpreter interp(*gGraph);
    auto out = interp.run(gInputs);
    if (!out.ok()) {
      state.SkipWithError(out.error().str().c_str());
      break;
    }
    benchmark::DoNotOptimize(out);
  }
  state.counters["threads"] = numThreads();
}
BENCHMARK(BM_FathomBertLayer)->Unit(benchmark::kMillisecond)->MinTime(5.0)->UseRealTime();

// PyTorch's ms per forward, or a negative number when it cannot run.
double torchMs(int threads, double seconds) {
  const auto script = std::filesystem::path(FATHOM_SOURCE_DIR) / "tests" / "bench" / "bert_layer_torch.py";
  const std::string cmd = "/usr/bin/python3 '" + script.string() + "' --threads " + std::to_string(threads) +
                          " --seconds " + std::to_string(seconds) + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char line[512];
  double ms = -1;
  while (std::fgets(line, sizeof line, p)) {
    if (std::sscanf(line, "ms_per_iter %lf", &ms) != 1) std::fputs(line, stderr);
  }
  return pclose(p) == 0 ? ms : -1;
}

}  // namespace
}  // namespace fathom

int main(int argc, char** argv) {
  using namespace fathom;
  int threads = 0;
  double torchSeconds = 10;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--threads=", 10) == 0) threads = std::atoi(argv[i] + 10);
    else if (std::strncmp(argv[i], "--torch-seconds=", 16) == 0) torchSeconds = std::atof(argv[i] + 16);
    else args.push_back(argv[i]);
  }
  if (threads > 0) setNumThreads(threads);
  threads = numThreads();
  openblas_set_num_threads(threads);
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());

  const samples::BertConfig config = samples::BertConfig::benchmark();
  auto dump = samples::buildBertLayer(config);
  if (!dump.ok()) {
    std::fprintf(stderr, "cannot build the BERT layer: %s\n", dump.error().str().c_str());
    return 1;
  }
  auto inputs = materializeInputs(*dump->inputsFor("forward"));
  if (!inputs.ok()) {
    std::fprintf(stderr, "%s\n", inputs.error().str().c_str());
    return 1;
  }
  gGraph = dump->graph("forward");
  gInputs = std::move(*inputs);
  std::printf("BERT-base encoder layer forward: batch %lld, seq %lld, %zu nodes, %d threads\n",
              static_cast<long long>(config.batch), static_cast<long long>(config.seq), gGraph->size(), threads);
  KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double fathomMs = reporter.time("BM_FathomBertLayer").value_or(0);
  const double torch = torchMs(threads, torchSeconds);
  if (torch <= 0) {
    std::printf("PyTorch reference unavailable (needs /usr/bin/python3 with python3-torch)\n");
    return 0;
  }
  std::printf("fathom %.1f ms, PyTorch 1.13 eager %.1f ms (%d threads): fathom / PyTorch = %.2fx (target <= 1.5x)\n",
              fathomMs, torch, threads, fathomMs / torch);
  return 0;
}
