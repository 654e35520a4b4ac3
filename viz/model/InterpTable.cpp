// The fake-vs-real table of one node (see InterpTable.h).
#include "viz/model/InterpTable.h"

#include <algorithm>

#include "engine/graph/GraphPrinter.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::viz {
namespace {

std::string callText(const Graph& g, const Node& n) {
  if (n.kind == NodeKind::Call) return "%" + n.name + " = " + formatCall(g, n);
  if (n.kind == NodeKind::Placeholder) return "%" + n.name + " = placeholder";
  return formatNode(g, n);
}

std::string bindingText(const DebugSession& session) {
  const sym::ShapeEnv* env = session.shapeEnv();
  if (!env) return "";
  std::string out;
  for (size_t i = 0; i < env->symbols().size(); ++i) {
    auto v = session.interpreter().symbolValue(static_cast<int32_t>(i));
    if (!v) continue;
    out += (out.empty() ? "" : ", ") + env->symbols()[i].name + " = " + std::to_string(*v);
  }
  return out;
}

void addMismatches(InterpTable& t, const std::vector<Mismatch>& all) {
  for (const Mismatch& m : all)
    if (m.graph == t.graph && m.node == t.node) t.mismatches.push_back(m);
}

// The inputs of node `n` that have mismatches of their own ("%getitem, %where").
std::string liedInputs(const Graph& g, const Node& n, const std::string& graphName, const std::vector<Mismatch>& all) {
  std::string out;
  std::vector<char> seen(g.size(), 0);
  forEachNodeRef(n, [&](NodeRef r) {
    const std::string& name = g.node(r).name;
    if (seen[static_cast<size_t>(r.index)]++) return;
    for (const Mismatch& m : all)
      if (m.graph == graphName && m.node == name) {
        out += (out.empty() ? "%" : ", %") + name;
        break;
      }
  });
  return out;
}

std::string ranStatus(const InterpTable& t, const std::string& lied, bool hasMeta) {
  if (!t.mismatches.empty()) {
    std::string fields;
    bool origin = false;
    for (const Mismatch& m : t.mismatches) fields += (fields.empty() ? "" : ", ") + m.field, origin = origin || m.origin;
    return std::string(origin ? "ORIGIN" : "inherited") + " mismatch: " + fields + " differ from the recorded meta";
  }
  if (!lied.empty()) return "inherited: ran on " + lied + ", which did not match the recorded meta";
  return hasMeta ? "ran: matches its recorded meta" : "ran: not checked (no recorded meta)";
}

// "[s0, 768] = [4, 768]" -> recorded "[s0, 768]", evaluated "[4, 768]".
FakeRealRow reportRow(const Mismatch& m) {
  FakeRealRow r;
  r.field = m.field;
  const size_t eq = m.expected.find(" = ");
  r.symbolic = eq != std::string::npos;
  r.recorded = r.symbolic ? m.expected.substr(0, eq) : m.expected;
  r.evaluated = r.symbolic ? m.expected.substr(eq + 3) : m.expected;
  r.real = m.actual;
  r.mismatch = true;
  return r;
}

}  // namespace

InterpTable liveTable(const DebugSession& session, bool started, int32_t node) {
  InterpTable t;
  const Graph& g = session.graph();
  if (node < 0 || static_cast<size_t>(node) >= g.size()) return t;
  const NodeRef ref{node};
  const Node& n = g.node(ref);
  t.graph = session.graphName();
  t.node = n.name;
  t.call = callText(g, n);
  const DebugInterpreter* interp = started ? &session.interpreter() : nullptr;
  t.ran = interp && static_cast<size_t>(node) < interp->cursor();
  if (interp) {
    t.binding = bindingText(session);
    addMismatches(t, interp->mismatches());
  }
  if (!t.ran) {
    t.rows = recordedRows(interp, n.val);
    const bool failedHere = interp && session.failed() && interp->cursor() == static_cast<size_t>(node);
    t.status = failedHere ? "failed to execute" : started ? "not run yet" : "not run yet (the run has not started)";
    return t;
  }
  if (n.kind == NodeKind::Output) {
    for (size_t i = 0; i < interp->outputs().size(); ++i) {
      auto rows = fakeRealRows(*interp, n, Value{}, interp->outputs()[i], "output " + std::to_string(i) + ": ");
      t.rows.insert(t.rows.end(), rows.begin(), rows.end());
    }
  } else {
    const Value& real = interp->value(ref);
    t.rows = fakeRealRows(*interp, n, n.val, real);
    if (auto* tensor = real.tryAs<Tensor>(); tensor && tensor->defined()) {
      t.hasValues = true;
      t.values = summarizeValues(*tensor, kTableValues);
    }
  }
  t.status = ranStatus(t, liedInputs(g, n, t.graph, interp->mismatches()), !n.val.isNone() || n.kind == NodeKind::Output);
  return t;
}

InterpTable reportTable(const Graph& graph, const std::string& graphName, int32_t node, const CheckReport& report) {
  InterpTable t;
  if (node < 0 || static_cast<size_t>(node) >= graph.size()) return t;
  const Node& n = graph.node(NodeRef{node});
  t.graph = graphName;
  t.node = n.name;
  t.call = callText(graph, n);
  if (std::find(report.graphs.begin(), report.graphs.end(), graphName) == report.graphs.end()) {
    t.rows = recordedRows(nullptr, n.val);
    t.status = "the check report did not check graph '" + graphName + "'";
    return t;
  }
  addMismatches(t, report.mismatches);
  for (const Mismatch& m : t.mismatches) t.rows.push_back(reportRow(m));
  if (t.rows.empty()) t.rows = recordedRows(nullptr, n.val);
  t.status = "check report (nothing ran here): " + ranStatus(t, liedInputs(graph, n, graphName, report.mismatches), true);
  return t;
}

}  // namespace fathom::viz
