// TimelineView (see the header). Marks are laid out once per size or timeline (layoutMarks) and
// both painting and hit-testing read them.
#include "viz/gui/TimelineView.h"

#include <QFileInfo>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QResizeEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "viz/model/Timeline.h"
#include "viz/model/TimelineEvents.h"

namespace fathom::viz {
namespace {

constexpr double kLabelWidth = 270, kRightMargin = 18, kAxisHeight = 26, kLaneHeight = 36, kLegendHeight = 22;
const QColor kBar(70, 120, 200), kHit(30, 150, 60), kRecompile(210, 30, 30), kLate(230, 110, 0);
const QColor kGuardTick(150, 40, 40), kKernel(128, 60, 170), kDot(110, 110, 120), kSelected(255, 196, 0);

QString q(const std::string& s) { return QString::fromStdString(s); }

// A round step for the axis: 1, 2 or 5 times a power of ten, about `target` long.
double niceStep(double target) {
  const double p = std::pow(10.0, std::floor(std::log10(std::max(target, 1e-9))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= target) return m * p;
  return 10 * p;
}

// A tick's label: ms with as many decimals as the step needs; seconds from 1 s steps on.
QString axisLabel(double ms, double step) {
  if (step >= 1000) return QStringLiteral("%1 s").arg(ms / 1000, 0, 'f', std::max(0, static_cast<int>(-std::floor(std::log10(step / 1000)))));
  return QString::number(ms, 'f', std::max(0, static_cast<int>(-std::floor(std::log10(step)))));
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void TimelineView::setTimeline(std::shared_ptr<const Timeline> timeline) {
  timeline_ = std::move(timeline);
  selected_ = -1;
  marksDirty_ = true;
  updateGeometry();
  update();
}

void TimelineView::setSelected(int event) {
  selected_ = event;
  update();
}

void TimelineView::setShownDump(const std::string& dump) {
  shownDump_ = dump;
  update();
}

int TimelineView::laneCount() const {
  if (!timeline_) return 0;
  const bool other = std::any_of(timeline_->events.begin(), timeline_->events.end(), [](const TimelineEvent& e) { return e.session < 0; });
  return static_cast<int>(timeline_->compiles.size()) + (other ? 1 : 0);
}

int TimelineView::heightFor(int lanes) { return static_cast<int>(kAxisHeight + std::max(1, lanes) * kLaneHeight + kLegendHeight + 4); }
QSize TimelineView::sizeHint() const { return {900, heightFor(laneCount())}; }
QSize TimelineView::minimumSizeHint() const { return {400, sizeHint().height()}; }

double TimelineView::xOf(int64_t us) const {
  const double span = timeline_ ? static_cast<double>(std::max<int64_t>(1, timeline_->endUs)) : 1.0;
  return kLabelWidth + (width() - kLabelWidth - kRightMargin) * static_cast<double>(us) / span;
}

double TimelineView::laneTop(int lane) const { return kAxisHeight + lane * kLaneHeight; }

// Lanes keep their height: only a new width moves the marks.
void TimelineView::resizeEvent(QResizeEvent* event) {
  if (event->oldSize().width() != width()) marksDirty_ = true;
}

void TimelineView::layoutMarks() const {
  if (!marksDirty_) return;
  marksDirty_ = false;
  marks_.clear();
  if (!timeline_) return;
  const Timeline& t = *timeline_;
  const int otherLane = static_cast<int>(t.compiles.size());
  for (size_t s = 0; s < t.compiles.size(); ++s) {
    const CompileSession& c = t.compiles[s];
    if (c.events.empty()) continue;
    int64_t start = c.startUs, end = c.endUs;
    if (start < 0) start = t.events[static_cast<size_t>(c.events.front())].axisUs;
    if (end < start) end = t.events[static_cast<size_t>(c.events.back())].axisUs;
    int event = c.events.front();
    for (int i : c.events)
      if (t.events[static_cast<size_t>(i)].kind == TimelineKind::CompileStart) event = i;
    const double x0 = xOf(start), x1 = std::max(xOf(end), x0 + 4);
    marks_.push_back({QRectF(x0, laneTop(static_cast<int>(s)) + 7, x1 - x0, kLaneHeight - 16), event, Shape::Bar, 0});
  }
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TimelineEvent& e = t.events[i];
    const int lane = e.session >= 0 ? e.session : otherLane;
    const double x = xOf(e.axisUs), top = laneTop(lane), mid = top + kLaneHeight / 2 - 2;
    const int index = static_cast<int>(i);
    switch (e.kind) {
      case TimelineKind::CompileStart:
      case TimelineKind::CompileEnd:
      case TimelineKind::GraphCaptured:
        if (e.session < 0) marks_.push_back({QRectF(x - 3, top + kLaneHeight - 10, 6, 6), index, Shape::Dot, 1});
        break;  // the bar shows them
      case TimelineKind::CacheHit: marks_.push_back({QRectF(x - 3, top + 2, 6, kLaneHeight / 2), index, Shape::Hit, 3}); break;
      case TimelineKind::Recompile: {
        const QRectF arrow(x - 8, mid - 7, 16, 14);
        marks_.push_back({arrow, index, Shape::Recompile, 4});
        std::vector<int64_t> refused;
        for (const FailingGuard& g : e.failures)
          if (std::find(refused.begin(), refused.end(), g.entryCompileId) == refused.end()) refused.push_back(g.entryCompileId);
        for (int64_t id : refused)
          if (const int s = t.session(e.run, id); s >= 0)
            marks_.push_back({QRectF(x - 5, laneTop(s) + kLaneHeight / 2 + 2, 10, 10), index, Shape::Refused, 4, arrow.center()});
        break;
      }
      case TimelineKind::LateGuard: marks_.push_back({QRectF(x - 6, mid - 6, 12, 12), index, Shape::LateGuard, 3}); break;
      case TimelineKind::GuardAdded:
      case TimelineKind::Specialization: marks_.push_back({QRectF(x - 1.5, top + kLaneHeight - 9, 3, 8), index, Shape::Tick, 2}); break;
      case TimelineKind::KernelCompiled:
      case TimelineKind::CompileAssumption: marks_.push_back({QRectF(x - 2.5, top + kLaneHeight - 9, 5, 5), index, Shape::Kernel, 2}); break;
      default: marks_.push_back({QRectF(x - 3, top + kLaneHeight - 10, 6, 6), index, Shape::Dot, 1}); break;
    }
  }
  std::stable_sort(marks_.begin(), marks_.end(), [](const Mark& a, const Mark& b) { return a.priority < b.priority; });
}

int TimelineView::eventAt(const QPoint& pos) const {
  layoutMarks();
  for (auto it = marks_.rbegin(); it != marks_.rend(); ++it)  // the topmost first
    if (it->rect.adjusted(-2, -2, 2, 2).contains(pos)) return it->event;
  return -1;
}

QPoint TimelineView::positionOf(int event) const {
  layoutMarks();
  for (auto it = marks_.rbegin(); it != marks_.rend(); ++it)
    if (it->event == event) return it->rect.center().toPoint();
  return {-1, -1};
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
  const int hit = eventAt(event->pos());
  if (hit >= 0) Q_EMIT eventClicked(hit);
}

bool TimelineView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int hit = eventAt(help->pos());
    if (hit >= 0) QToolTip::showText(help->globalPos(), tooltipFor(hit), this);
    else QToolTip::hideText();
    return true;
  }
  return QWidget::event(event);
}

QString TimelineView::tooltipFor(int index) const {
  const TimelineEvent& e = timeline_->events[static_cast<size_t>(index)];
  QString text = QStringLiteral("<b>%1</b>").arg(q(e.summary).toHtmlEscaped());
  if (e.session >= 0) {
    const CompileSession& c = timeline_->compiles[static_cast<size_t>(e.session)];
    text += QStringLiteral("<br>%1%2").arg(q(c.label()).toHtmlEscaped(), c.ms >= 0 ? QStringLiteral(", %1").arg(q(formatMs(c.ms))) : QString());
  }
  for (const FailingGuard& g : e.failures)
    text += QStringLiteral("<br>&nbsp;&nbsp;entry #%1: <code>%2</code> [%3] with %4 &mdash; %5")
                .arg(g.entry)
                .arg(q(g.expr).toHtmlEscaped(), q(g.kind), q(g.actual).toHtmlEscaped(), q(g.provenance()).toHtmlEscaped());
  if (!e.target.empty())
    text += QStringLiteral("<br><i>Click: open %1%2</i>")
                .arg(QFileInfo(q(e.target.dump)).fileName().toHtmlEscaped(),
                     e.target.node.empty() ? QString() : QStringLiteral(" and select %%1").arg(q(e.target.node).toHtmlEscaped()));
  return text;
}

void TimelineView::paintEvent(QPaintEvent* event) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  if (!timeline_) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("No trace log: Timeline > Open Trace Log… (Ctrl+T) opens one written by --trace-log"));
    return;
  }
  const QRectF exposed = event->rect();
  layoutMarks();
  paintAxis(p);
  paintLanes(p, exposed);
  paintMarks(p, exposed);
  paintLegend(p);
}

