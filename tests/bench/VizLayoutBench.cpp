// The GUI core's layouts and first scenes (viz/). Layered layout vs Graphviz dot in-process on the
// same graphs - NN-like DAGs of 100 to 2,000 boxes (where the AutoLayout threshold is chosen),
// the 12-layer BERT joint graph (~2,150 nodes), a 62-layer GPT-2 joint graph (~10,100 nodes) and
// generated NN-like DAGs of 50,000 and 100,000 nodes (dot only up to --dot-max-nodes, default
// 2,500: it needs ~2 minutes at 10,000). Crossings are reported both as the layered layout counts
// them (between adjacent layers) and geometrically on the drawn polylines, the same metric for
// both engines. Then model build + grouping + first (collapsed) scene at 10k / 50k / 100k nodes,
// and expanding one group of the 100k graph.
//   build/tests/bench/fathom_viz_layout_bench [--dot-max-nodes=N] [--dot-full-joint] [benchmark flags]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/aot/AotCompile.h"
#include "samples/models/Models.h"
#include "tests/bench/KeepTimes.h"
#include "tests/viz/SyntheticGraphs.h"
#include "viz/layout/AutoLayout.h"
#include "viz/model/DumpModel.h"
#include "viz/model/ItemText.h"
#include "viz/model/ViewState.h"

