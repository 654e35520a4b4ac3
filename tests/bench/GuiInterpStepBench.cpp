// fathom-gui's interpreter panel, one step as a user meets it (issue 22: "one interpreter step on
// the 12-layer BERT forward updates the view in <= 50 ms beyond the op's own time"), under Qt's
// offscreen platform in a 1600x1000 window with the Interpreter dock on show: from pressing Step
// (InterpPanel::step) until the window has repainted - the worker's snapshot (marks of every node,
// the table of the node at the cursor), the tab's new marks, the view following the cursor (its
// groups expand and are laid out the first time), the inspector and the panel, one synchronous
// repaint of the whole window - minus the op's own time (the node run by the debug interpreter,
// InterpSnapshot::nodeSeconds). The benchmark's time is that difference per step; the counters
// give the op's own time and the whole. Two stretches of BERT-12 (`fathom trace bert --layers 12`,
// or --dump=FILE): the first nodes (parameters, embeddings, layer 0: every group is laid out for
// the first time) and a stretch in the middle (layer 6, run to with run-to first).
//   build/tests/bench/fathom_gui_interp_bench [--dump=FILE] [benchmark flags]
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/frontend/ShapeTracing.h"
#include "samples/models/Models.h"
#include "viz/gui/GraphTab.h"
#include "viz/gui/InterpPanel.h"
#include "viz/gui/MainWindow.h"

namespace fathom::viz {
namespace {

using Clock = std::chrono::steady_clock;

MainWindow* window = nullptr;
std::vector<double> overheadMs, opMs;  // every step measured, for the percentiles

bool waitIdle(int timeoutMs = 120000) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < timeoutMs) {
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    if (window->idle()) return true;
  }
  return false;
}

// One step through the panel until the window has repainted; the time beyond the op's own.
void measureStep(benchmark::State& state) {
  InterpPanel& panel = *window->interpPanel();
  const auto t0 = Clock::now();
  if (!panel.step() || !waitIdle()) return state.SkipWithError("the step did not finish");
  window->repaint();
  const double total = std::chrono::duration<double>(Clock::now() - t0).count();
  const double op = panel.snapshot().nodeSeconds;
  state.SetIterationTime(std::max(0.0, total - op));
  overheadMs.push_back((total - op) * 1e3);
  opMs.push_back(op * 1e3);
  state.counters["op_ms"] += op * 1e3;
  state.counters["total_ms"] += total * 1e3;
}

void finishCounters(benchmark::State& state) {
  for (const char* c : {"op_ms", "total_ms"}) state.counters[c] /= static_cast<double>(state.iterations());
}

// Steps from the start of a fresh run: parameters, embeddings, the first layers.
void BM_InterpStepFromStart(benchmark::State& state) {
  InterpPanel& panel = *window->interpPanel();
  if (!panel.restartAt(QString()) || !waitIdle()) return state.SkipWithError("restart failed");
  for (auto _ : state) measureStep(state);
  finishCounters(state);
}

// Steps in the middle of the graph (layer 6), after running there.
void BM_InterpStepMidGraph(benchmark::State& state) {
  InterpPanel& panel = *window->interpPanel();
  const auto& nodes = window->currentTab()->model().nodes();
  std::string target;
  for (const auto& n : nodes)
    if (n.module.rfind("encoder.layer.6", 0) == 0 && n.kind == NodeKind::Call) {
      target = n.name;
      break;
    }
  if (target.empty()) return state.SkipWithError("no encoder.layer.6 in the graph");
  if (!panel.restartAt(QString()) || !waitIdle() || !panel.runTo(window->currentGraphName(), QString::fromStdString(target)) || !waitIdle())
    return state.SkipWithError("run to layer 6 failed");
  for (auto _ : state) measureStep(state);
  finishCounters(state);
}

BENCHMARK(BM_InterpStepFromStart)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(300);
BENCHMARK(BM_InterpStepMidGraph)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(150);

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

std::shared_ptr<const Dump> bert12(const std::string& file) {
  if (!file.empty()) {
    auto d = loadDump(file);
    if (!d.ok()) std::fprintf(stderr, "%s\n", d.error().str().c_str());
    return d.ok() ? std::make_shared<const Dump>(std::move(*d)) : nullptr;
  }
  auto model = models::buildModel("bert", {.layers = 12});  // as `fathom trace bert --layers 12`
  if (!model.ok()) return nullptr;
  auto traced = traceWithShapes(**model, {});
  return traced.ok() ? std::make_shared<const Dump>(std::move(traced->dump)) : nullptr;
}

}  // namespace
}  // namespace fathom::viz

int main(int argc, char** argv) {
  using namespace fathom::viz;
  std::string file;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--dump=", 7) == 0) file = argv[i] + 7;
    else rest.push_back(argv[i]);
  }
  int restCount = static_cast<int>(rest.size());
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(restCount, rest.data());
  auto dump = bert12(file);
  if (!dump) return 1;
  MainWindow w;
  window = &w;
  w.resize(1600, 1000);
  w.show();
  w.showLoaded(LoadedDump{QStringLiteral("bert-12"), dump, {}, 0});
  w.showPanel(QStringLiteral("interp"));
  if (!waitIdle()) return 1;
  std::printf("BERT-12 forward: %zu nodes\n", w.currentTab()->model().size());
  benchmark::Initialize(&restCount, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  std::printf("per step, view beyond the op [target <= 50 ms]: median %.2f ms, p90 %.2f ms, max %.2f ms over %zu steps; "
              "the op itself: median %.3f ms, max %.2f ms\n",
              percentile(overheadMs, 0.5), percentile(overheadMs, 0.9), percentile(overheadMs, 1.0), overheadMs.size(),
              percentile(opMs, 0.5), percentile(opMs, 1.0));
  return 0;
}
