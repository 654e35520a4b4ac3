// The jit backend (engine/jit, `--backend jit`) against references measured in the same run, at
// 1 thread and at the default count (FATHOM_NUM_THREADS, else the cores; OpenBLAS follows):
//   BM_Pointwise{Eager,Jit,Triad}  8 float32 ops (mul, add, tanh, mul, sub, relu, neg, exp) over x, y
//       [4096, 4096] -> one generated kernel (checked), eager and jitted, against a STREAM triad
//       a = b + s * c over 16M floats: jit GB/s (x, y read, out written) as a fraction of the triad's,
//       and the speedup over eager (goals >= 80%, >= 4x). BM_Arithmetic{Eager,Jit}: 8 cheap ops, no
//       transcendental. BM_PointwiseKernelOnly: the generated function alone on a reused output.
//   BM_BertForward{Eager,Jit}  one BERT-base encoder layer forward (batch 8, seq 128; the graph
//       BertLayerBench runs) against PyTorch 1.13 eager (bert_layer_torch.py). Goal: jit faster.
//   BM_BertStep{Eager,Jit}  the AOT training step of models' bert (1 layer, batch 8, seq 128,
//       eval, static, min-cut): the forward graph, then the backward on its saved values and the
//       tangents (runPartitioned's glue, with the graph runner swapped). Goal: jit >= 1.3x.
//   Compile time: the layer forward compiled by a fresh process (this binary re-run with
//       --measure-compile) on an empty FATHOM_KERNEL_CACHE, then again on the filled one.
//       Goals: <= 10 ms per kernel, <= 50 ms cold, nothing compiled warm.
// Before timing, jit outputs are compared with eager ones (the max |diff| is printed).
//   build/tests/bench/fathom_jit_bench [--torch-seconds=S] [--profile] [benchmark flags]
// --profile: the eager step's time per op (split by whether the jit generates the node), each
// generated kernel alone against the eager time of its nodes, and each kernel's compile time.
// (--measure-compile* are internal: the child processes that report a compile.)
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "engine/aot/AotCompile.h"
#include "engine/aot/TrainingStep.h"
#include "engine/core/Parallel.h"
#include "engine/graph/GraphBuilder.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "engine/interp/ValueDiff.h"
#include "engine/jit/CompiledGraph.h"
#include "engine/ops/cpu/ComputeThreads.h"
#include "samples/Samples.h"
#include "samples/models/Models.h"
#include "tests/bench/JitBenchProfile.h"
#include "tests/bench/KeepTimes.h"
#include "tests/bench/PythonScript.h"

namespace fathom {
namespace {

using jitbench::Clock;
using jitbench::msSince;
using jitbench::OpTimer;
using jitbench::OpTimes;

constexpr int64_t kRows = 4096, kCols = 4096, kFloats = kRows * kCols;
int gDefaultThreads = 1;

// A graph, inputs for it, and its jit compilation.
struct Jitted {
  Graph graph;
  ValueList inputs;
  std::unique_ptr<CompiledGraph> jit;
};

// The AOT training step: forward and backward graphs (compiled too), primals and tangents.
struct Step {
  aot::AotCompiled aot;
  ValueList primals, tangents;
  std::unique_ptr<CompiledGraph> fwdJit, bwdJit;
};

Jitted gChain, gArith, gForward;
Step gStep;

void useThreads(benchmark::State& state) {
  setComputeThreads(state.range(0) > 0 ? static_cast<int>(state.range(0)) : gDefaultThreads);
  state.counters["threads"] = numThreads();
}

// x * 0.5 + y -> tanh -> * y -> - x -> relu -> neg -> exp: two transcendentals and six cheap ops,
// the mix of an Inductor pointwise benchmark; every value but the last lives only in the kernel.
Result<Graph> pointwiseChain() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {kRows, kCols}));
  NodeRef y = b.input("y", fakeTensor(DType::Float32, {kRows, kCols}));
  NodeRef h = b.call("aten.add.Tensor", {b.call("aten.mul.Scalar", {x, 0.5}), y});
  h = b.call("aten.mul.Tensor", {b.call("aten.tanh.default", {h}), y});
  h = b.call("aten.relu.default", {b.call("aten.sub.Tensor", {h, x})});
  h = b.call("aten.exp.default", {b.call("aten.neg.default", {h})});
  b.output({h});
  return b.finish();
}

