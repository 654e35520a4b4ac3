// FindPanel (see the header).
#include "viz/gui/FindPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace fathom::viz {

namespace {
const std::vector<int32_t> kNone;
constexpr int kMaxListed = 5000;  // the list shows this many; next/previous walk them all
}  // namespace

FindPanel::FindPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* form = new QFormLayout;
  name_ = new QLineEdit(this);
  name_->setPlaceholderText(tr("regex, e.g. ^addmm"));
  op_ = new QLineEdit(this);
  op_->setPlaceholderText(tr("regex, e.g. softmax|gelu"));
  module_ = new QLineEdit(this);
  module_->setPlaceholderText(tr("module path, e.g. encoder.layer.3"));
  side_ = new QComboBox(this);
  side_->addItems({tr("any side"), tr("forward"), tr("backward")});
  form->addRow(tr("Name"), name_);
  form->addRow(tr("Op"), op_);
  form->addRow(tr("Module"), module_);
  form->addRow(tr("Side"), side_);
  layout->addLayout(form);
  auto* checks = new QHBoxLayout;
  guard_ = new QCheckBox(tr("has a guard"), this);
  saved_ = new QCheckBox(tr("saved across the cut"), this);
  ignoreCase_ = new QCheckBox(tr("ignore case"), this);
  checks->addWidget(guard_);
  checks->addWidget(saved_);
  checks->addWidget(ignoreCase_);
  layout->addLayout(checks);
  auto* buttons = new QHBoxLayout;
  auto* find = new QPushButton(tr("Find"), this);
  auto* prev = new QPushButton(tr("◀ Previous"), this);
  auto* nextButton = new QPushButton(tr("Next ▶"), this);
  filter_ = new QCheckBox(tr("Filter (dim the rest)"), this);
  find->setDefault(true);
  buttons->addWidget(find);
  buttons->addWidget(prev);
  buttons->addWidget(nextButton);
  buttons->addWidget(filter_);
  layout->addLayout(buttons);
  status_ = new QLabel(this);
  layout->addWidget(status_);
  list_ = new QListWidget(this);
  list_->setUniformItemSizes(true);
  layout->addWidget(list_, 1);

  for (QLineEdit* edit : {name_, op_, module_}) connect(edit, &QLineEdit::returnPressed, this, [this] { run() && (next(), true); });
  connect(find, &QPushButton::clicked, this, [this] { run() && (next(), true); });
  connect(nextButton, &QPushButton::clicked, this, &FindPanel::next);
  connect(prev, &QPushButton::clicked, this, &FindPanel::previous);
  connect(filter_, &QCheckBox::toggled, this, [this] { Q_EMIT resultsChanged(); });
  connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    const int32_t node = item->data(Qt::UserRole).toInt();
    if (cursor_) cursor_->seek(node);
    Q_EMIT resultActivated(node);
  });
  connect(list_, &QListWidget::itemClicked, list_, &QListWidget::itemActivated);
}

void FindPanel::setGraph(const GraphModel* model) {
  model_ = model;
  cursor_.reset();
  list_->clear();
  status_->clear();
  if (model_ && !query().empty()) run();
}

FindQuery FindPanel::query() const {
  FindQuery q;
  q.name = name_->text().toStdString();
  q.op = op_->text().toStdString();
  q.module = module_->text().trimmed().toStdString();
  if (side_->currentIndex() == 1) q.side = Side::Forward;
  if (side_->currentIndex() == 2) q.side = Side::Backward;
  q.hasGuard = guard_->isChecked();
  q.savedAcrossCut = saved_->isChecked();
  q.ignoreCase = ignoreCase_->isChecked();
  return q;
}

void FindPanel::setQuery(const FindQuery& q) {
  name_->setText(QString::fromStdString(q.name));
  op_->setText(QString::fromStdString(q.op));
  module_->setText(QString::fromStdString(q.module));
  side_->setCurrentIndex(!q.side ? 0 : *q.side == Side::Forward ? 1 : 2);
  guard_->setChecked(q.hasGuard);
  saved_->setChecked(q.savedAcrossCut);
  ignoreCase_->setChecked(q.ignoreCase);
}

bool FindPanel::filterOn() const { return filter_->isChecked() && cursor_.has_value(); }
const std::vector<int32_t>& FindPanel::results() const { return cursor_ ? cursor_->results() : kNone; }
void FindPanel::focusName() {
  name_->setFocus();
  name_->selectAll();
}

bool FindPanel::run() {
  cursor_.reset();
  list_->clear();
  if (!model_) return false;
  const FindQuery q = query();
  if (q.empty()) {
    status_->setText(tr("Give a name, op, module or a condition."));
    Q_EMIT resultsChanged();
    return false;
  }
  auto found = findNodes(*model_, q);
  if (!found.ok()) {
    status_->setText(QString::fromStdString(found.error().message));
    Q_EMIT resultsChanged();
    return false;
  }
  cursor_.emplace(std::move(*found));
  showResults();
  Q_EMIT resultsChanged();
  return true;
}

void FindPanel::showResults() {
  const auto& results = cursor_->results();
  status_->setText(results.empty() ? tr("No node matches.") : tr("%1 nodes match.").arg(results.size()));
  QList<QListWidgetItem*> items;
  for (size_t i = 0; i < results.size() && i < kMaxListed; ++i) {
    const NodeInfo& n = model_->node(results[i]);
    auto* item = new QListWidgetItem(QStringLiteral("%%1   %2   %3").arg(QString::fromStdString(n.name), QString::fromStdString(n.opShort),
                                                                        QString::fromStdString(n.metaEval)));
    item->setData(Qt::UserRole, results[i]);
    list_->addItem(item);
  }
}

void FindPanel::step(int32_t node) {
  if (node < 0) return;
  const int pos = cursor_->position();
  if (pos >= 0 && pos < list_->count()) list_->setCurrentRow(pos);
  status_->setText(tr("%1 of %2").arg(pos + 1).arg(cursor_->results().size()));
  Q_EMIT resultActivated(node);
}

void FindPanel::next() {
  if (!cursor_ && !run()) return;
  step(cursor_->next());
}

void FindPanel::previous() {
  if (!cursor_ && !run()) return;
  step(cursor_->previous());
}

}  // namespace fathom::viz