void TimelineView::paintAxis(QPainter& p) const {
  const double spanMs = static_cast<double>(std::max<int64_t>(1, timeline_->endUs)) / 1000.0;
  const double step = niceStep(spanMs / std::max(1.0, (width() - kLabelWidth - kRightMargin) / 90.0));
  p.setPen(QColor(90, 90, 100));
  p.drawText(QRectF(6, 4, kLabelWidth - 12, kAxisHeight - 6), Qt::AlignLeft | Qt::AlignVCenter,
             step >= 1000 ? tr("time since the log opened") : tr("ms since the log opened"));
  const double bottom = kAxisHeight + laneCount() * kLaneHeight;
  for (double ms = 0; ms <= spanMs + 1e-9; ms += step) {
    const double x = xOf(static_cast<int64_t>(ms * 1000));
    p.setPen(QColor(225, 225, 232));
    p.drawLine(QPointF(x, kAxisHeight - 4), QPointF(x, bottom));
    p.setPen(QColor(90, 90, 100));
    p.drawText(QRectF(x - 40, 4, 80, kAxisHeight - 8), Qt::AlignCenter, axisLabel(ms, step));
  }
}

void TimelineView::paintLanes(QPainter& p, const QRectF& exposed) const {
  const Timeline& t = *timeline_;
  const QFont base = font();
  QFont bold = base;
  bold.setBold(true);
  const int first = std::max(0, static_cast<int>((exposed.top() - kAxisHeight) / kLaneHeight));
  const int last = std::min(laneCount() - 1, static_cast<int>((exposed.bottom() - kAxisHeight) / kLaneHeight));
  for (int lane = first; lane <= last; ++lane) {
    const QRectF row(0, laneTop(lane), width(), kLaneHeight);
    if (lane % 2) p.fillRect(row, QColor(246, 246, 250));
    QString title = tr("no compile (checks, kernels)"), detail;
    bool shown = false;
    if (lane < static_cast<int>(t.compiles.size())) {
      const CompileSession& c = t.compiles[static_cast<size_t>(lane)];
      title = q(c.label());
      shown = !c.dump.empty() && c.dump == shownDump_;
      detail = c.ms >= 0 ? q(formatMs(c.ms)) : tr("no end logged");
      if (!c.dump.empty()) detail += QStringLiteral(" · ") + QFileInfo(q(c.dump)).fileName();
    }
    double titleWidth = kLabelWidth - 14;
    if (shown) {  // the compile whose graph the window shows: a pill at the right of its title
      const QString tag = tr("shown above");
      const double w = p.fontMetrics().horizontalAdvance(tag) + 10;
      titleWidth -= w + 6;
      const QRectF pill(kLabelWidth - 8 - w, row.top() + 3, w, 15);
      p.setPen(Qt::NoPen);
      p.setBrush(QColor(40, 100, 200));
      p.drawRoundedRect(pill, 7, 7);
      p.setPen(Qt::white);
      p.drawText(pill, Qt::AlignCenter, tag);
    }
    p.setFont(bold);
    p.setPen(shown ? QColor(20, 70, 160) : QColor(30, 30, 40));
    p.drawText(QRectF(8, row.top() + 2, titleWidth, 16), Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(title, Qt::ElideRight, static_cast<int>(titleWidth)));
    p.setFont(base);
    p.setPen(QColor(100, 100, 110));
    const QString elided = p.fontMetrics().elidedText(detail, Qt::ElideMiddle, static_cast<int>(kLabelWidth - 14));
    p.drawText(QRectF(8, row.top() + 17, kLabelWidth - 14, 16), Qt::AlignLeft | Qt::AlignVCenter, elided);
  }
}