// x * 0.5 + y -> * y -> - x -> relu -> neg -> + y -> * 0.25: eight cheap ops, bandwidth-bound.
Result<Graph> arithmeticChain() {
  GraphBuilder b;
  NodeRef x = b.input("x", fakeTensor(DType::Float32, {kRows, kCols})), y = b.input("y", fakeTensor(DType::Float32, {kRows, kCols}));
  NodeRef h = b.call("aten.mul.Tensor", {b.call("aten.add.Tensor", {b.call("aten.mul.Scalar", {x, 0.5}), y}), y});
  h = b.call("aten.neg.default", {b.call("aten.relu.default", {b.call("aten.sub.Tensor", {h, x})})});
  b.output({b.call("aten.mul.Scalar", {b.call("aten.add.Tensor", {h, y}), 0.25})});
  return b.finish();
}

Result<ValueList> runEager(const Graph& g, const ValueList& inputs) { return Interpreter(g).run(inputs); }

template <class Run>
void timeRuns(benchmark::State& state, Run run) {
  useThreads(state);
  for (auto _ : state) {
    Result<ValueList> out = run();
    if (!out.ok()) return state.SkipWithError(out.error().str().c_str());
    benchmark::DoNotOptimize(out->data());
  }
}

void BM_PointwiseEager(benchmark::State& s) { timeRuns(s, [] { return runEager(gChain.graph, gChain.inputs); }); }
void BM_PointwiseJit(benchmark::State& s) { timeRuns(s, [] { return gChain.jit->run(gChain.inputs); }); }
void BM_ArithmeticEager(benchmark::State& s) { timeRuns(s, [] { return runEager(gArith.graph, gArith.inputs); }); }
void BM_ArithmeticJit(benchmark::State& s) { timeRuns(s, [] { return gArith.jit->run(gArith.inputs); }); }

// STREAM's triad over 16M floats on the same pool the kernels use (rows of 4096, as the jit splits).
void BM_PointwiseTriad(benchmark::State& state) {
  useThreads(state);
  std::vector<float> a(kFloats), b(kFloats, 1.0f), c(kFloats, 2.0f);
  const float s = 3.0f;
  float* __restrict pa = a.data();
  const float* __restrict pb = b.data();
  const float* __restrict pc = c.data();
  for (auto _ : state) {
    parallelFor(kRows, 8, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin * kCols; i < end * kCols; ++i) pa[i] = pb[i] + s * pc[i];
    });
    benchmark::DoNotOptimize(pa);
    benchmark::ClobberMemory();
  }
}

