// DiffLoader (see the header).
#include "viz/gui/DiffLoader.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "viz/gui/GraphTab.h"
#include "viz/model/DiffModel.h"
#include "viz/model/DiffOverlay.h"

namespace fathom::viz {
namespace {

// The graph of `view` named `name`; empty name: `fallback` when it has it, else the first.
int32_t pickGraph(const DumpView& view, const QString& name, const std::string& fallback, std::string* error) {
  const DumpModel& m = *view.model;
  if (!name.isEmpty()) {
    const int32_t g = m.graphIndex(name.toStdString());
    if (g < 0) {
      std::string have;
      for (const GraphModel& gm : m.graphs()) have += (have.empty() ? "" : ", ") + gm.graphName();
      *error = view.path.toStdString() + ": no graph named '" + name.toStdString() + "' (the dump has: " + have + ")";
    }
    return g;
  }
  const int32_t same = fallback.empty() ? -1 : m.graphIndex(fallback);
  if (same >= 0) return same;
  if (m.graphs().empty()) *error = view.path.toStdString() + ": the dump has no graph";
  return m.graphs().empty() ? -1 : 0;
}

}  // namespace

DiffBuild buildDiff(const DiffRequest& request) {
  QElapsedTimer timer;
  timer.start();
  DiffBuild out;
  out.left = request.left;
  out.right = request.right;
  if (!out.left) {
    out.error = "no dump is open to compare with";
    return out;
  }
  if (!out.right) {
    LoadedDump loaded = loadDumpForView(request.rightPath, request.load);
    out.right = buildDumpView(loaded.path, loaded.dump, &loaded.error);
    if (!out.right) {
      out.error = loaded.error;
      return out;
    }
  }
  out.leftGraph = pickGraph(*out.left, request.leftGraph, "", &out.error);
  if (out.leftGraph < 0) return out;
  const GraphModel& left = out.left->model->graph(out.leftGraph);
  out.rightGraph = pickGraph(*out.right, request.rightGraph, left.graphName(), &out.error);
  if (out.rightGraph < 0) return out;
  const GraphModel& right = out.right->model->graph(out.rightGraph);
  auto diff = std::make_shared<DiffModel>(DiffModel::build(left, right));
  auto overlay = buildDiffOverlay(*diff);
  if (!overlay.ok()) {
    out.error = overlay.error().str();
    return out;
  }
  out.overlay = std::make_shared<const DiffOverlay>(std::move(*overlay));
  out.overlayView = buildDumpView(QStringLiteral("%1 + removed from %2").arg(out.right->path, out.left->path), out.overlay->dump, &out.error);
  if (!out.overlayView) return out;
  out.overlayGraph = out.overlayView->model->graphIndex(out.overlay->graph);
  out.diff = std::move(diff);
  out.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
  return out;
}

QFuture<DiffBuild> buildDiffInBackground(DiffRequest request) {
  return QtConcurrent::run([request = std::move(request)] { return buildDiff(request); });
}

}  // namespace fathom::viz