namespace fathom::viz {
namespace {

int32_t gDotMaxNodes = 2500;
bool gDotFullJoint = false;  // --dot-full-joint: also dot on the AOT joint graphs with every edge

std::shared_ptr<const Dump> traced(const std::string& model, int64_t layers) {
  static std::map<std::string, std::shared_ptr<const Dump>> cache;
  const std::string key = model + std::to_string(layers);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  auto m = models::buildModel(model, {.layers = layers, .batch = 2, .seq = 8});
  if (!m.ok()) return nullptr;
  auto c = aot::aotCompile(**m, {});
  if (!c.ok()) return nullptr;
  return cache[key] = std::make_shared<const Dump>(std::move(c->dump));
}

// A whole graph as one flat LayoutGraph: node boxes as the scene sizes them, aside flags.
LayoutGraph flatGraph(const GraphModel& m) {
  LayoutGraph g;
  const SceneStyle style;
  for (const NodeInfo& n : m.nodes()) {
    const BoxSize s = boxSizeFor(nodeLines(n), style);
    g.nodes.push_back({s.width, s.height, static_cast<int32_t>(n.users.size()) > style.asideUsers});
    for (int32_t u : n.inputs) g.edges.push_back({u, n.index, 1});
  }
  return g;
}

const LayoutGraph& graphFor(int id) {
  static std::map<int, LayoutGraph> graphs;
  if (auto it = graphs.find(id); it != graphs.end()) return it->second;
  LayoutGraph g;
  if (id == 1 || id == 2) {  // 1: BERT-12 joint, 2: GPT-2-62 joint
    auto dump = id == 1 ? traced("bert", 12) : traced("gpt2", 62);
    if (dump) g = flatGraph(*GraphModel::build(*dump, "joint"));
  } else {
    g = testing::nnLikeDag(id, 11);
  }
  return graphs[id] = std::move(g);
}

std::string graphName(int id) {
  return id == 1 ? "bert12-joint" : id == 2 ? "gpt2-62-joint" : "nn-dag-" + std::to_string(id);
}

void report(benchmark::State& state, const LayoutGraph& g, const Layout& l) {
  state.counters["nodes"] = static_cast<double>(g.nodes.size());
  state.counters["crossings"] = static_cast<double>(l.crossings);
  state.counters["drawn_crossings"] = static_cast<double>(countPolylineCrossings(g, l));
  state.SetLabel(graphName(static_cast<int>(state.range(0))));
}

void BM_Layered(benchmark::State& state) {
  const LayoutGraph& g = graphFor(static_cast<int>(state.range(0)));
  if (g.nodes.empty()) return state.SkipWithError("could not make the graph");
  Result<Layout> l = internalError("not run");
  for (auto _ : state) l = layeredLayout(g);
  if (!l.ok()) return state.SkipWithError(l.error().str().c_str());
  report(state, g, *l);
  state.counters["layers"] = l->layers;
}

void BM_GraphvizDot(benchmark::State& state) {
  if (!graphvizAvailable()) return state.SkipWithError("this build has no Graphviz");
  const LayoutGraph& g = graphFor(static_cast<int>(state.range(0)));
  if (static_cast<int32_t>(g.nodes.size()) > gDotMaxNodes) return state.SkipWithError("over --dot-max-nodes");
  if (state.range(0) <= 2 && !gDotFullJoint)
    return state.SkipWithError("joint graph with its long saved-value edges: minutes in dot (--dot-full-joint)");
  Result<Layout> l = internalError("not run");
  for (auto _ : state) l = graphvizLayout(g);
  if (!l.ok()) return state.SkipWithError(l.error().str().c_str());
  report(state, g, *l);
}

// The same graph without the edges the layered layout stubs (spanning > maxSpan layers): what dot
// gets if it is spared the long saved-value edges, each of which it would lay out as a chain of
// hundreds of virtual nodes.
void BM_GraphvizDotShortEdges(benchmark::State& state) {
  if (!graphvizAvailable()) return state.SkipWithError("this build has no Graphviz");
  const LayoutGraph& full = graphFor(static_cast<int>(state.range(0)));
  if (static_cast<int32_t>(full.nodes.size()) > gDotMaxNodes) return state.SkipWithError("over --dot-max-nodes");
  auto layered = layeredLayout(full);
  if (!layered.ok()) return state.SkipWithError(layered.error().str().c_str());
  LayoutGraph g;
  g.nodes = full.nodes;
  for (size_t j = 0; j < full.edges.size(); ++j)
    if (layered->edges[j].route != EdgeRoute::Stubbed) g.edges.push_back(full.edges[j]);
  Result<Layout> l = internalError("not run");
  for (auto _ : state) l = graphvizLayout(g);
  if (!l.ok()) return state.SkipWithError(l.error().str().c_str());
  report(state, g, *l);
  state.counters["dropped_edges"] = static_cast<double>(full.edges.size() - g.edges.size());
}

// Graph ids: a number of boxes for an NN-like DAG; 1 = BERT-12 joint, 2 = GPT-2-62 joint.
void layoutArgs(benchmark::internal::Benchmark* b) {
  for (int id : {100, 150, 200, 300, 400, 500, 1000, 2000, 1, 2, 50000, 100000}) b->Arg(id);
}
BENCHMARK(BM_Layered)->Apply(layoutArgs)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.2);
BENCHMARK(BM_GraphvizDot)->Apply(layoutArgs)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_GraphvizDotShortEdges)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Every distinct group layout of the fully expanded 12-layer BERT joint graph (module groups of
// 1 to ~60 children: what AutoLayout really gets), laid out by one engine. Arg: 0 layered,
// 1 dot. Counters: jobs, the largest job, crossings summed over the jobs (drawn polylines).
void BM_BertGroupJobs(benchmark::State& state) {
  static std::vector<LayoutJob> jobs;
  static std::shared_ptr<const Dump> dump = traced("bert", 12);
  static std::optional<GraphModel> model;
  static std::optional<GroupTree> tree;
  if (jobs.empty() && dump) {
    model.emplace(*GraphModel::build(*dump, "joint"));
    tree.emplace(GroupTree::build(*model));
    ViewState view(*model, *tree, std::make_shared<LayoutCache>());
    for (size_t g = 0; g < tree->groups().size(); ++g) view.setExpanded(static_cast<int32_t>(g), true);
    for (auto wave = view.pendingJobs(); !wave.empty(); wave = view.pendingJobs())
      for (const LayoutJob& job : wave) {
        jobs.push_back(job);
        view.accept(job, runLayoutJob(job));
      }
  }
  if (jobs.empty()) return state.SkipWithError("no jobs");
  if (state.range(0) == 1 && !graphvizAvailable()) return state.SkipWithError("this build has no Graphviz");
  int64_t crossings = 0;
  size_t largest = 0;
  for (auto _ : state) {
    crossings = 0;
    for (const LayoutJob& job : jobs) {
      auto l = state.range(0) == 1 ? graphvizLayout(job.graph, job.options.graphviz) : layeredLayout(job.graph, job.options.layered);
      if (!l.ok()) return state.SkipWithError(l.error().str().c_str());
      crossings += countPolylineCrossings(job.graph, *l);
      largest = std::max(largest, job.graph.nodes.size());
    }
  }
  state.counters["jobs"] = static_cast<double>(jobs.size());
  state.counters["largest"] = static_cast<double>(largest);
  state.counters["drawn_crossings"] = static_cast<double>(crossings);
  state.SetLabel(state.range(0) == 1 ? "graphviz-dot" : "layered");
}
BENCHMARK(BM_BertGroupJobs)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);