// The generated kernel alone (what run() adds: output allocation, input checks, the interpreter
// walk): its function on the inputs and one output buffer kept across iterations.
void BM_PointwiseKernelOnly(benchmark::State& state) {
  useThreads(state);
  const CompiledKernel& k = gChain.jit->kernels()[0];
  std::vector<float> out(kFloats);
  void* const buffers[] = {gChain.inputs[0].as<Tensor>().data(), gChain.inputs[1].as<Tensor>().data(), out.data()};
  for (auto _ : state) {
    // The outer loop the kernel was generated with (contiguous loops collapse into one).
    const int64_t outer = outerExtent(*k.lowered, {});
    parallelFor(outer, std::max<int64_t>(1, outer / 64), [&](int64_t begin, int64_t end) { k.fn(buffers, nullptr, begin, end); });
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}

void BM_BertForwardEager(benchmark::State& s) { timeRuns(s, [] { return runEager(gForward.graph, gForward.inputs); }); }
void BM_BertForwardJit(benchmark::State& s) { timeRuns(s, [] { return gForward.jit->run(gForward.inputs); }); }

// runPartitioned's glue with the runner swapped: forward, then backward on saved + tangents.
// (Eval-mode BERT mutates no input, so there is nothing to copy back.)
Result<ValueList> runStep(bool jit) {
  const Graph& fg = *gStep.aot.dump.graph("forward");
  const Graph& bg = *gStep.aot.dump.graph("backward");
  const PartitionInfo& info = *gStep.aot.dump.partition;
  auto fwd = jit ? gStep.fwdJit->run(gStep.primals) : runEager(fg, gStep.primals);
  FATHOM_TRY(fwd);
  const size_t skip = info.mutatedInputs.size() + static_cast<size_t>(info.numForwardOutputs);
  if (fwd->size() != skip + info.saved.size()) return internalError("the forward returned an unexpected number of values");
  const ValueList saved(fwd->begin() + static_cast<std::ptrdiff_t>(skip), fwd->end());
  ValueList in = aot::backwardInputs(bg, info, saved, gStep.tangents);
  return jit ? gStep.bwdJit->run(std::move(in)) : runEager(bg, in);
}

void BM_BertStepEager(benchmark::State& s) { timeRuns(s, [] { return runStep(false); }); }
void BM_BertStepJit(benchmark::State& s) { timeRuns(s, [] { return runStep(true); }); }

// Args: 1 thread, then 0 = the default count.
BENCHMARK(BM_PointwiseEager)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PointwiseJit)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PointwiseKernelOnly)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PointwiseTriad)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ArithmeticEager)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ArithmeticJit)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BertForwardEager)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BertForwardJit)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BertStepEager)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BertStepJit)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- Setup: graphs, inputs, compilations, and the jit-vs-eager check ----

double maxDiff(const ValueList& got, const ValueList& want, size_t* bad) {
  double worst = 0;
  for (size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    const ValueDiff d = diffValues(got[i], want[i], 1e-4, 1e-5);
    worst = std::max(worst, d.maxAbsDiff);
    *bad += d.ok ? 0 : 1;
  }
  *bad += got.size() == want.size() ? 0 : 1;
  return worst;
}

Status compileInto(Jitted& j) {
  auto cg = CompiledGraph::compile(j.graph, {});
  FATHOM_TRY(cg);
  j.jit = std::move(*cg);
  return {};
}

Status setUpChain(Jitted& chain, Result<Graph> (*build)()) {
  auto g = build();
  FATHOM_TRY(g);
  chain.graph = std::move(*g);
  std::vector<ExampleInput> in(2);
  for (size_t i = 0; i < 2; ++i) {
    in[i].meta = fakeTensor(DType::Float32, {kRows, kCols});
    in[i].seed = 1 + i;
  }
  auto values = materializeInputs(in);
  FATHOM_TRY(values);
  chain.inputs = std::move(*values);
  FATHOM_TRY(compileInto(chain));
  const auto& ks = chain.jit->kernels();
  if (ks.size() != 1 || !ks[0].fn || ks[0].lowered->nodes.size() != 8)
    return internalError("the pointwise chain is not one generated kernel of 8 nodes (" + std::to_string(ks.size()) + " kernels)");
  return {};
}

Status setUpForward() {
  auto dump = samples::buildBertLayer(samples::BertConfig::benchmark());
  FATHOM_TRY(dump);
  auto inputs = materializeInputs(*dump->inputsFor("forward"));
  FATHOM_TRY(inputs);
  gForward.graph = *dump->graph("forward");
  gForward.inputs = std::move(*inputs);
  return compileInto(gForward);
}

Status setUpStep() {
  auto model = models::buildModel("bert", {.layers = 1, .batch = 8, .seq = 128});
  FATHOM_TRY(model);
  aot::AotOptions o;
  o.partitioner = aot::Partitioner::MinCut;
  auto c = aot::aotCompile(**model, o);
  FATHOM_TRY(c);
  gStep.aot = std::move(*c);
  auto all = materializeInputs(gStep.aot.joint.inputs);
  FATHOM_TRY(all);
  const auto split = static_cast<std::ptrdiff_t>(gStep.aot.joint.numPrimals);
  gStep.primals.assign(all->begin(), all->begin() + split);
  gStep.tangents.assign(all->begin() + split, all->end());
  auto f = CompiledGraph::compile(*gStep.aot.dump.graph("forward"), {});
  FATHOM_TRY(f);
  auto b = CompiledGraph::compile(*gStep.aot.dump.graph("backward"), {});
  FATHOM_TRY(b);
  gStep.fwdJit = std::move(*f);
  gStep.bwdJit = std::move(*b);
  return {};
}

