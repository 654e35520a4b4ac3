// DiffView: the two graphs of a diff, side by side (the left "before" and the right "after", each
// its own GraphTab: its own ViewState over its own GraphModel and GroupTree, marked by the
// DiffModel: removed / changed / same on the left, added / changed / same on the right), or
// overlaid (one GraphTab over the union of DiffOverlay.h). Selection is synchronized: selecting
// a node on one side selects and centers its match on the other and in the overlay; a removed or
// added node selects nothing there, and selectionExplained says so. Collapsed groups show the
// highest-ranked mark of their nodes (the Scene does it), so a collapsed layer reads "changed"
// when anything inside changed. Everything shown was built on a worker (DiffLoader.h); this
// widget only creates the tabs, whose layouts run on the thread pool. Making a tab over a 10k-node
// graph takes ~30 ms on the UI thread, so the three are made one per event-loop turn, the shown
// ones first; a tab made late takes the selection the others have.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "viz/gui/DiffLoader.h"
#include "viz/model/DiffModel.h"

class QLabel;
class QStackedWidget;

namespace fathom::viz {

class GraphTab;
class LayoutCache;

class DiffView : public QWidget {
  Q_OBJECT
 public:
  DiffView(std::shared_ptr<LayoutCache> cache, QWidget* parent = nullptr);
  ~DiffView() override;

  // Shows a finished diff (replacing the one shown); `selection`: left nodes to select first.
  void setDiff(DiffBuild build, const std::vector<int32_t>& selection = {});
  const DiffBuild& build() const { return build_; }
  const DiffModel* diff() const { return build_.diff.get(); }

  void setOverlay(bool on);
  bool overlay() const { return overlay_; }

  GraphTab* tab(DiffSide side) const { return side == DiffSide::Left ? left_ : right_; }
  GraphTab* overlayTab() const { return union_; }
  // The tab on screen: the overlay's, or the left one when side by side.
  GraphTab* shownTab() const;

  // Selects `nodes` of `side` (their groups expand, the view centers) and, through the match,
  // their counterparts everywhere else.
  void selectNodes(DiffSide side, const std::vector<int32_t>& nodes);
  // Selects a difference (DiffModel::entries) on both sides.
  void selectEntry(int entry);
  // What the current selection means across the diff ("%y was removed: nothing matches it ...").
  QString message() const { return message_; }
  int currentEntry() const { return entry_; }  // the entry of the single node selected; -1: none

  bool idle() const;  // every tab made, no layout job running or waiting in any of them

 Q_SIGNALS:
  void selectionExplained(const QString& text);
  void entryFollowed(int entry);  // the entry of the single node selected; -1: none

 private:
  // Carries `from`'s selection to the other tabs (only to `only` when given) and explains it.
  void onSelection(GraphTab* from, GraphTab* only = nullptr);
  void follow(GraphTab* tab, const std::vector<int32_t>& nodes);
  // Makes the next missing tab (the shown page's first) and schedules the one after.
  void makeNextTab();
  GraphTab* makeTab(QWidget* pane, std::shared_ptr<const DumpView> view, int32_t graph, std::vector<NodeMark> marks);
  void explain(DiffSide side, int32_t node);

  std::shared_ptr<LayoutCache> cache_;
  DiffBuild build_;
  QStackedWidget* stack_ = nullptr;
  QWidget* leftPane_ = nullptr;
  QWidget* rightPane_ = nullptr;
  QWidget* unionPane_ = nullptr;
  QLabel* leftTitle_ = nullptr;
  QLabel* rightTitle_ = nullptr;
  QLabel* unionTitle_ = nullptr;
  GraphTab* left_ = nullptr;
  GraphTab* right_ = nullptr;
  GraphTab* union_ = nullptr;
  bool overlay_ = false;
  bool syncing_ = false;  // a selection being carried over: the tabs' echoes are ignored
  bool making_ = false;   // tabs still to be made (makeNextTab is queued)
  int generation_ = 0;    // of the diff shown: a queued makeNextTab for an older one does nothing
  std::vector<int32_t> pendingSelection_;  // left nodes to select once the left tab exists
  QString message_;
  int entry_ = -1;
};

}  // namespace fathom::viz
