// Building a diff off the UI thread: loading the other dump (as DumpLoader does), its view
// models, the DiffModel of the two chosen graphs and the overlay's union with its own view models
// - everything the diff view then only shows. The result is a value; the window drops one the
// user abandoned (another comparison started, Cancel).
#pragma once

#include <QFuture>
#include <QString>

#include <memory>
#include <string>

#include "viz/gui/DumpLoader.h"

namespace fathom::viz {

class DiffModel;
struct DiffOverlay;
struct DumpView;

struct DiffBuild {
  std::shared_ptr<const DumpView> left, right;  // the two dumps' view models
  int32_t leftGraph = -1, rightGraph = -1;      // the compared graph of each
  std::shared_ptr<const DiffModel> diff;        // over left/right's GraphModels (kept alive here)
  std::shared_ptr<const DiffOverlay> overlay;   // the union and its maps
  std::shared_ptr<const DumpView> overlayView;  // the union's view models (graph overlayGraph)
  int32_t overlayGraph = -1;
  std::string error;                            // set when nothing else is
  double seconds = 0;
  bool ok() const { return diff != nullptr; }
};

struct DiffRequest {
  std::shared_ptr<const DumpView> left;
  QString leftGraph;                       // empty: the left dump's first graph
  std::shared_ptr<const DumpView> right;   // null: load rightPath
  QString rightPath;
  QString rightGraph;                      // empty: the left graph's name if the right has it, else its first
  LoadOptions load;
};

// On the calling thread (tests, headless use).
DiffBuild buildDiff(const DiffRequest& request);
// On Qt's global thread pool.
QFuture<DiffBuild> buildDiffInBackground(DiffRequest request);

}  // namespace fathom::viz