// Runs both ways once; prints the worst difference. An error or a mismatch is reported, not fatal.
template <class Eager, class Jit>
void checkSame(const char* what, Eager eager, Jit jit) {
  auto e = eager();
  auto j = jit();
  if (!e.ok() || !j.ok()) {
    std::printf("check %s: %s\n", what, (!e.ok() ? "eager: " + e.error().str() : "jit: " + j.error().str()).c_str());
    return;
  }
  size_t bad = 0;
  const double d = maxDiff(*j, *e, &bad);
  std::printf("check %s: %zu values, max |jit - eager| %.3g, %zu outside 1e-4 relative%s\n", what, e->size(), d, bad,
              bad ? "  <-- MISMATCH" : "");
}

std::string kernelSummary(const CompiledGraph& cg) {
  const FusionSummary s = cg.plan().summary();
  return std::to_string(cg.generatedKernels()) + " generated of " + std::to_string(s.kernels) + " kernels (" +
         std::to_string(s.pointwise) + " pointwise, " + std::to_string(s.reduction) + " reduction, " +
         std::to_string(s.rowLocal) + " row-local, " + std::to_string(s.extern_) + " extern), " +
         std::to_string(cg.graph().size()) + " nodes; " + std::to_string(cg.stats().compiled) + " compiled here in " +
         std::to_string(static_cast<int>(cg.stats().compileMs)) + " ms";
}

Status setUp() {
  FATHOM_TRY(setUpChain(gChain, pointwiseChain));
  FATHOM_TRY(setUpChain(gArith, arithmeticChain));
  FATHOM_TRY(setUpForward());
  FATHOM_TRY(setUpStep());
  std::printf("pointwise chain: %s\n", kernelSummary(*gChain.jit).c_str());
  std::printf("BERT layer forward: %s\n", kernelSummary(*gForward.jit).c_str());
  std::printf("BERT step forward: %s\nBERT step backward: %s\n", kernelSummary(*gStep.fwdJit).c_str(),
              kernelSummary(*gStep.bwdJit).c_str());
  checkSame("pointwise chain", [] { return runEager(gChain.graph, gChain.inputs); }, [] { return gChain.jit->run(gChain.inputs); });
  checkSame("BERT layer forward", [] { return runEager(gForward.graph, gForward.inputs); },
            [] { return gForward.jit->run(gForward.inputs); });
  checkSame("BERT step (forward outputs + gradients)", [] { return runStep(false); }, [] { return runStep(true); });
  return {};
}

// ---- Compile time in fresh processes ----

// The child: compiles the layer forward under the environment's FATHOM_KERNEL_CACHE and prints
// "key value" lines. `warmUp`: LLVM's first use (the pointwise chain's kernel) is paid before.
int measureCompile(bool warmUp) {
  auto dump = samples::buildBertLayer(samples::BertConfig::benchmark());
  if (!dump.ok()) return std::fprintf(stderr, "%s\n", dump.error().str().c_str()), 1;
  if (warmUp) {
    auto chain = pointwiseChain();
    if (!chain.ok() || !CompiledGraph::compile(*chain, {}).ok()) return std::fprintf(stderr, "warm-up failed\n"), 1;
  }
  const auto start = Clock::now();
  auto cg = CompiledGraph::compile(*dump->graph("forward"), {});
  const double wall = msSince(start);
  if (!cg.ok()) return std::fprintf(stderr, "%s\n", cg.error().str().c_str()), 1;
  const JitStats& s = (*cg)->stats();
  std::printf("wall_ms %.3f\ngenerated %lld\nkernels %lld\ncompiled %lld\nfrom_disk %lld\nfrom_memory %lld\n", wall,
              static_cast<long long>((*cg)->generatedKernels()), static_cast<long long>(s.kernels),
              static_cast<long long>(s.compiled), static_cast<long long>(s.fromDisk), static_cast<long long>(s.fromMemory));
  std::printf("compile_ms %.3f\nload_ms %.3f\n", s.compileMs, s.loadMs);
  return 0;
}

