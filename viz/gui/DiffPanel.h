// DiffPanel: the "Diff" dock. The graph compared on each side (a dump with several graphs: pick
// one by name), the counts, a side-by-side / overlay switch, and the differences as a list
// (state, node, what changed in one line; the full list of changes as its tooltip) that can be
// filtered by state. Clicking a difference asks the window to select it on both sides; when the
// selection moves in the graphs, the list follows. The list is a model over DiffModel::entries,
// so a diff with tens of thousands of differences shows at once. While a diff is being built it
// says so and offers Cancel.
#pragma once

#include <QWidget>

#include <vector>

#include "viz/gui/DiffLoader.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace fathom::viz {

class DiffEntriesModel;

class DiffPanel : public QWidget {
  Q_OBJECT
 public:
  explicit DiffPanel(QWidget* parent = nullptr);
  ~DiffPanel() override;

  // A finished diff (null: none; the panel says how to start one).
  void setDiff(const DiffBuild* build);
  // Work in progress ("Comparing with b.fathom.json…") with Cancel; an empty text ends it.
  void setBusy(const QString& text);
  void setError(const QString& text);

  // Which states the list shows: "all", "changed", "added" or "removed"; false for another word.
  bool setStateFilter(const QString& state);
  QString stateFilter() const;
  void setOverlayChecked(bool on);

  int rowCount() const;
  int entryAtRow(int row) const;      // -1 when out of range
  int currentEntry() const;           // the entry of the current row, -1 when none
  // Makes `entry`'s row current without asking for a selection (the graphs moved); -1 clears.
  void followEntry(int entry);
  // As a click on the row: makes it current and emits entryActivated.
  void activateRow(int row);
  void next();      // the next difference in the list (wraps)
  void previous();
  QString countsText() const;
  QString statusText() const;

 Q_SIGNALS:
  void entryActivated(int entry);
  void graphsChosen(const QString& left, const QString& right);
  void overlayToggled(bool on);
  void cancelRequested();
  void compareRequested();

 private:
  void fillGraphs(QComboBox* box, const QStringList& names, int current);

  DiffEntriesModel* model_ = nullptr;
  QTableView* table_ = nullptr;
  QComboBox* leftGraph_ = nullptr;
  QComboBox* rightGraph_ = nullptr;
  QComboBox* filter_ = nullptr;
  QCheckBox* overlay_ = nullptr;
  QLabel* files_ = nullptr;
  QLabel* counts_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPushButton* compare_ = nullptr;
  bool filling_ = false;  // combo boxes being filled: no graphsChosen
};

}  // namespace fathom::viz
