// ScenePainter (see the header). Order: frames (outer first), edges, stubs, items.
#include "viz/gui/ScenePainter.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <map>
#include <vector>

namespace fathom::viz {

namespace {

const QColor kSaved(128, 60, 170);
const QColor kSelected(255, 196, 0);
const QColor kGuard(210, 40, 40);
const QColor kFind(30, 150, 60);
const QColor kRelated(0, 150, 170);

QColor fillFor(const SceneItem& item) {
  QColor c = item.isGroup ? QColor(236, 236, 240) : sideColor(item.side).lighter(185);
  if (item.role == PartitionRole::SavedForBackward || item.role == PartitionRole::CrossesCut ||
      item.role == PartitionRole::SavedInput)
    c = QColor(235, 220, 248);
  if (item.role == PartitionRole::Tangent) c = QColor(250, 240, 215);
  if (item.mark != NodeMark::None && item.mark != NodeMark::Same) c = markColor(item.mark);
  if (item.dimmed) c.setAlpha(70);
  return c;
}

QColor highlightColor(Highlight h) {
  switch (h) {
    case Highlight::Guard: return kGuard;
    case Highlight::Find: return kFind;
    case Highlight::Related: return kRelated;
    case Highlight::Error: return QColor(230, 0, 0);
    case Highlight::None: break;
  }
  return {};
}

QString roleBadge(PartitionRole role) {
  switch (role) {
    case PartitionRole::SavedForBackward: return QStringLiteral("saved →bwd");
    case PartitionRole::SavedInput: return QStringLiteral("saved ←fwd");
    case PartitionRole::CrossesCut: return QStringLiteral("saved ✂");
    case PartitionRole::Tangent: return QStringLiteral("tangent");
    case PartitionRole::Recomputed: return QStringLiteral("recomputed");
    case PartitionRole::None: break;
  }
  return {};
}

// The few words a mark puts on its box's top-left corner (the role badge takes the right one).
QString markBadge(NodeMark mark) {
  switch (mark) {
    case NodeMark::Current: return QStringLiteral("▶ next");
    case NodeMark::Origin: return QStringLiteral("✖ origin");
    case NodeMark::Inherited: return QStringLiteral("inherited");
    case NodeMark::Failed: return QStringLiteral("✖ failed");
    case NodeMark::Added: return QStringLiteral("+ added");
    case NodeMark::Removed: return QStringLiteral("− removed");
    case NodeMark::Changed: return QStringLiteral("~ changed");
    case NodeMark::Ran: case NodeMark::Same: case NodeMark::None: break;
  }
  return {};
}

void paintTab(QPainter& p, const QRectF& box, bool left, const QString& text, const QColor& colour, double lineHeight) {
  const QFontMetricsF metrics(p.font());
  const double w = metrics.horizontalAdvance(text) + 8, h = lineHeight - 2;
  const QRectF t(left ? box.left() + 4 : box.right() - w - 4, box.top() - h, w, h);
  p.setPen(Qt::NoPen);
  p.setBrush(colour);
  p.drawRoundedRect(t, 3, 3);
  p.setPen(Qt::white);
  p.drawText(t, Qt::AlignCenter | Qt::TextSingleLine, text);
}

bool intersects(const QRectF& visible, const Rect& r) {
  return visible.isEmpty() || visible.intersects(toQt(r).adjusted(-2, -2, 2, 2));
}

void paintFrames(QPainter& p, const Scene& scene, const PaintOptions& o) {
  for (const auto& f : scene.frames) {
    if (!intersects(o.visible, f.box)) continue;
    const QRectF r = toQt(f.box);
    const int shade = 250 - std::min(f.depth, 6) * 6;
    p.setPen(QPen(QColor(170, 170, 185), 1 / o.scale));
    p.setBrush(QColor(shade, shade, shade + 3));
    p.drawRoundedRect(r, 6, 6);
  }
}

// Titles last, over everything: they are what a zoomed-out graph is read by.
void paintFrameTitles(QPainter& p, const Scene& scene, const PaintOptions& o) {
  for (const auto& f : scene.frames) {
    if (!intersects(o.visible, f.box)) continue;
    const QRectF r = toQt(f.box);
    if (o.text && r.width() * o.scale >= 40) {
      // Titles stay readable at any zoom: the frames are what a zoomed-out graph shows.
      QFont font = p.font();
      font.setPixelSize(std::max(1, static_cast<int>(12 / std::min(o.scale, 1.0))));
      p.save();
      p.setFont(font);
      const QString title = QString::fromStdString(f.title);
      const QFontMetricsF fm(font);
      const QRectF t(r.left() + 4 / o.scale, r.top() + 1, fm.horizontalAdvance(title) + 8 / o.scale, fm.height());
      p.setPen(Qt::NoPen);
      p.setBrush(QColor(255, 255, 255, 215));  // readable over the boxes when zoomed out
      p.drawRect(t);
      p.setPen(QColor(60, 60, 80));
      p.drawText(t, Qt::AlignCenter | Qt::TextSingleLine, title);
      p.restore();
    }
  }
}

void paintEdges(QPainter& p, const Scene& scene, const PaintOptions& o) {
  for (const auto& e : scene.edges) {
    if (e.points.size() < 2) continue;
    QPainterPath path(QPointF(e.points[0].x, e.points[0].y));
    QRectF box(path.currentPosition(), QSizeF(0, 0));
    for (size_t i = 1; i < e.points.size(); ++i) {
      const QPointF q(e.points[i].x, e.points[i].y);
      path.lineTo(q);
      box = box.united(QRectF(q, QSizeF(0, 0)));
    }
    if (!o.visible.isEmpty() && !o.visible.intersects(box.adjusted(-1, -1, 1, 1))) continue;
    const double width = std::min(1.0 + std::log2(static_cast<double>(std::max(e.count, 1))), 4.0);
    QPen pen(e.crossesCut ? kSaved : QColor(110, 110, 120), width / o.scale);
    if (e.crossesCut) pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // Arrow head at the target.
    const auto& a = e.points[e.points.size() - 2];
    const auto& b = e.points.back();
    const QLineF last(QPointF(a.x, a.y), QPointF(b.x, b.y));
    if (last.length() > 0 && 6 * o.scale >= 2) {
      QLineF l1 = QLineF(last.p2(), last.p1()), l2 = l1;
      l1.setLength(6), l2.setLength(6);
      l1.setAngle(l1.angle() + 25), l2.setAngle(l2.angle() - 25);
      p.drawLine(l1);
      p.drawLine(l2);
    }
  }
}

void paintStubs(QPainter& p, const Scene& scene, const PaintOptions& o) {
  std::map<std::pair<int64_t, int64_t>, int> atPoint;  // labels of stubs sharing a point stack up
  for (const auto& s : scene.stubs) {
    const QPointF at(s.at.x, s.at.y);
    const QPointF end = at + QPointF(0, s.incoming ? -14 : 14);
    if (!o.visible.isEmpty() && !o.visible.contains(at)) continue;
    p.setPen(QPen(s.crossesCut ? kSaved : QColor(120, 120, 130), 1 / o.scale, Qt::DotLine));
    p.drawLine(at, end);
    if (o.text && 11 * o.scale >= 7) {
      QString label = QString::fromStdString(s.label);
      if (!label.startsWith(QChar(0x2190)) && !label.startsWith(QChar(0x2192)))
        label.prepend(s.incoming ? QStringLiteral("← ") : QStringLiteral("→ "));
      if (s.count > 1) label += QStringLiteral(" ×%1").arg(s.count);
      p.setPen(s.crossesCut ? kSaved : QColor(90, 90, 100));
      const int k = atPoint[{static_cast<int64_t>(at.x()), static_cast<int64_t>(at.y()) * (s.incoming ? 1 : -1)}]++;
      const double shift = (s.incoming ? -13.0 : 13.0) * k;
      const QRectF r(end.x() + 3, (s.incoming ? end.y() - 2 : end.y() - 12) + shift, 240, 14);
      p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, label);
    }
  }
}

// Zoomed out, where the box's text would be too small: its name alone at a small fixed screen
// size (8 px), if the box on screen has room for it, so an overview still says what is where.
void paintNameOnly(QPainter& p, const QRectF& r, const SceneItem& item, const QFont& bold) {
  const QRectF screen = p.transform().mapRect(r);
  if (item.lines.empty() || screen.height() < 10 || screen.width() < 30) return;
  p.save();
  p.resetTransform();
  QFont small = bold;
  small.setPixelSize(8);
  p.setFont(small);
  p.setPen(item.dimmed ? QColor(150, 150, 150) : QColor(20, 20, 30));
  const QRectF line = screen.adjusted(3, 0, -3, 0);
  p.drawText(line, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
             QFontMetricsF(small).elidedText(QString::fromStdString(item.lines.front()), Qt::ElideRight, line.width()));
  p.restore();
}

void paintItems(QPainter& p, const Scene& scene, const PaintOptions& o) {
  const QFont base = p.font();
  QFont bold = base;
  bold.setBold(true);
  const QFontMetricsF metrics(base);
  const double lineHeight = metrics.height();
  for (const auto& item : scene.items) {
    if (!intersects(o.visible, item.box)) continue;
    const QRectF r = toQt(item.box);
    const bool saved = item.role == PartitionRole::SavedForBackward || item.role == PartitionRole::CrossesCut ||
                       item.role == PartitionRole::SavedInput;
    QPen pen(item.isGroup ? QColor(120, 120, 140) : sideColor(item.side), (saved ? 2.5 : 1.2) / o.scale);
    if (saved) pen.setColor(kSaved);
    if (item.pending) pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    p.setBrush(fillFor(item));
    p.drawRoundedRect(r, item.isGroup ? 6 : 3, item.isGroup ? 6 : 3);
    if (item.selected) {
      p.setPen(QPen(kSelected, 4 / o.scale));
      p.setBrush(Qt::NoBrush);
      p.drawRoundedRect(r.adjusted(-4, -4, 4, 4), 5, 5);
    }
    if (item.highlight != Highlight::None) {  // outside the selection, so both show
      p.setPen(QPen(highlightColor(item.highlight), 3 / o.scale));
      p.setBrush(Qt::NoBrush);
      p.drawRoundedRect(r.adjusted(-8, -8, 8, 8), 6, 6);
    }
    if (!o.text) continue;
    if (lineHeight * o.scale < 6) {
      paintNameOnly(p, r, item, bold);
      continue;
    }
    const int fit = static_cast<int>((r.height() - 4) / lineHeight);
    const int n = std::min<int>(fit, static_cast<int>(item.lines.size()));
    QColor textColor = item.dimmed ? QColor(150, 150, 150) : QColor(20, 20, 30);
    for (int i = 0; i < n; ++i) {
      p.setFont(i == 0 ? bold : base);
      p.setPen(i == 0 ? textColor : textColor.lighter(i == 1 ? 150 : 200));
      const QRectF line(r.x() + 5, r.y() + 3 + i * lineHeight, r.width() - 10, lineHeight);
      p.drawText(line, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                 metrics.elidedText(QString::fromStdString(item.lines[static_cast<size_t>(i)]), Qt::ElideRight, line.width()));
    }
    p.setFont(base);
    const QString badge = roleBadge(item.role);
    if (!badge.isEmpty() && r.height() * o.scale >= 14)
      paintTab(p, r, false, badge, item.role == PartitionRole::Tangent ? QColor(150, 110, 20) : kSaved, lineHeight);
    const QString mark = markBadge(item.mark);
    if (!mark.isEmpty() && r.height() * o.scale >= 14) paintTab(p, r, true, mark, markColor(item.mark).darker(160), lineHeight);
    if (item.breakpoint) {  // a red dot on the left edge, as debuggers draw them
      p.setPen(QPen(Qt::white, 1.5 / o.scale));
      p.setBrush(QColor(200, 20, 20));
      p.drawEllipse(QPointF(r.left(), r.center().y()), 6, 6);
    }
    if (item.isGroup && item.matches > 0) {
      p.setPen(kFind);
      p.drawText(r.adjusted(0, 0, -5, -2), Qt::AlignRight | Qt::AlignBottom | Qt::TextSingleLine,
                 QStringLiteral("%1 found").arg(item.matches));
    }
  }
}

}  // namespace

