// AOT autograd speed (issue 5):
//   BM_AotBert12SymbolicMinCut  trace + joint graph + min-cut partition (+ compile) of the 12-layer
//                               BERT-base encoder with symbolic batch and sequence (hints 8, 128);
//                               target <= 150 ms. PyTorch 1.13's aot_function on the same encoder
//                               (tests/bench/aot_bert_torch.py) is measured in the same run.
//   BM_GradInputsOnly / BM_GradAll  grad() of an MLP with 6 hidden layers with respect to its
//                               input only vs every parameter too; target ratio >= 1.5x.
//   build/tests/bench/fathom_aot_bench [--torch-repeat=N] [benchmark flags]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include "engine/aot/AotCompile.h"
#include "engine/autograd/Autograd.h"
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"
#include "engine/interp/ExampleInputs.h"
#include "samples/models/Models.h"
#include "tests/bench/KeepTimes.h"
#include "tests/bench/PythonScript.h"
#include "tests/bench/TorchRepeatFlag.h"

namespace fathom {
namespace {

using frontend::Tensor;


void BM_AotBert12SymbolicMinCut(benchmark::State& state) {
  auto model = models::buildModel("bert", {.layers = 12, .batch = 8, .seq = 128});
  if (!model.ok()) return state.SkipWithError(model.error().str().c_str());
  aot::AotOptions o;
  o.shapes = dynamicShapes();
  o.partitioner = aot::Partitioner::MinCut;
  size_t joint = 0, saved = 0;
  double savedMb = 0, traceMs = 0, partitionMs = 0;
  for (auto _ : state) {
    auto c = aot::aotCompile(**model, o);
    if (!c.ok()) return state.SkipWithError(c.error().str().c_str());
    joint = c->dump.graph("joint")->size();
    saved = c->dump.partition->saved.size();
    savedMb = static_cast<double>(c->dump.partition->savedBytes()) / 1e6;
    traceMs = c->traceMs;
    partitionMs = c->partitionMs;
  }
  state.counters["joint_nodes"] = static_cast<double>(joint);
  state.counters["saved"] = static_cast<double>(saved);
  state.counters["saved_MB"] = savedMb;
  state.counters["trace_ms"] = traceMs;
  state.counters["partition_ms"] = partitionMs;
}
BENCHMARK(BM_AotBert12SymbolicMinCut)->Unit(benchmark::kMillisecond)->MinTime(3.0)->UseRealTime();

// An MLP with 6 hidden layers of 1024, batch 256, on real tensors: x -> (linear, relu) x 6 -> sum.
struct Mlp {
  Tensor x;
  std::vector<Tensor> params;
  Tensor loss;
};

Tensor drawn(const IntList& sizes, uint64_t seed, bool requiresGrad) {
  ExampleInput in;
  in.meta = fakeTensor(DType::Float32, {sizes.begin(), sizes.end()});
  in.seed = seed;
  auto v = materializeInputs({in});
  Tensor t = Tensor::eager((*v)[0].as<fathom::Tensor>());
  if (requiresGrad) autograd::setRequiresGrad(t);
  return t;
}

Mlp buildMlp() {
  Mlp m;
  constexpr int64_t kBatch = 256, kWidth = 1024, kLayers = 6;
  m.x = drawn({kBatch, kWidth}, 1, true);
  Tensor h = m.x;
  for (int64_t i = 0; i < kLayers; ++i) {
    Tensor w = drawn({kWidth, kWidth}, 10 + static_cast<uint64_t>(i), true);
    Tensor b = drawn({kWidth}, 20 + static_cast<uint64_t>(i), true);
    m.params.push_back(w);
    m.params.push_back(b);
    h = frontend::relu(frontend::linear(h, w, b));
  }
  m.loss = frontend::sum(h, {0, 1});
  return m;
}

void runGrad(benchmark::State& state, bool all) {
  Mlp m = buildMlp();
  autograd::TensorList inputs{m.x};
  if (all) inputs.insert(inputs.end(), m.params.begin(), m.params.end());
  for (auto _ : state) {
    auto g = frontend::catchErrors([&] { return autograd::grad({m.loss}, inputs, {}, {.retainGraph = true}); });
    if (!g.ok()) return state.SkipWithError(g.error().str().c_str());
    benchmark::DoNotOptimize(g->front().real().data());
  }
  state.counters["gradients"] = static_cast<double>(inputs.size());
}
void BM_GradInputsOnly(benchmark::State& state) { runGrad(state, false); }
void BM_GradAll(benchmark::State& state) { runGrad(state, true); }
BENCHMARK(BM_GradInputsOnly)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GradAll)->Unit(benchmark::kMillisecond)->UseRealTime();

// PyTorch's lines "static_ms X" / "symbolic_ms X" / "symbolic_error ...", or nothing.
std::map<std::string, std::string> torchReference(int repeat) {
  auto out = runTorchScript("aot_bert_torch.py", "--repeat " + std::to_string(repeat));
  out.erase("output");
  return out;
}

}  // namespace
}  // namespace fathom

int main(int argc, char** argv) {
  using namespace fathom;
  const int torchRepeat = initBenchmarkWithTorchRepeat(argc, argv, 1);
  KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const double aot = reporter.time("BM_AotBert12").value_or(-1), inputsOnly = reporter.time("BM_GradInputsOnly").value_or(-1),
               all = reporter.time("BM_GradAll").value_or(-1);
  if (aot > 0) std::printf("fathom BERT-12 symbolic trace + joint + min-cut: %.1f ms (target <= 150 ms)\n", aot);
  if (inputsOnly > 0 && all > 0)
    std::printf("grad() inputs only %.2f ms vs all gradients %.2f ms: %.2fx (target >= 1.5x)\n", inputsOnly, all, all / inputsOnly);
  if (torchRepeat <= 0 || aot <= 0) return 0;
  auto torch = torchReference(torchRepeat);
  if (torch.count("static_ms")) {
    const double ms = std::stod(torch["static_ms"]);
    std::printf("PyTorch 1.13 aot_function (static fake tensors, min-cut) %.0f ms: PyTorch / fathom = %.0fx\n", ms, ms / aot);
  }
  if (torch.count("symbolic_ms")) {
    const double ms = std::stod(torch["symbolic_ms"]);
    std::printf("PyTorch 1.13 aot_function (symbolic, min-cut) %.0f ms: PyTorch / fathom = %.0fx\n", ms, ms / aot);
  }
  if (torch.count("symbolic_error")) std::printf("PyTorch 1.13 symbolic: %s\n", torch["symbolic_error"].c_str());
  if (torch.empty()) std::printf("PyTorch reference unavailable (needs /usr/bin/python3 with python3-torch)\n");
  return 0;
}
