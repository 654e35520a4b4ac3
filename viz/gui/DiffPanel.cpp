// DiffPanel (see the header).
#include "viz/gui/DiffPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "viz/gui/DiffEntriesModel.h"
#include "viz/gui/GraphTab.h"

namespace fathom::viz {
namespace {

const char* const kStates[] = {"all", "changed", "added", "removed"};

std::optional<NodeDiffState> stateOf(int filterIndex) {
  switch (filterIndex) {
    case 1: return NodeDiffState::Changed;
    case 2: return NodeDiffState::Added;
    case 3: return NodeDiffState::Removed;
    default: return std::nullopt;
  }
}

QStringList graphNamesOf(const DumpView& view) {
  QStringList out;
  for (const GraphModel& g : view.model->graphs()) out << QString::fromStdString(g.graphName());
  return out;
}

}  // namespace

DiffPanel::DiffPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  files_ = new QLabel(this);
  files_->setWordWrap(true);
  files_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* grid = new QGridLayout;
  leftGraph_ = new QComboBox(this);
  rightGraph_ = new QComboBox(this);
  grid->addWidget(new QLabel(tr("Left graph:"), this), 0, 0);
  grid->addWidget(leftGraph_, 0, 1);
  grid->addWidget(new QLabel(tr("Right graph:"), this), 1, 0);
  grid->addWidget(rightGraph_, 1, 1);
  counts_ = new QLabel(this);
  counts_->setStyleSheet(QStringLiteral("QLabel { font-weight: bold; }"));
  auto* row = new QHBoxLayout;
  filter_ = new QComboBox(this);
  filter_->addItems({tr("All differences"), tr("Changed"), tr("Added"), tr("Removed")});
  overlay_ = new QCheckBox(tr("Overlay"), this);
  overlay_->setToolTip(tr("One canvas: the right graph with the left's removed nodes added back (Ctrl+Shift+O)"));
  compare_ = new QPushButton(tr("Compare with…"), this);
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->hide();
  row->addWidget(filter_, 1);
  row->addWidget(overlay_);
  row->addWidget(compare_);
  row->addWidget(cancel_);
  model_ = new DiffEntriesModel(this);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  layout->addWidget(files_);
  layout->addLayout(grid);
  layout->addWidget(counts_);
  layout->addLayout(row);
  layout->addWidget(table_, 1);
  layout->addWidget(status_);

  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) { activateRow(index.row()); });
  connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) { activateRow(index.row()); });
  connect(filter_, &QComboBox::currentIndexChanged, this, [this](int i) {
    const int entry = currentEntry();
    model_->setFilter(stateOf(i));
    followEntry(entry);
    status_->setText(tr("%n difference(s) shown", "", model_->rowCount()));
  });
  connect(overlay_, &QCheckBox::toggled, this, &DiffPanel::overlayToggled);
  connect(compare_, &QPushButton::clicked, this, &DiffPanel::compareRequested);
  connect(cancel_, &QPushButton::clicked, this, &DiffPanel::cancelRequested);
  auto chosen = [this] {
    if (!filling_) Q_EMIT graphsChosen(leftGraph_->currentText(), rightGraph_->currentText());
  };
  connect(leftGraph_, &QComboBox::currentIndexChanged, this, chosen);
  connect(rightGraph_, &QComboBox::currentIndexChanged, this, chosen);
  setDiff(nullptr);
}

DiffPanel::~DiffPanel() = default;

void DiffPanel::fillGraphs(QComboBox* box, const QStringList& names, int current) {
  box->clear();
  box->addItems(names);
  box->setCurrentIndex(current);
  box->setEnabled(names.size() > 1);
}

void DiffPanel::setDiff(const DiffBuild* build) {
  filling_ = true;
  const bool has = build && build->ok();
  model_->setDiff(has ? build->diff.get() : nullptr);
  if (has) {
    fillGraphs(leftGraph_, graphNamesOf(*build->left), build->leftGraph);
    fillGraphs(rightGraph_, graphNamesOf(*build->right), build->rightGraph);
    // File names only (a long path does not wrap and would widen the dock); the paths on hover.
    files_->setText(tr("<b>Left</b> (before): %1<br><b>Right</b> (after): %2")
                        .arg(QFileInfo(build->left->path).fileName().toHtmlEscaped(), QFileInfo(build->right->path).fileName().toHtmlEscaped()));
    files_->setToolTip(build->left->path + QLatin1Char('\n') + build->right->path);
    counts_->setText(QString::fromStdString(build->diff->countsText()));
    status_->setText(tr("Compared in %1 s. Click a difference to select it on both sides.").arg(build->seconds, 0, 'f', 3));
  } else {
    leftGraph_->clear();
    rightGraph_->clear();
    leftGraph_->setEnabled(false);
    rightGraph_->setEnabled(false);
    files_->setToolTip({});
    files_->setText(tr("No comparison open. <b>Compare → Compare with…</b> (Ctrl+D) diffs the current graph with a graph of another dump."));
    counts_->clear();
    status_->clear();
  }
  filling_ = false;
}

void DiffPanel::setBusy(const QString& text) {
  cancel_->setVisible(!text.isEmpty());
  compare_->setEnabled(text.isEmpty());
  if (!text.isEmpty()) status_->setText(text);
}

void DiffPanel::setError(const QString& text) {
  status_->setText(QStringLiteral("<span style='color:#8a1010'>%1</span>").arg(text.toHtmlEscaped()));
}

bool DiffPanel::setStateFilter(const QString& state) {
  for (int i = 0; i < 4; ++i)
    if (state == QLatin1String(kStates[i])) {
      filter_->setCurrentIndex(i);
      return true;
    }
  return false;
}

QString DiffPanel::stateFilter() const { return QLatin1String(kStates[filter_->currentIndex()]); }

void DiffPanel::setOverlayChecked(bool on) {
  const QSignalBlocker block(overlay_);
  overlay_->setChecked(on);
}

int DiffPanel::rowCount() const { return model_->rowCount(); }
int DiffPanel::entryAtRow(int row) const { return model_->entryAt(row); }
int DiffPanel::currentEntry() const { return model_->entryAt(table_->currentIndex().row()); }

void DiffPanel::followEntry(int entry) {
  const int row = model_->rowOf(entry);
  if (row < 0) {
    table_->clearSelection();
    table_->setCurrentIndex({});
    return;
  }
  table_->setCurrentIndex(model_->index(row, 0));
  table_->scrollTo(model_->index(row, 0));
}

void DiffPanel::activateRow(int row) {
  const int entry = model_->entryAt(row);
  if (entry < 0) return;
  followEntry(entry);
  Q_EMIT entryActivated(entry);
}

void DiffPanel::next() {
  if (rowCount() > 0) activateRow((table_->currentIndex().row() + 1) % rowCount());
}

void DiffPanel::previous() {
  if (rowCount() == 0) return;
  const int row = table_->currentIndex().row();
  activateRow(row <= 0 ? rowCount() - 1 : row - 1);
}

QString DiffPanel::countsText() const { return counts_->text(); }
QString DiffPanel::statusText() const { return status_->text(); }

}  // namespace fathom::viz
