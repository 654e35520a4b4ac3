// `fathom diff A B [--graph NAME] [--json]`: which nodes of dump B's graph are dump A's and what
// changed (engine/graph/GraphDiff.h: matched by name, then by op and matched inputs; changed op,
// arguments, recorded meta, stage or the guards the node raised). One line per node that is not the same, then the summary;
// --json {a: {file, graph}, b: {file, graph}, equal, summary: {same, changed, added, removed},
// nodes: [{state, a, b, changes}]} (nodes that are the same left out). Exit 0 when equal, 1 when
// not, 2 on bad input. For two compiled entries of one function (a recompile), a graph before and
// after minifying, PyTorch's export against Fathom's trace, one graph at two sizes.
#include <iostream>
#include <memory>

#include "app/CliCommon.h"
#include "engine/graph/GraphDiff.h"

namespace fathom::cli {
namespace {

struct DiffOptions {
  std::string a, b, graph;
  DumpLoadFlags load;
  bool json = false;
};

std::string nodeLine(const NodeDiff& n) {
  switch (n.state) {
    case NodeDiffState::Added: return "+ %" + n.b;
    case NodeDiffState::Removed: return "- %" + n.a;
    default: break;
  }
  std::string line = "~ %" + n.a + (n.a == n.b ? "" : " (B: %" + n.b + ")");
  for (size_t i = 0; i < n.changes.size(); ++i) line += (i ? "; " : ": ") + n.changes[i];
  return line;
}

int runDiff(const DiffOptions& o) {
  int rc = kExitOk;
  std::optional<Dump> da, db;
  const NamedGraph* ga = loadGraphOrReport(o.a, o.graph, o.load, &da, &rc);
  if (!ga) return rc;
  const NamedGraph* gb = loadGraphOrReport(o.b, o.graph, o.load, &db, &rc);
  if (!gb) return rc;
  const GraphDiff d = diffGraphs(ga->graph, gb->graph, da->shapeEnv.get(), db->shapeEnv.get());
  const auto& s = d.summary;
  if (o.json) {
    Json nodes = Json::array();
    for (const auto& n : d.nodes)
      if (n.state != NodeDiffState::Same)
        nodes.push_back({{"state", nodeDiffStateName(n.state)}, {"a", n.a}, {"b", n.b}, {"changes", n.changes}});
    printJson({{"a", {{"file", o.a}, {"graph", ga->name}}},
               {"b", {{"file", o.b}, {"graph", gb->name}}},
               {"equal", d.equal()},
               {"summary", {{"same", s.same}, {"changed", s.changed}, {"added", s.added}, {"removed", s.removed}}},
               {"nodes", std::move(nodes)}});
  } else {
    for (const auto& n : d.nodes)
      if (n.state != NodeDiffState::Same) std::cout << nodeLine(n) << "\n";
    std::cout << o.a << " '" << ga->name << "' -> " << o.b << " '" << gb->name << "': " << s.same << " same, " << s.changed
              << " changed, " << s.added << " added, " << s.removed << " removed"
              << (d.equal() ? " (equal)" : "") << "\n";
  }
  return d.equal() ? kExitOk : kExitProblem;
}

}  // namespace

Command addDiffCommand(CLI::App& parent) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* app = parent.add_subcommand("diff", "Compare two graphs node by node: added, removed and changed nodes (exit 1 when they differ)");
  app->add_option("A", o->a, "The first dump (*.fathom.json)")->required();
  app->add_option("B", o->b, "The second dump")->required();
  addDumpLoadFlags(app, &o->load);
  addGraphOption(app, &o->graph, "Compare this graph of both dumps (default: each dump's first)");
  app->add_flag("--json", o->json, "Print JSON: {a: {file, graph}, b: {file, graph}, equal, summary: {same, changed, added, "
                                   "removed}, nodes: [{state, a, b, changes}]}");
  return {app, [o] { return runDiff(*o); }};
}

}  // namespace fathom::cli
