// TimelineView: the time axis of a compile session (viz/model/Timeline.h) - one lane per compile
// (label: its id, call and time), its bar from compile_start to compile_end, a green tick for each
// cache hit its entry served, a red marker where a recompile started it with a red cross in each
// lane whose entry refused the call, small ticks for guards added, specializations and kernels,
// a diamond for a late guard; events of no compile (Z3 checks) on a last lane. Hover: the event's
// summary (a recompile's failing guards); click: eventClicked. It paints what the model says and
// holds no semantics.
#pragma once

#include <QWidget>

#include <memory>
#include <string>
#include <vector>

namespace fathom::viz {

struct Timeline;

class TimelineView : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineView(QWidget* parent = nullptr);

  void setTimeline(std::shared_ptr<const Timeline> timeline);
  void setSelected(int event);                  // -1: none
  void setShownDump(const std::string& dump);   // the lane of the compile the window shows is marked
  int eventAt(const QPoint& pos) const;         // the event drawn there, -1 none
  QPoint positionOf(int event) const;           // where an event is drawn (tests click there)
  QSize sizeHint() const override;
  static int heightFor(int lanes);              // the height that shows `lanes` lanes, axis and legend
  QSize minimumSizeHint() const override;

 Q_SIGNALS:
  void eventClicked(int event);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;  // tooltips
  void resizeEvent(QResizeEvent* event) override;

 private:
  enum class Shape { Bar, Hit, Recompile, Refused, LateGuard, Tick, Kernel, Dot };
  struct Mark {
    QRectF rect;
    int event = -1;
    Shape shape = Shape::Dot;
    int priority = 0;  // the higher wins a click where marks overlap
    QPointF joins;     // Refused: the centre of the recompile marker it is joined to
  };
  void layoutMarks() const;  // when marksDirty_: after a new timeline or a change of width
  double xOf(int64_t us) const;
  double laneTop(int lane) const;
  int laneCount() const;
  // Each paints what meets `exposed` only: a log of thousands of compiles scrolls.
  void paintAxis(QPainter& p) const;
  void paintLanes(QPainter& p, const QRectF& exposed) const;  // backgrounds and labels
  void paintMarks(QPainter& p, const QRectF& exposed) const;
  void paintLegend(QPainter& p) const;
  QString tooltipFor(int event) const;

  std::shared_ptr<const Timeline> timeline_;
  mutable std::vector<Mark> marks_;  // laid out lazily, on the first paint or hit test that needs them
  mutable bool marksDirty_ = true;
  int selected_ = -1;
  std::string shownDump_;
};

}  // namespace fathom::viz