// Model build + grouping + first collapsed scene (all layouts it needs, fresh cache).
// Arg: 10000 = the GPT-2-62 joint graph (module paths); 50000 / 100000 = repeated blocks of 60
// calls without module paths (as a PyTorch export has them).
std::shared_ptr<const Dump> sceneDump(int64_t nodes) {
  static std::map<int64_t, std::shared_ptr<const Dump>> cache;
  if (auto it = cache.find(nodes); it != cache.end()) return it->second;
  if (nodes == 10000) return cache[nodes] = traced("gpt2", 62);
  auto d = std::make_shared<Dump>();
  d->graphs.push_back({"forward", testing::repeatedBlockGraph(static_cast<int32_t>(nodes / 75), 60, false)});
  return cache[nodes] = d;
}

void BM_FirstScene(benchmark::State& state) {
  auto dump = sceneDump(state.range(0));
  if (!dump) return state.SkipWithError("could not make the dump");
  const std::string graph = dump->graphs.size() > 1 ? "joint" : "forward";
  double modelMs = 0, groupMs = 0, sceneMs = 0, items = 0, groups = 0, size = 0;
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    auto model = GraphModel::build(*dump, graph);
    auto t1 = std::chrono::steady_clock::now();
    const GroupTree tree = GroupTree::build(*model);
    auto t2 = std::chrono::steady_clock::now();
    ViewState view(*model, tree, std::make_shared<LayoutCache>());
    view.layoutPending();
    const Scene s = view.scene();
    auto t3 = std::chrono::steady_clock::now();
    modelMs += std::chrono::duration<double, std::milli>(t1 - t0).count();
    groupMs += std::chrono::duration<double, std::milli>(t2 - t1).count();
    sceneMs += std::chrono::duration<double, std::milli>(t3 - t2).count();
    items = static_cast<double>(s.items.size());
    groups = static_cast<double>(tree.groups().size());
    size = static_cast<double>(model->size());
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["nodes"] = size;
  state.counters["model_ms"] = modelMs / n;
  state.counters["group_ms"] = groupMs / n;
  state.counters["scene_ms"] = sceneMs / n;
  state.counters["groups"] = groups;
  state.counters["items"] = items;
}
BENCHMARK(BM_FirstScene)->Arg(10000)->Arg(50000)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);

// On the 100k-node graph with its first scene done: expand one block (its layout, then its
// ancestors') and recompose; then the same with a second, identical block (cache hit).
void BM_ExpandOneGroup(benchmark::State& state) {
  auto dump = sceneDump(100000);
  auto model = GraphModel::build(*dump, "forward");
  const GroupTree tree = GroupTree::build(*model);
  int32_t blocks[2] = {-1, -1};
  for (size_t g = 0, k = 0; g < tree.groups().size() && k < 2; ++g)
    if (tree.group(static_cast<int32_t>(g)).kind == GroupKind::Block) blocks[k++] = static_cast<int32_t>(g);
  if (blocks[1] < 0) return state.SkipWithError("no repeated blocks found");
  auto cache = std::make_shared<LayoutCache>();
  double items = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ViewState view(*model, tree, cache);
    view.layoutPending();
    for (int32_t g : tree.ancestors(blocks[state.range(0)])) view.setExpanded(g, true);
    view.layoutPending();
    state.ResumeTiming();
    view.setExpanded(blocks[state.range(0)], true);
    view.layoutPending();
    items = static_cast<double>(view.scene().items.size());
    state.PauseTiming();
    if (state.range(0) == 0) cache = std::make_shared<LayoutCache>();  // first expansion every time
    state.ResumeTiming();
  }
  state.counters["items"] = items;
}
BENCHMARK(BM_ExpandOneGroup)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.5);

}  // namespace
}  // namespace fathom::viz

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--dot-max-nodes=", 16) == 0) fathom::viz::gDotMaxNodes = std::atoi(argv[i] + 16);
    else if (std::strcmp(argv[i], "--dot-full-joint") == 0) fathom::viz::gDotFullJoint = true;
  benchmark::Initialize(&argc, argv);
  fathom::KeepTimes reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  std::printf("\ndot / layered time on the same graph (same run):\n");
  for (int id : {100, 150, 200, 300, 400, 500, 1000, 2000, 1, 2}) {
    const std::string arg = std::to_string(id) + "/";
    auto dot = reporter.time("BM_GraphvizDot/" + arg);
    if (!dot) dot = reporter.time("BM_GraphvizDotShortEdges/" + arg);
    const auto layered = reporter.time("BM_Layered/" + arg);
    if (dot && layered)
      std::printf("  %-16s dot %9.1f ms  layered %7.2f ms  dot/layered %7.1fx\n", fathom::viz::graphName(id).c_str(), *dot,
                  *layered, *dot / *layered);
  }
}
