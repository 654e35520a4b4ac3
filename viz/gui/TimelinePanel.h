// The Timeline panel (dock "Timeline", objectName "timeline"): a trace log's compile session -
// the time axis (TimelineView: a lane per compile, hits, recompiles, guards), the events below it
// filtered by kind (a recompile's failing guards as its children), and the selected event's
// details (every failing guard of a recompile with its provenance, as links). Clicking an event
// or a failing guard asks the window to open the dump it names and select the node it names
// (targetRequested). Logs are read on a worker thread with progress and Cancel; a bad one shows
// its error in the panel.
#pragma once

#include <QWidget>

#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTextBrowser;
class QModelIndex;
class QTimer;
class QTreeView;

namespace fathom::viz {

struct Timeline;
class TimelineListModel;
class TimelineView;

class TimelinePanel : public QWidget {
  Q_OBJECT
 public:
  explicit TimelinePanel(QWidget* parent = nullptr);
  ~TimelinePanel() override;

  // Reads `path` in the background; the panel says so with progress and a Cancel button.
  void load(const QString& path);
  void cancelLoad();
  // Shows an already read log (headless, tests).
  void setTimeline(std::shared_ptr<const Timeline> timeline);
  const Timeline* timeline() const { return timeline_.get(); }
  QString logPath() const;
  bool idle() const { return !loading_; }
  QString errorText() const { return error_; }
  QString statusText() const;
  QString detailText() const;  // the detail box as plain text

  // -1 shows every kind, else only events of that TimelineKind.
  void setKindFilter(int kind);
  int visibleEventCount() const;
  // Selects event `index` (list, axis, details); false when out of range or filtered out.
  bool selectEvent(int index);
  int selectedEvent() const { return selected_; }
  // Selects it and opens what it names (a recompile: its first failing guard).
  bool activateEvent(int index);
  // Opens the dump a recompile's failing guard `failure` came from and selects its node.
  bool activateFailure(int event, int failure);
  // The `nth` (0-based) event of `kind` (a TimelineKind), -1 when there is none.
  int findEvent(int kind, int nth) const;
  // Activates the next event of `kind` after the selected one (wrapping); false when none.
  bool activateNext(int kind);
  // The dump the window shows, so its lane is marked.
  void setShownDump(const QString& path);
  TimelineView* view() const { return view_; }

 Q_SIGNALS:
  // Open `dump` (resolved against the log's folder), show `graph`, select `node`; `mark` are the
  // nodes to outline with it (a recompile's failing guards in that dump); `why` says what led
  // there ("failing guard s0 >= 2 of entry #0").
  void targetRequested(const QString& dump, const QString& graph, const QString& node, const QStringList& mark, const QString& why);
  void loaded();       // a log was read (or failed: errorText)
  void idleChanged();

 private:
  void fillList();
  void showDetail(int index, int failure = -1);
  void onRowClicked(const QModelIndex& index);
  void onAnchor(const QUrl& url);
  void finishLoad(int generation);

  std::shared_ptr<const Timeline> timeline_;
  struct Loading;
  std::shared_ptr<Loading> loadingState_;
  int generation_ = 0;
  bool loading_ = false;
  int selected_ = -1;
  int filter_ = -1;
  QString error_;
  QLabel* header_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QTimer* progressTimer_ = nullptr;
  TimelineView* view_ = nullptr;
  QScrollArea* scroll_ = nullptr;
  QComboBox* kinds_ = nullptr;
  TimelineListModel* model_ = nullptr;
  QTreeView* list_ = nullptr;
  QTextBrowser* detail_ = nullptr;
};

}  // namespace fathom::viz