QRectF toQt(const Rect& r) { return {r.x, r.y, r.width, r.height}; }

QColor markColor(NodeMark mark) {
  switch (mark) {
    case NodeMark::Ran: return QColor(214, 238, 214);
    case NodeMark::Current: return QColor(255, 226, 120);
    case NodeMark::Origin: return QColor(245, 110, 110);
    case NodeMark::Inherited: return QColor(250, 205, 205);
    case NodeMark::Failed: return QColor(200, 60, 60);
    case NodeMark::Added: return QColor(170, 230, 170);
    case NodeMark::Removed: return QColor(245, 175, 175);
    case NodeMark::Changed: return QColor(250, 210, 140);
    case NodeMark::Same: case NodeMark::None: break;
  }
  return QColor(236, 236, 240);
}

const char* markName(NodeMark mark) {
  switch (mark) {
    case NodeMark::Ran: return "ran";
    case NodeMark::Current: return "runs next";
    case NodeMark::Origin: return "mismatch starts here";
    case NodeMark::Inherited: return "mismatch inherited";
    case NodeMark::Failed: return "failed to run";
    case NodeMark::Added: return "added";
    case NodeMark::Removed: return "removed";
    case NodeMark::Changed: return "changed";
    case NodeMark::Same: return "same";
    case NodeMark::None: break;
  }
  return "";
}

