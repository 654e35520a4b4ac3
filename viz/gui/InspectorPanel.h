// The inspector: the selected node's op and arguments, its fake meta (symbolic and at the hints),
// aliasing (views of an input), side and partition role (saved across the cut, with sizes and
// bytes; where the backward uses it), the guards naming it, and its provenance - module path and
// source file:line with a few lines of the file when it is readable. Several selected nodes (a
// group) are summed up instead.
#pragma once

#include <QTextBrowser>

#include <vector>

namespace fathom::viz {

class DumpModel;

class InspectorPanel : public QTextBrowser {
  Q_OBJECT
 public:
  explicit InspectorPanel(QWidget* parent = nullptr);
  // Folders a relative source path is looked up in (the dump's folder, the working directory).
  void setSourceRoots(const QStringList& roots) { roots_ = roots; }
  void show(const DumpModel* model, int32_t graph, const std::vector<int32_t>& nodes);

 Q_SIGNALS:
  void nodeRequested(int32_t graph, int32_t node);

 private:
  QStringList roots_;
  const DumpModel* model_ = nullptr;
};

// The inspector's text for one node as HTML (also what tests read).
QString nodeReportHtml(const DumpModel& model, int32_t graph, int32_t node, const QStringList& sourceRoots);

}  // namespace fathom::viz
