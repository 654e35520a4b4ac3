// Graph diff at 10,000 nodes (issue 22: "`fathom diff` of two 10,000-node graphs <= 200 ms").
// Two pairs of GPT-2 joint graphs (62 layers, 10,133 nodes each, traced with AOT autograd):
//   sizes  - batch 2 at seq 8 against seq 16: every node matches by name, ~8,000 change meta
//            (the worst case for the descriptions: each changed pair is put into words);
//   edited - the seq-8 graph against a copy with every 4th add turned into a sub and its last 60
//            calls renamed (matched by op and inputs instead of by name).
// Measured per pair: the engine's diffGraphs (what `fathom diff` computes once the dumps are
// loaded), the GUI's DiffModel::build (the diff, marks, correspondence and every description)
// and the overlay (DiffOverlay: the union, its GraphModel and grouping). The reference, in the
// same run: loading the two graphs (parseDump of both dumps' text), which `fathom diff` also does.
//   build/tests/bench/fathom_graph_diff_bench [benchmark flags]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include "engine/aot/AotCompile.h"
#include "engine/graph/GraphDiff.h"
#include "samples/models/Models.h"
#include "tests/bench/KeepTimes.h"
#include "viz/model/DiffModel.h"
#include "viz/model/DiffOverlay.h"
#include "viz/model/Grouping.h"

namespace fathom::viz {
namespace {

constexpr int64_t kLayers = 62;

struct Side {
  std::shared_ptr<Dump> dump;
  std::string text;  // serialized, for the load reference
  std::unique_ptr<GraphModel> joint;
};

std::unique_ptr<Side> gpt2(int64_t seq) {
  auto m = models::buildModel("gpt2", {.layers = kLayers, .batch = 2, .seq = seq});
  if (!m.ok()) return nullptr;
  auto c = aot::aotCompile(**m, {});
  if (!c.ok()) return nullptr;
  auto s = std::make_unique<Side>();
  s->dump = std::make_shared<Dump>(std::move(c->dump));
  return s;
}

// The seq-8 graph edited: every 4th add becomes a sub, the last 60 calls get another name.
std::unique_ptr<Side> edited(const Side& from) {
  auto s = std::make_unique<Side>();
  s->dump = std::make_shared<Dump>(*from.dump);
  for (NamedGraph& g : s->dump->graphs) {
    if (g.name != "joint") continue;
    Graph edited;
    int adds = 0;
    const size_t n = g.graph.size();
    for (size_t i = 0; i < n; ++i) {
      Node node = g.graph.nodes()[i];
      if (node.target == "aten.add.Tensor" && ++adds % 4 == 0) node.target = "aten.sub.Tensor";  // same schema
      if (node.kind == NodeKind::Call && i + 60 >= n) node.name += "_renamed";
      edited.append(std::move(node));
    }
    g.graph = std::move(edited);
  }
  return s;
}

struct Pair {
  std::unique_ptr<Side> a, b;
};

Pair& pair(int which) {
  static Pair pairs[2];
  Pair& p = pairs[which];
  if (!p.a) {
    p.a = gpt2(8);
    p.b = which == 0 ? gpt2(16) : edited(*p.a);
    for (Side* s : {p.a.get(), p.b.get()}) {
      s->text = serializeDump(*s->dump);
      s->joint = std::make_unique<GraphModel>(std::move(*GraphModel::build(*s->dump, "joint")));
    }
  }
  return p;
}

const char* pairName(int which) { return which == 0 ? "sizes" : "edited"; }

void BM_LoadBoth(benchmark::State& state) {
  const Pair& p = pair(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto a = parseDump(p.a->text, "a");
    auto b = parseDump(p.b->text, "b");
    if (!a.ok() || !b.ok()) state.SkipWithError("parseDump failed");
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
  }
  state.SetLabel(pairName(static_cast<int>(state.range(0))));
}

void BM_DiffGraphs(benchmark::State& state) {
  const Pair& p = pair(static_cast<int>(state.range(0)));
  const Graph& a = *p.a->dump->graph("joint");
  const Graph& b = *p.b->dump->graph("joint");
  GraphDiffSummary s;
  for (auto _ : state) s = diffGraphs(a, b).summary;
  state.SetLabel(std::string(pairName(static_cast<int>(state.range(0)))) + ": " + std::to_string(a.size()) + " vs " +
                 std::to_string(b.size()) + " nodes, " + std::to_string(s.changed) + " changed, " + std::to_string(s.added) +
                 " added, " + std::to_string(s.removed) + " removed");
}

void BM_DiffModel(benchmark::State& state) {
  const Pair& p = pair(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    DiffModel d = DiffModel::build(*p.a->joint, *p.b->joint);
    benchmark::DoNotOptimize(d.entries().data());
  }
  state.SetLabel(pairName(static_cast<int>(state.range(0))));
}

void BM_Overlay(benchmark::State& state) {
  const Pair& p = pair(static_cast<int>(state.range(0)));
  const DiffModel d = DiffModel::build(*p.a->joint, *p.b->joint);
  for (auto _ : state) {
    auto o = buildDiffOverlay(d);
    if (!o.ok()) state.SkipWithError("buildDiffOverlay failed");
    auto m = GraphModel::build(*o->dump, o->graph);
    GroupTree tree = GroupTree::build(*m);
    benchmark::DoNotOptimize(tree.groups().data());
  }
  state.SetLabel(pairName(static_cast<int>(state.range(0))));
}

BENCHMARK(BM_LoadBoth)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DiffGraphs)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DiffModel)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Overlay)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fathom::viz

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  fathom::KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::printf("\nAgainst loading the two graphs (same run; target: the diff <= 200 ms):\n");
  for (int which : {0, 1}) {
    const std::string arg = "/" + std::to_string(which);
    auto load = reporter.time("BM_LoadBoth" + arg), diff = reporter.time("BM_DiffGraphs" + arg);
    auto model = reporter.time("BM_DiffModel" + arg), overlay = reporter.time("BM_Overlay" + arg);
    if (!load || !diff || !model || !overlay) continue;
    std::printf("  %-6s load both %7.1f ms | diffGraphs %6.1f ms (%.2fx load) | DiffModel %6.1f ms (%.2fx) | overlay %6.1f ms (%.2fx)\n",
                fathom::viz::pairName(which), *load, *diff, *diff / *load, *model, *model / *load, *overlay, *overlay / *load);
  }
  benchmark::Shutdown();
  return 0;
}