// The child of --profile: each generated kernel of the layer forward compiled alone (run with
// FATHOM_KERNEL_CACHE=off), one "name ms loops" line each.
int measureCompileEach() {
  auto dump = samples::buildBertLayer(samples::BertConfig::benchmark());
  if (!dump.ok()) return 1;
  auto cg = CompiledGraph::compile(*dump->graph("forward"), {});  // also LLVM's first use
  if (!cg.ok()) return 1;
  for (const auto& ck : (*cg)->kernels()) {
    if (!ck.fn) continue;
    JitStats stats;
    LoweredKernel k = *ck.lowered;
    // A buffer nothing reads or writes: a new signature (the memory cache does not answer), the same code.
    k.buffers.push_back({.value = "unused", .output = true, .shape = {}, .strides = std::vector<KernelInt>(k.loop.size(), KernelInt::of(0))});
    if (!KernelJit::process().compile({&k}, &stats).ok()) continue;
    std::printf("  %-14s %7.1f ms%s  loops %s, %zu nodes from %%%s\n", k.name.c_str(), stats.compileMs,
                stats.fromMemory ? " (same code as an earlier one)" : "",
                jitbench::k2s(ck.lowered->loop).c_str(), k.nodes.size(), k.nodes.front().c_str());
  }
  return 0;
}

std::map<std::string, std::string> compileInChild(const std::filesystem::path& cache, const char* flag) {
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string cmd = "FATHOM_KERNEL_CACHE='" + cache.string() + "' '" + exe + "' " + flag + " 2>&1";
  std::map<std::string, std::string> out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char line[512], key[128], value[256];
  while (std::fgets(line, sizeof line, p))
    if (std::sscanf(line, "%127s %255s", key, value) == 2) out[key] = value;
  pclose(p);
  return out;
}

double num(const std::map<std::string, std::string>& m, const char* key) {
  auto it = m.find(key);
  return it == m.end() ? -1 : std::atof(it->second.c_str());
}

void reportCompileTimes() {
  const auto cache = std::filesystem::temp_directory_path() / ("fathom-jit-bench-cold-" + std::to_string(::getpid()));
  std::filesystem::remove_all(cache);
  std::filesystem::create_directories(cache);
  const auto cold = compileInChild(cache, "--measure-compile"), warm = compileInChild(cache, "--measure-compile");
  std::filesystem::remove_all(cache);
  std::filesystem::create_directories(cache);
  const auto warmedUp = compileInChild(cache, "--measure-compile-after-warm-up");
  std::filesystem::remove_all(cache);
  if (num(cold, "wall_ms") < 0 || num(warm, "wall_ms") < 0) return (void)std::printf("compile-time child failed\n");
  const double compiled = std::max(1.0, num(cold, "compiled"));
  std::printf("cold compile, BERT layer forward (fresh process, empty cache): %.1f ms whole compile() (target <= 50), "
              "%.0f kernels compiled, LLVM %.1f ms = %.2f ms/kernel (target <= 10), load %.1f ms\n",
              num(cold, "wall_ms"), num(cold, "compiled"), num(cold, "compile_ms"), num(cold, "compile_ms") / compiled,
              num(cold, "load_ms"));
  std::printf("warm disk cache (fresh process, same cache): %.1f ms whole compile(), compiled %.0f (target 0), "
              "compile %.1f ms, from disk %.0f, load %.1f ms\n",
              num(warm, "wall_ms"), num(warm, "compiled"), num(warm, "compile_ms"), num(warm, "from_disk"), num(warm, "load_ms"));
  std::printf("cold again, LLVM's first use paid before (the pointwise chain compiled first): %.1f ms whole compile(), "
              "LLVM %.1f ms for %.0f kernels = %.2f ms/kernel\n",
              num(warmedUp, "wall_ms"), num(warmedUp, "compile_ms"), num(warmedUp, "compiled"),
              num(warmedUp, "compile_ms") / std::max(1.0, num(warmedUp, "compiled")));
}