QColor sideColor(Side side) {
  switch (side) {
    case Side::Forward: return QColor(40, 100, 200);
    case Side::Backward: return QColor(220, 110, 20);
    case Side::None: break;
  }
  return QColor(90, 90, 100);
}

void paintLegend(QPainter& p, QPointF at, const Scene* scene) {
  struct Entry {
    QColor fill, border;
    QString text;
  };
  std::vector<Entry> entries{{sideColor(Side::Forward).lighter(185), sideColor(Side::Forward), QStringLiteral("forward")},
                             {sideColor(Side::Backward).lighter(185), sideColor(Side::Backward), QStringLiteral("backward")},
                             {QColor(235, 220, 248), kSaved, QStringLiteral("saved across the cut")},
                             {QColor(236, 236, 240), QColor(120, 120, 140), QStringLiteral("group (double-click)")}};
  if (scene) {  // the marks on show, in rank order
    std::vector<bool> present(markRank(NodeMark::Origin) + 1, false);
    for (const auto& item : scene->items) present[static_cast<size_t>(markRank(item.mark))] = true;
    for (size_t m = present.size(); m-- > 2;)  // not None or Same
      if (present[m]) entries.push_back({markColor(static_cast<NodeMark>(m)), QColor(90, 90, 100), QString::fromUtf8(markName(static_cast<NodeMark>(m)))});
    // The outlines on show that say something about a guard or a search.
    auto shown = [scene](Highlight h) {
      return std::any_of(scene->items.begin(), scene->items.end(), [h](const SceneItem& item) { return item.highlight == h; });
    };
    if (shown(Highlight::Guard)) entries.push_back({Qt::white, kGuard, QStringLiteral("failing guard's node (outline)")});
    if (shown(Highlight::Find)) entries.push_back({Qt::white, kFind, QStringLiteral("found (outline)")});
  }
  const QFontMetricsF fm(p.font());
  double w = 0;
  for (const auto& e : entries) w = std::max(w, fm.horizontalAdvance(e.text));
  const double row = fm.height() + 2;
  p.setPen(QColor(200, 200, 210));
  p.setBrush(QColor(255, 255, 255, 225));
  p.drawRoundedRect(QRectF(at, QSizeF(w + 34, row * static_cast<double>(entries.size()) + 8)), 4, 4);
  for (size_t i = 0; i < entries.size(); ++i) {
    const QRectF swatch(at.x() + 6, at.y() + 6 + static_cast<double>(i) * row, 16, row - 5);
    p.setPen(QPen(entries[i].border, 1.5));
    p.setBrush(entries[i].fill);
    p.drawRect(swatch);
    p.setPen(QColor(40, 40, 50));
    p.drawText(QPointF(swatch.right() + 6, swatch.bottom() - 1), entries[i].text);
  }
}

void paintScene(QPainter& painter, const Scene& scene, const PaintOptions& options) {
  painter.setRenderHint(QPainter::Antialiasing, options.scale > 0.3);
  paintFrames(painter, scene, options);
  paintEdges(painter, scene, options);
  paintStubs(painter, scene, options);
  paintItems(painter, scene, options);
  paintFrameTitles(painter, scene, options);
}

}  // namespace fathom::viz
