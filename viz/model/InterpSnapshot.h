// InterpSnapshot: what the interpreter panel shows after each operation of an InterpSession (the
// run's state, the node at the cursor, why it stopped, the mismatches so far, per graph the node
// marks and breakpoints, the node to follow) as one value. The session makes it on the thread
// that ran the operation, so the UI thread draws it without touching the session.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/interp/DebugSession.h"
#include "viz/model/Scene.h"

namespace fathom::viz {

enum class InterpState : uint8_t {
  NotStarted,  // nothing ran yet (the first operation draws the inputs)
  Ready,       // a node is at the cursor
  Finished,    // the last graph ran to its end
  Failed,      // a node failed to execute, or a graph's inputs could not be made: restart
  Report,      // showing a `fathom check --json` report: nothing ran
};
std::string_view interpStateName(InterpState s);  // "not started", "ready", ...

// Why the last operation stopped.
enum class InterpStop : uint8_t {
  None,        // no operation yet, or a restart
  Stepped,     // ran the nodes it was asked to
  Breakpoint,  // before a node a breakpoint names
  Mismatch,    // after a node with new mismatches
  Failure,     // a node failed to execute
  Target,      // run-to: the node asked for has run
  End,         // the last graph finished
  Paused,      // cancelled between two nodes
};
std::string_view interpStopName(InterpStop s);  // "", "stepped", "at a breakpoint", ...

// One graph of the session: a mark per node (NodeMark) and a breakpoint flag per node.
struct InterpGraphMarks {
  std::string graph;
  std::vector<NodeMark> marks;
  std::vector<bool> breakpoints;
};

struct InterpBreakpoint {
  std::string graph;
  Breakpoint breakpoint;  // its id is unique within its graph
};

struct InterpSnapshot {
  InterpState state = InterpState::NotStarted;
  InterpStop stop = InterpStop::None;
  std::string graph;         // the graph at the cursor (a training step: forward, backward, joint)
  size_t stage = 0, stages = 1;  // its place in the run
  size_t cursor = 0, nodes = 0;  // node `cursor` (0-based, the next to run) of `nodes`
  std::string cursorNode;    // its name ("" when finished)
  std::string sizes;         // the sizes the run was asked for ("" as recorded)
  std::string message;       // what the last operation said, for the status line
  std::vector<Mismatch> mismatches;  // this run's, every graph, in the order found
  size_t origins = 0;
  std::vector<InterpGraphMarks> graphs;  // every graph of the session
  std::vector<InterpBreakpoint> breakpoints;
  std::string focusGraph;    // the node the view follows: the cursor, or the node a stop names
  int32_t focusNode = -1;
  double nodeSeconds = 0;    // of the last operation, the time spent running nodes
  uint64_t generation = 0;   // bumped by every operation and breakpoint change

  const InterpGraphMarks* marksOf(const std::string& graphName) const;
};

// "forward (1/3) · next: node 8/13 %getitem_1 · ready (stopped after a mismatch) · 1 mismatch (1 origin)"
std::string interpStatusLine(const InterpSnapshot& s);

}  // namespace fathom::viz
