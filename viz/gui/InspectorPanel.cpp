// InspectorPanel (see the header). Links "node:G:N" jump to node N of graph G.
#include "viz/gui/InspectorPanel.h"

#include <QUrl>

#include <algorithm>
#include <map>

#include "engine/graph/GraphPrinter.h"
#include "engine/symbolic/ShapeEnv.h"
#include "engine/tensor/Storage.h"
#include "viz/gui/DumpLoader.h"
#include "viz/model/DumpModel.h"

namespace fathom::viz {

namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString nodeLink(int32_t graph, const NodeInfo& n) {
  return QStringLiteral("<a href=\"node:%1:%2\">%%3</a>").arg(graph).arg(n.index).arg(esc(n.name));
}

QString row(const QString& key, const QString& value) {
  return QStringLiteral("<tr><td style='color:#667;padding-right:8px;vertical-align:top'>%1</td><td>%2</td></tr>").arg(key, value);
}

// "a view of %x" when the op's schema says an output aliases an input (Tensor(a) -> Tensor(a)).
QString aliasing(const GraphModel& g, int32_t graph, const NodeInfo& n) {
  const Node& node = g.graph().nodes()[static_cast<size_t>(n.index)];
  if (!node.op) return {};
  const auto& schema = node.op->schema;
  QStringList out;
  for (const auto& ret : schema.returns) {
    if (ret.alias.empty()) continue;
    for (size_t a = 0; a < schema.args.size() && a < node.args.size(); ++a) {
      if (schema.args[a].alias != ret.alias) continue;
      if (const auto* ref = std::get_if<NodeRef>(&node.args[a].v))
        out << (ret.isMutated() ? QStringLiteral("mutates ") : QStringLiteral("a view of ")) +
                   nodeLink(graph, g.node(ref->index));
    }
  }
  return out.join(QStringLiteral(", "));
}


}  // namespace

QString nodeReportHtml(const DumpModel& model, int32_t graph, int32_t index, const QStringList& roots) {
  const GraphModel& g = model.graph(graph);
  const NodeInfo& n = g.node(index);
  const Node& node = g.graph().nodes()[static_cast<size_t>(index)];
  QString html = QStringLiteral("<h3 style='margin:0'>%%1</h3>").arg(esc(n.name));
  html += QStringLiteral("<p style='margin-top:2px'><code>%1</code></p><table>").arg(esc(formatNode(g.graph(), node)));
  html += row(QStringLiteral("op"), esc(n.op));
  html += row(QStringLiteral("meta"), QStringLiteral("<code>%1</code>").arg(esc(n.metaText)));
  if (n.metaEval != n.metaText) html += row(QStringLiteral("at the hints"), QStringLiteral("<code>%1</code>").arg(esc(n.metaEval)));
  if (const QString alias = aliasing(g, graph, n); !alias.isEmpty()) html += row(QStringLiteral("aliasing"), alias);
  if (n.side != Side::None) html += row(QStringLiteral("side"), esc(std::string(sideName(n.side))));
  if (n.role != PartitionRole::None) {
    QString role = esc(std::string(partitionRoleName(n.role)));
    if (n.savedIndex >= 0 && static_cast<size_t>(n.savedIndex) < g.saved().size()) {
      const SavedValue& s = g.saved()[static_cast<size_t>(n.savedIndex)];
      role += QStringLiteral(": <code>%1</code>").arg(esc(s.metaEval));
      if (s.bytes > 0) role += QStringLiteral(", %1").arg(QString::fromStdString(humanBytes(static_cast<uint64_t>(s.bytes))));
      if (g.savedInferred()) role += QStringLiteral(" (inferred: the dump has no partition section)");
    }
    html += row(QStringLiteral("partition"), role);
  }
  QStringList elsewhere;
  for (const NodeLink& link : model.counterparts(graph, index)) {
    const GraphModel& other = model.graph(link.graph);
    const QString kind = link.kind == LinkKind::SameName ? QString() : link.kind == LinkKind::SavedUse ? QStringLiteral(" (uses it)") : QStringLiteral(" (saved from)");
    elsewhere << QStringLiteral("%1: %2%3").arg(esc(other.graphName()), nodeLink(link.graph, other.node(link.node)), kind);
  }
  if (!elsewhere.isEmpty()) html += row(QStringLiteral("in other graphs"), elsewhere.join(QStringLiteral("<br>")));
  QStringList inputs, users;
  for (int32_t i : n.inputs) inputs << nodeLink(graph, g.node(i));
  for (int32_t u : n.users) users << nodeLink(graph, g.node(u));
  if (!inputs.isEmpty()) html += row(QStringLiteral("inputs"), inputs.join(QStringLiteral(", ")));
  if (!users.isEmpty()) html += row(QStringLiteral("users (%1)").arg(users.size()), users.mid(0, 40).join(QStringLiteral(", ")) + (users.size() > 40 ? QStringLiteral(", …") : QString()));
  if (!n.module.empty()) html += row(QStringLiteral("module"), esc(n.module) + (n.moduleInferred ? QStringLiteral(" (from its name)") : QString()));
  if (!n.source.empty()) html += row(QStringLiteral("source"), esc(n.source));
  if (!n.guards.empty() && model.dump().shapeEnv) {
    QStringList guards;
    for (int32_t gi : n.guards) {
      const auto& guard = model.dump().shapeEnv->guards()[static_cast<size_t>(gi)];
      guards << QStringLiteral("#%1 <code>%2</code> — %3").arg(gi).arg(esc(guard.expr.str()), esc(guard.reason));
    }
    html += row(QStringLiteral("guards"), guards.join(QStringLiteral("<br>")));
  }
  html += QStringLiteral("</table>");
  if (!n.source.empty()) {
    const QString snippet = sourceSnippet(QString::fromStdString(n.source), roots);
    if (!snippet.isEmpty()) html += QStringLiteral("<pre style='background:#f4f4f8;padding:4px'>%1</pre>").arg(snippet.toHtmlEscaped());
  }
  return html;
}

InspectorPanel::InspectorPanel(QWidget* parent) : QTextBrowser(parent) {
  setOpenLinks(false);
  setPlaceholderText(tr("Select a node to inspect it."));
  connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    const QStringList parts = url.toString().split(QLatin1Char(':'));
    if (parts.size() == 3 && parts[0] == QStringLiteral("node")) Q_EMIT nodeRequested(parts[1].toInt(), parts[2].toInt());
  });
}

void InspectorPanel::show(const DumpModel* model, int32_t graph, const std::vector<int32_t>& nodes) {
  model_ = model;
  if (!model || nodes.empty()) {
    clear();
    return;
  }
  if (nodes.size() == 1) {
    setHtml(nodeReportHtml(*model, graph, nodes.front(), roots_));
    return;
  }
  const GraphModel& g = model->graph(graph);
  std::map<std::string, int> ops;
  for (int32_t n : nodes) ++ops[g.node(n).opShort];
  QString html = QStringLiteral("<h3 style='margin:0'>%1 nodes selected</h3><table>").arg(nodes.size());
  std::vector<std::pair<int, std::string>> sorted;
  for (const auto& [op, count] : ops) sorted.push_back({-count, op});
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size() && i < 25; ++i)
    html += row(esc(sorted[i].second), QString::number(-sorted[i].first));
  setHtml(html + QStringLiteral("</table>"));
}

}  // namespace fathom::viz
