// Names and the status line of an interpreter snapshot (see InterpSnapshot.h).
#include "viz/model/InterpSnapshot.h"

namespace fathom::viz {

std::string_view interpStateName(InterpState s) {
  switch (s) {
    case InterpState::NotStarted: return "not started";
    case InterpState::Ready: return "ready";
    case InterpState::Finished: return "finished";
    case InterpState::Failed: return "failed";
    case InterpState::Report: return "check report";
  }
  return "";
}

std::string_view interpStopName(InterpStop s) {
  switch (s) {
    case InterpStop::None: return "";
    case InterpStop::Stepped: return "stepped";
    case InterpStop::Breakpoint: return "at a breakpoint";
    case InterpStop::Mismatch: return "stopped after a mismatch";
    case InterpStop::Failure: return "a node failed";
    case InterpStop::Target: return "ran to the node asked";
    case InterpStop::End: return "ran to the end";
    case InterpStop::Paused: return "paused";
  }
  return "";
}

const InterpGraphMarks* InterpSnapshot::marksOf(const std::string& graphName) const {
  for (const auto& g : graphs)
    if (g.graph == graphName) return &g;
  return nullptr;
}

std::string interpStatusLine(const InterpSnapshot& s) {
  std::string line;
  if (s.state == InterpState::Report) {
    line = "check report";
  } else {
    line = s.graph.empty() ? std::string("-") : s.graph;
    if (s.stages > 1) line += " (" + std::to_string(s.stage + 1) + "/" + std::to_string(s.stages) + ")";
    if (!s.cursorNode.empty())
      line += " · next: node " + std::to_string(s.cursor + 1) + "/" + std::to_string(s.nodes) + " %" + s.cursorNode;
    else
      line += " · " + std::to_string(std::min(s.cursor, s.nodes)) + "/" + std::to_string(s.nodes) + " nodes run";
    line += " · " + std::string(interpStateName(s.state));
    if (s.stop != InterpStop::None) line += " (" + std::string(interpStopName(s.stop)) + ")";
  }
  const size_t n = s.mismatches.size();
  line += " · " + std::to_string(n) + (n == 1 ? " mismatch" : " mismatches");
  if (n > 0) line += " (" + std::to_string(s.origins) + (s.origins == 1 ? " origin)" : " origins)");
  if (!s.sizes.empty()) line += " · sizes " + s.sizes;
  return line;
}

}  // namespace fathom::viz
