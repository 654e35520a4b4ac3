// GraphTab: one graph of the open dump - its ViewState (expansion, selection, filter) and the
// canvas that draws its Scene. Layout jobs run on Qt's thread pool, wave after wave, and the
// scene is recomposed as each finishes, so expanding a big group never blocks the event loop;
// a tab that closes cancels its jobs.
#pragma once

#include <QWidget>

#include <atomic>
#include <memory>

#include "viz/layout/LayoutCache.h"
#include "viz/model/DumpModel.h"
#include "viz/model/ViewState.h"

namespace fathom::viz {

class GraphCanvas;

// A loaded dump with its view models, all built off the UI thread.
struct DumpView {
  QString path;
  std::shared_ptr<const Dump> dump;
  std::unique_ptr<DumpModel> model;
  std::vector<std::unique_ptr<GroupTree>> trees;  // per graph of the model
};

// The view models of a loaded dump: every graph's model and group tree (any thread). Null, with
// `error` set to the one-line message, when the dump is null or its models cannot be built.
std::shared_ptr<DumpView> buildDumpView(const QString& path, std::shared_ptr<const Dump> dump, std::string* error);

class GraphTab : public QWidget {
  Q_OBJECT
 public:
  GraphTab(std::shared_ptr<const DumpView> view, int32_t graph, std::shared_ptr<LayoutCache> cache,
           QWidget* parent = nullptr);
  ~GraphTab() override;

  int32_t graphIndex() const { return graph_; }
  const GraphModel& model() const;
  const GroupTree& tree() const;
  const DumpModel& dumpModel() const { return *view_->model; }
  ViewState& state() { return *state_; }
  GraphCanvas* canvas() const { return canvas_; }

  // Selects `nodes` (revealing them: their groups expand) and, when center, moves the view there.
  void select(const std::vector<int32_t>& nodes, bool center);
  // Expands every group holding one of `nodes`, so each gets a box of its own (no selection).
  void reveal(const std::vector<int32_t>& nodes);
  // Expands the group whose label or title is `label`; false when there is none.
  bool expandGroup(const QString& label);
  void setHighlight(const std::vector<int32_t>& nodes, Highlight kind);
  // A debugging panel's marks and breakpoints, per node (ViewState::setMarks); empty clears.
  void setMarks(std::vector<NodeMark> perNode, std::vector<bool> breakpoints = {});
  // No layout job running or waiting.
  bool idle() const { return running_ == 0 && state_->pendingJobs().empty(); }
  // Recomposes the scene after a change to the state.
  void refresh(bool keepView = true);

 Q_SIGNALS:
  void selectionChanged();
  void idleChanged();
  // Layout jobs were started (`groups` of them now running); idleChanged follows when done.
  void layoutStarted(int groups);

 private:
  void schedule();
  void onItemClicked(int item, Qt::KeyboardModifiers modifiers);
  void onItemActivated(int item);

  std::shared_ptr<const DumpView> view_;
  int32_t graph_;
  std::unique_ptr<ViewState> state_;
  GraphCanvas* canvas_ = nullptr;
  std::shared_ptr<std::atomic<bool>> cancel_;
  int running_ = 0;
  bool centerPending_ = false;
};

}  // namespace fathom::viz