// ---- --profile: where the step's time goes ----

// The eager step under OpTimer; the forward's outputs (for the backward's inputs) returned.
OpTimes timeEagerStep(ValueList* fwdOut) {
  OpTimes times;
  const Graph& fg = *gStep.aot.dump.graph("forward");
  const Graph& bg = *gStep.aot.dump.graph("backward");
  auto fwd = OpTimer(fg, "forward", jitbench::generatedNodes(*gStep.fwdJit), &times).run(gStep.primals);
  if (!fwd.ok()) return times;
  *fwdOut = *fwd;
  const PartitionInfo& info = *gStep.aot.dump.partition;
  const auto skip = static_cast<std::ptrdiff_t>(info.mutatedInputs.size()) + info.numForwardOutputs;
  ValueList in = aot::backwardInputs(bg, info, ValueList(fwd->begin() + skip, fwd->end()), gStep.tangents);
  (void)OpTimer(bg, "backward", jitbench::generatedNodes(*gStep.bwdJit), &times).run(in);
  return times;
}

void profileStep() {
  ValueList fwdOut;
  const OpTimes times = timeEagerStep(&fwdOut);
  std::vector<std::pair<double, std::string>> rows;
  double total[2] = {0, 0};
  for (const auto& [op, t] : times.byOp) {
    rows.push_back({t[0] + t[1], op});
    total[0] += t[0];
    total[1] += t[1];
  }
  std::sort(rows.rbegin(), rows.rend());
  std::printf("eager step by op (%d threads): %.1f ms in nodes the jit leaves eager, %.1f ms in nodes it generates\n",
              numThreads(), total[0], total[1]);
  for (size_t i = 0; i < std::min<size_t>(rows.size(), 14); ++i)
    std::printf("  %-40s %8.2f ms (generated by the jit: %.2f ms)\n", rows[i].second.c_str(), rows[i].first,
                times.byOp.at(rows[i].second)[1]);
  if (fwdOut.empty()) return;
  const Graph& bg = *gStep.aot.dump.graph("backward");
  const PartitionInfo& info = *gStep.aot.dump.partition;
  const auto skip = static_cast<std::ptrdiff_t>(info.mutatedInputs.size()) + info.numForwardOutputs;
  jitbench::profileKernels(*gStep.aot.dump.graph("forward"), "forward", gStep.primals, times);
  jitbench::profileKernels(bg, "backward", aot::backwardInputs(bg, info, ValueList(fwdOut.begin() + skip, fwdOut.end()), gStep.tangents), times);
}

// ---- Ratios ----

double torchMs(int threads, double seconds) {
  auto out = runTorchScript("bert_layer_torch.py", "--threads " + std::to_string(threads) + " --seconds " + std::to_string(seconds));
  return out.count("ms_per_iter") ? std::atof(out["ms_per_iter"].c_str()) : -1;
}