void TimelineView::paintMarks(QPainter& p, const QRectF& exposed) const {
  const Timeline& t = *timeline_;
  // A recompile's refusing entries, joined to the compile it caused by a dashed red line.
  p.setPen(QPen(kRecompile, 1, Qt::DashLine));
  for (const Mark& m : marks_)
    if (m.shape == Shape::Refused && QRectF(m.rect.center(), m.joins).normalized().adjusted(-2, -2, 2, 2).intersects(exposed))
      p.drawLine(m.rect.center(), m.joins);
  for (const Mark& m : marks_) {
    if (!m.rect.adjusted(-4, -4, 4, 4).intersects(exposed)) continue;
    const bool selected = m.event == selected_;
    switch (m.shape) {
      case Shape::Bar: {
        p.setPen(QPen(kBar.darker(130), 1));
        p.setBrush(kBar.lighter(selected ? 120 : 150));
        p.drawRoundedRect(m.rect, 3, 3);
        const auto& c = t.compiles[static_cast<size_t>(t.events[static_cast<size_t>(m.event)].session)];
        const QString ms = c.ms >= 0 ? q(formatMs(c.ms)) : QString();
        if (p.fontMetrics().horizontalAdvance(ms) + 6 < m.rect.width()) {
          p.setPen(QColor(20, 40, 90));
          p.drawText(m.rect, Qt::AlignCenter, ms);
        }
        break;
      }
      case Shape::Hit:
        p.setPen(Qt::NoPen);
        p.setBrush(kHit);
        p.drawRect(m.rect.adjusted(1.5, 0, -1.5, 0));
        p.drawEllipse(QRectF(m.rect.left() - 1, m.rect.top() - 1, m.rect.width() + 2, m.rect.width() + 2));
        break;
      case Shape::Recompile: {
        QPainterPath arrow;  // a red arrowhead pointing at the compile it caused
        arrow.moveTo(m.rect.left(), m.rect.top());
        arrow.lineTo(m.rect.right(), m.rect.center().y());
        arrow.lineTo(m.rect.left(), m.rect.bottom());
        arrow.closeSubpath();
        p.setPen(QPen(kRecompile.darker(130), 1));
        p.setBrush(kRecompile);
        p.drawPath(arrow);
        break;
      }
      case Shape::Refused:
        p.setPen(QPen(kRecompile, 2.2));
        p.drawLine(m.rect.topLeft(), m.rect.bottomRight());
        p.drawLine(m.rect.bottomLeft(), m.rect.topRight());
        break;
      case Shape::LateGuard: {
        QPolygonF diamond({QPointF(m.rect.center().x(), m.rect.top()), QPointF(m.rect.right(), m.rect.center().y()),
                           QPointF(m.rect.center().x(), m.rect.bottom()), QPointF(m.rect.left(), m.rect.center().y())});
        p.setPen(QPen(kLate.darker(140), 1));
        p.setBrush(kLate);
        p.drawPolygon(diamond);
        break;
      }
      case Shape::Tick: p.fillRect(m.rect, kGuardTick); break;
      case Shape::Kernel: p.fillRect(m.rect, kKernel); break;
      case Shape::Dot:
        p.setPen(Qt::NoPen);
        p.setBrush(kDot);
        p.drawEllipse(m.rect);
        break;
    }
    if (selected) {
      p.setPen(QPen(kSelected.darker(110), 2.5));
      p.setBrush(Qt::NoBrush);
      p.drawRoundedRect(m.rect.adjusted(-3, -3, 3, 3), 3, 3);
    }
  }
}

void TimelineView::paintLegend(QPainter& p) const {
  const double y = kAxisHeight + laneCount() * kLaneHeight + 4;
  double x = 8;
  auto item = [&](const QColor& colour, const QString& text, bool cross = false) {
    if (cross) {
      p.setPen(QPen(colour, 2));
      p.drawLine(QPointF(x, y + 4), QPointF(x + 9, y + 13));
      p.drawLine(QPointF(x, y + 13), QPointF(x + 9, y + 4));
    } else {
      p.fillRect(QRectF(x, y + 4, 10, 10), colour);
    }
    p.setPen(QColor(70, 70, 80));
    const double w = p.fontMetrics().horizontalAdvance(text);
    p.drawText(QRectF(x + 14, y, w + 4, 18), Qt::AlignLeft | Qt::AlignVCenter, text);
    x += w + 30;
  };
  item(kBar.lighter(150), tr("compile (ms)"));
  item(kHit, tr("cache hit"));
  item(kRecompile, tr("recompile: starts the compile it points at"));
  item(kRecompile, tr("entry whose guards refused the call"), true);
  item(kGuardTick, tr("guard added / specialization"));
  item(kLate, tr("late guard"));
  item(kKernel, tr("jit kernel"));
}

}  // namespace fathom::viz
