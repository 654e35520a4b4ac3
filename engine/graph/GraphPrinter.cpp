#include "engine/graph/GraphPrinter.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace fathom {
namespace {

// Shortest text that reads back as the same double, always with a '.' or exponent.
std::string formatDouble(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string formatMeta(const Value& val) {
  if (auto* m = val.tryAs<TensorMeta>()) return m->str();
  if (auto* s = val.tryAs<SymInt>()) return "Sym(" + s->str() + ")";
  if (auto* l = val.tryAs<ValueList>()) {
    std::string out = "(";
    for (size_t i = 0; i < l->size(); ++i) out += (i ? ", " : "") + formatMeta((*l)[i]);
    return out + ")";
  }
  return "";
}

}  // namespace

std::string formatValue(const Value& v, const Graph* graph) {
  struct Visitor {
    const Graph* graph;
    std::string operator()(const None&) const { return "None"; }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(const SymInt& i) const { return i.str(); }
    std::string operator()(double d) const { return formatDouble(d); }
    std::string operator()(const std::string& s) const { return "'" + s + "'"; }
    std::string operator()(DType t) const { return "torch." + std::string(dtypeName(t)); }
    std::string operator()(MemoryFormat f) const { return "torch." + std::string(memoryFormatName(f)); }
    std::string operator()(Layout) const { return "torch.strided"; }
    std::string operator()(const Device& d) const { return "device('" + d.name + "')"; }
    std::string operator()(NodeRef r) const {
      if (graph && r.index >= 0 && static_cast<size_t>(r.index) < graph->size())
        return "%" + graph->node(r).name;
      return "%<" + std::to_string(r.index) + ">";
    }
    std::string operator()(const Tensor& t) const { return "tensor(" + t.meta().str() + ")"; }
    std::string operator()(const TensorMeta& m) const { return "fake(" + m.str() + ")"; }
    std::string operator()(const ValueList& l) const {
      std::string out = "[";
      for (size_t i = 0; i < l.size(); ++i) out += (i ? ", " : "") + formatValue(l[i], graph);
      return out + "]";
    }
  };
  return std::visit(Visitor{graph}, v.v);
}

std::string formatCall(const Graph& graph, const Node& node) {
  std::string out = node.target + "(";
  bool first = true;
  for (const auto& a : node.args) {
    out += (first ? "" : ", ") + formatValue(a, &graph);
    first = false;
  }
  for (const auto& [k, a] : node.kwargs) {
    out += (first ? "" : ", ") + k + "=" + formatValue(a, &graph);
    first = false;
  }
  return out + ")";
}

std::string formatNode(const Graph& graph, const Node& node) {
  if (node.kind == NodeKind::Output)
    return "return " + (node.args.empty() ? std::string("None") : formatValue(node.args[0], &graph));
  std::string line = "%" + node.name;
  std::string meta = formatMeta(node.val);
  if (!meta.empty()) line += " : " + meta;
  line += " = ";
  line += node.kind == NodeKind::Placeholder ? "placeholder" : formatCall(graph, node);
  return line;
}

std::string printGraph(const Graph& graph) {
  std::string out;
  for (const auto& n : graph.nodes()) out += formatNode(graph, n) + "\n";
  return out;
}

namespace {
std::string dotEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

std::string graphToDot(const Graph& graph, const std::string& name) {
  std::ostringstream os;
  os << "digraph \"" << dotEscape(name) << "\" {\n  rankdir=TB;\n  node [shape=box, fontname=\"DejaVu Sans Mono\", fontsize=10];\n";
  const auto& nodes = graph.nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    std::string label = dotEscape(n.name);
    if (n.kind == NodeKind::Call) label += "\\n" + dotEscape(n.target);
    std::string meta = formatMeta(n.val);
    if (!meta.empty()) label += "\\n" + dotEscape(meta);
    const char* style = n.kind == NodeKind::Placeholder ? ", shape=ellipse, style=filled, fillcolor=\"#dde8f5\""
                        : n.kind == NodeKind::Output   ? ", shape=ellipse, style=filled, fillcolor=\"#e6f2dd\""
                                                       : "";
    os << "  n" << i << " [label=\"" << label << "\"" << style << "];\n";
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::vector<int32_t> seen;
    forEachNodeRef(nodes[i], [&](NodeRef r) {
      for (int32_t s : seen) if (s == r.index) return;
      seen.push_back(r.index);
      os << "  n" << r.index << " -> n" << i << ";\n";
    });
  }
  os << "}\n";
  return os.str();
}

}  // namespace fathom