void reportRatios(const KeepTimes& r, int threads, double torchSeconds) {
  const std::string a = "/" + std::to_string(threads == 1 ? 1 : 0) + "/";
  auto t = [&](const char* name) { return r.time(std::string(name) + a).value_or(-1); };
  const double eager = t("BM_PointwiseEager"), jit = t("BM_PointwiseJit"), triad = t("BM_PointwiseTriad");
  const double bytes = 4.0 * kFloats * static_cast<double>(gChain.jit->kernels()[0].lowered->buffers.size());
  const double jitGBs = bytes / jit / 1e6, triadGBs = 3.0 * 4.0 * kFloats / triad / 1e6;
  std::printf("\n== %d thread(s) ==\n", threads);
  std::printf("pointwise x8, 16M floats: eager %.1f ms, jit %.2f ms (%.1f GB/s), triad %.2f ms (%.1f GB/s): jit %.2fx faster "
              "than eager (target >= 4x), jit at %.0f%% of triad bandwidth (target >= 80%%)\n",
              eager, jit, jitGBs, triad, triadGBs, eager / jit, 100 * jitGBs / triadGBs);
  const double ae = t("BM_ArithmeticEager"), aj = t("BM_ArithmeticJit");
  std::printf("arithmetic x8 (no transcendental), 16M floats: eager %.1f ms, jit %.2f ms (%.1f GB/s): jit %.2fx faster than "
              "eager, at %.0f%% of triad bandwidth\n", ae, aj, bytes / aj / 1e6, ae / aj, 100 * bytes / aj / 1e6 / triadGBs);
  const double kernel = t("BM_PointwiseKernelOnly");
  std::printf("  the generated kernel alone (output buffer reused): %.2f ms (%.1f GB/s, %.0f%% of triad); run() adds %.2f ms\n",
              kernel, bytes / kernel / 1e6, 100 * bytes / kernel / 1e6 / triadGBs, jit - kernel);
  const double fe = t("BM_BertForwardEager"), fj = t("BM_BertForwardJit");
  const double se = t("BM_BertStepEager"), sj = t("BM_BertStepJit");
  std::printf("BERT layer forward: eager %.1f ms, jit %.1f ms: %.2fx\n", fe, fj, fe / fj);
  std::printf("BERT step forward + backward: eager %.1f ms, jit %.1f ms: %.2fx (target >= 1.3x)\n", se, sj, se / sj);
  const double torch = torchSeconds > 0 ? torchMs(threads, torchSeconds) : -1;
  if (torch <= 0) return (void)std::printf("PyTorch reference unavailable (needs /usr/bin/python3 with torch)\n");
  std::printf("PyTorch 1.13 eager forward %.1f ms: jit / PyTorch = %.2fx, eager / PyTorch = %.2fx (target: jit < 1)\n", torch,
              fj / torch, fe / torch);
}

}  // namespace
}  // namespace fathom

int main(int argc, char** argv) {
  using namespace fathom;
  if (argc == 2 && std::strcmp(argv[1], "--measure-compile") == 0) return measureCompile(false);
  if (argc == 2 && std::strcmp(argv[1], "--measure-compile-after-warm-up") == 0) return measureCompile(true);
  if (argc == 2 && std::strcmp(argv[1], "--measure-compile-each") == 0) return measureCompileEach();
  double torchSeconds = 5;
  bool profile = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--torch-seconds=", 16) == 0) torchSeconds = std::atof(argv[i] + 16);
    else if (std::strcmp(argv[i], "--profile") == 0) profile = true;
    else args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  gDefaultThreads = numThreads();
  // This process's kernels go to a folder of its own, never the user's cache.
  const auto cache = std::filesystem::temp_directory_path() / ("fathom-jit-bench-" + std::to_string(::getpid()));
  ::setenv("FATHOM_KERNEL_CACHE", cache.c_str(), 1);
  std::string why;
  if (!KernelJit::process().available(&why)) return std::printf("jit unavailable: %s\n", why.c_str()), 0;
  if (auto s = setUp(); !s.ok()) return std::fprintf(stderr, "%s\n", s.error().str().c_str()), 1;
  reportCompileTimes();
  if (profile) {
    std::printf("compile time per kernel of the layer forward (each alone, fresh process, disk cache off):\n");
    std::fflush(stdout);
    const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
    if (std::system(("FATHOM_KERNEL_CACHE=off '" + exe + "' --measure-compile-each").c_str()) != 0) std::printf("  failed\n");
    for (int t : {1, gDefaultThreads}) setComputeThreads(t), profileStep();
  }
  KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::filesystem::remove_all(cache);
  for (int t : {1, gDefaultThreads}) reportRatios(reporter, t, torchSeconds);
  return 0;
}
