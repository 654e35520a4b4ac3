// What an InterpSession shows - the snapshot after each operation, a node's fake-vs-real table -
// and what changes no run: breakpoints, a check report laid over the dump (see InterpSession.h).
#include "viz/model/InterpSession.h"

#include <algorithm>

#include "viz/model/InterpMarks.h"
#include "viz/model/InterpSessionStage.h"

namespace fathom::viz {

Result<AddedBreakpoint> InterpSession::addBreakpoint(const std::string& graph, const std::string& target) {
  const int stage = stageOf(graph);
  if (stage < 0) return invalidInput("graph '" + graph + "' is not part of this run");
  auto added = stages_[static_cast<size_t>(stage)].session->addBreakpoint(target);
  FATHOM_TRY(added);
  ++generation_;
  return added;
}

bool InterpSession::removeBreakpoint(const std::string& graph, int id) {
  const int stage = stageOf(graph);
  const bool removed = stage >= 0 && stages_[static_cast<size_t>(stage)].session->removeBreakpoint(id);
  generation_ += removed ? 1 : 0;
  return removed;
}

Result<bool> InterpSession::toggleBreakpoint(const std::string& graph, int32_t node) {
  const int stage = stageOf(graph);
  if (stage < 0) return invalidInput("graph '" + graph + "' is not part of this run");
  const Stage& s = stages_[static_cast<size_t>(stage)];
  if (node < 0 || static_cast<size_t>(node) >= s.graph->size()) return invalidInput("no such node in graph '" + graph + "'");
  const std::string& name = s.graph->nodes()[static_cast<size_t>(node)].name;
  for (const Breakpoint& b : s.session->breakpoints())
    if (b.node == name) return !removeBreakpoint(graph, b.id);
  auto added = addBreakpoint(graph, name);
  FATHOM_TRY(added);
  return true;
}

Status InterpSession::showReport(CheckReport report) {
  size_t known = 0, unknown = 0;
  for (const std::string& g : report.graphs) known += dump_->graph(g) ? 1 : 0;
  if (known == 0) {
    std::string names;
    for (const auto& g : dump_->graphs) names += (names.empty() ? "" : ", ") + g.name;
    return invalidInput("the report checked none of this dump's graphs (it has: " + names + ")");
  }
  for (const Mismatch& m : report.mismatches) {
    const Graph* g = dump_->graph(m.graph);
    unknown += g && g->find(m.node) ? 0 : 1;
  }
  size_t origins = 0;
  for (const Mismatch& m : report.mismatches) origins += m.origin ? 1 : 0;
  message_ = "check report" + (report.file.empty() ? std::string() : " of " + report.file) + ": " +
             std::to_string(report.mismatches.size()) + " mismatches, " + std::to_string(origins) + " origins";
  if (unknown > 0) message_ += "; " + std::to_string(unknown) + " name nodes this dump does not have (another dump's report?)";
  stop_ = InterpStop::None;
  focusNode_ = -1;
  for (const Mismatch& m : report.mismatches)  // follow the first origin
    if (const Graph* g = dump_->graph(m.graph); g && m.origin && g->find(m.node) && stageOf(m.graph) >= 0) {
      focusStage_ = static_cast<size_t>(stageOf(m.graph));
      focusNode_ = g->find(m.node)->index;
      break;
    }
  report_ = std::move(report);
  ++generation_;
  return {};
}

InterpSnapshot InterpSession::snapshot() const {
  InterpSnapshot s;
  s.state = state();
  s.stop = stop_;
  s.message = message_;
  s.sizes = sizes_;
  s.stage = current_;
  s.stages = stages_.size();
  s.graph = stages_[current_].name;
  s.nodes = stages_[current_].graph->size();
  s.cursor = cursor();
  s.cursorNode = s.cursor < s.nodes && s.state != InterpState::Failed ? stages_[current_].graph->nodes()[s.cursor].name : "";
  s.nodeSeconds = nodeSeconds_;
  s.generation = generation_;
  if (report_) {
    s.mismatches = report_->mismatches;
    for (const auto& g : dump_->graphs)
      if (auto marks = reportMarks(g.graph, g.name, *report_); !marks.empty()) s.graphs.push_back({g.name, std::move(marks), {}});
  }
  for (size_t i = 0; i < stages_.size(); ++i) {
    const Stage& st = stages_[i];
    const bool live = st.started && !report_;
    static const std::vector<Mismatch> kNone;
    const std::vector<Mismatch>& found = live ? st.session->interpreter().mismatches() : kNone;
    s.mismatches.insert(s.mismatches.end(), found.begin(), found.end());
    std::vector<bool> breakpoints(st.graph->size());
    for (size_t n = 0; n < breakpoints.size(); ++n) breakpoints[n] = st.session->breakpointAt(n) != nullptr;
    for (const Breakpoint& b : st.session->breakpoints()) s.breakpoints.push_back({st.name, b});
    InterpGraphMarks* marks = nullptr;
    for (auto& g : s.graphs) marks = g.graph == st.name ? &g : marks;
    if (!marks) marks = &s.graphs.emplace_back(InterpGraphMarks{st.name, {}, {}});
    marks->breakpoints = std::move(breakpoints);
    if (!live) continue;
    const size_t ran = st.session->cursor();
    const bool here = i == current_;
    marks->marks = runMarks(*st.graph, st.name, ran, found, here ? std::optional<size_t>(ran) : std::nullopt,
                            here && st.session->failed() ? std::optional<size_t>(ran) : std::nullopt);
  }
  s.origins = static_cast<size_t>(std::count_if(s.mismatches.begin(), s.mismatches.end(), [](const Mismatch& m) { return m.origin; }));
  if (focusNode_ >= 0 && focusStage_ < stages_.size()) {
    s.focusGraph = stages_[focusStage_].name;
    s.focusNode = std::min<int32_t>(focusNode_, static_cast<int32_t>(stages_[focusStage_].graph->size()) - 1);
  }
  return s;
}

InterpTable InterpSession::table(const std::string& graph, int32_t node) const {
  if (report_) {
    const Graph* g = dump_->graph(graph);
    return g ? reportTable(*g, graph, node, *report_) : InterpTable{};
  }
  const int stage = stageOf(graph);
  if (stage < 0) {
    InterpTable t;
    t.graph = graph;
    t.status = "graph '" + graph + "' is not part of this run";
    return t;
  }
  const Stage& s = stages_[static_cast<size_t>(stage)];
  return liveTable(*s.session, s.started, node);
}

}  // namespace fathom::viz
