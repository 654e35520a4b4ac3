// DebugSession: stepping through one graph on real tensors under the debug interpreter, the
// session `fathom step` (app/Stepper.cpp) and the GUI drive - one graph, its example inputs,
// breakpoints (before a node, or before every node of an op), and a DebugInterpreter for the
// current run. It prints nothing: every call returns what happened, and the caller shows it.
//
//   DebugSession session(graph, dump.shapeEnv.get(), inputs, seed, CheckOptions{.keepIntermediates = true});
//   FATHOM_TRY(session.restart());                  // draws the inputs, before node 0
//   auto b = session.addBreakpoint("aten.addmm.default");  // or "%add_3" / "add_3"
//   auto run = session.runToBreak();                 // stops before %addmm, or earlier
//   if (run->reason == StopReason::Mismatch) ... session.interpreter().mismatches() ...
//
// Invariants: the graph and the ShapeEnv outlive the session. Every value of the current run
// stays alive when CheckOptions::keepIntermediates, so interpreter().value() works on any node
// already run. restart() draws the same inputs again (a graph may mutate its inputs in place) and
// keeps the breakpoints. After a node fails to execute (or a restart fails) the session is
// Failed and only restart() runs anything again. The mismatch and failure counters add up over
// every run of the session.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/graph/ExampleInput.h"
#include "engine/graph/Graph.h"
#include "engine/interp/DebugInterpreter.h"

namespace fathom {

namespace sym {
class ShapeEnv;
}

// Exactly one of `node` and `op` is set.
struct Breakpoint {
  int id = 0;        // 1, 2, ... in the order they were added; never reused in a session
  std::string node;  // without the '%'
  std::string op;    // "aten.add.Tensor"
};

// What addBreakpoint did: a new breakpoint, or the one that already breaks there.
struct AddedBreakpoint {
  Breakpoint breakpoint;
  bool isNew = true;
};

// One node run by stepOne().
struct StepResult {
  size_t node = 0;           // the index of the node that ran (or failed)
  size_t firstMismatch = 0;  // its new mismatches are interpreter().mismatches()[firstMismatch, +newMismatches)
  size_t newMismatches = 0;
  std::optional<Error> failure;  // set when the node failed to execute (then no mismatch counts)
  bool failed() const { return failure.has_value(); }
};

// Why runToBreak() stopped.
enum class StopReason {
  Breakpoint,  // before a node a breakpoint names (RunResult::breakpoint)
  Mismatch,    // after a node with new mismatches (RunResult::last)
  Failure,     // a node failed to execute (RunResult::last.failure)
  End,         // the graph finished
};

struct RunResult {
  StopReason reason = StopReason::End;
  StepResult last;       // the last node run
  size_t nodesRun = 0;   // at least one
  int breakpoint = 0;    // the breakpoint's id for StopReason::Breakpoint, else 0
};

// What the session can do next.
enum class SessionState {
  Ready,     // a node is at the cursor
  Failed,    // a node failed to execute (or restart failed): only restart() runs again
  Finished,  // the graph ran to its end
};

class DebugSession {
 public:
  // `graph` must outlive the session; `graphName` names it in errors. `env` is null for a static trace. `seed` overrides the inputs' seeds (materializeInputs).
  DebugSession(const Graph& graph, std::string graphName, const sym::ShapeEnv* env, std::vector<ExampleInput> inputs,
               std::optional<uint64_t> seed, CheckOptions check);
  ~DebugSession();
  DebugSession(const DebugSession&) = delete;
  DebugSession& operator=(const DebugSession&) = delete;

  // A new run on freshly drawn inputs, before node 0; breakpoints and counters are kept. Call it
  // once before anything else. On an error the session is Failed (and keeps the run it had).
  Status restart();
  // The same on `inputs` already drawn (one per placeholder): a training step's backward runs on
  // what its forward really saved, and the GUI draws inputs at sizes the user asked for.
  Status restartOn(ValueList inputs);

  // Runs the node at the cursor. An error (not a failing node: that is StepResult::failure)
  // when the session is not Ready.
  Result<StepResult> stepOne();
  // Runs at least one node, then on until a breakpoint is before the cursor, a node shows new
  // mismatches or fails, or the graph ends. An error when the session is not Ready.
  Result<RunResult> runToBreak();

  // A breakpoint before the node called `target` ("%add_3" or "add_3"), else before every node
  // of the op `target` ("aten.add.Tensor"); adding one that exists returns it (isNew false). An
  // error when the graph has no such node or op.
  Result<AddedBreakpoint> addBreakpoint(std::string_view target);
  // False when there is no breakpoint `id`.
  bool removeBreakpoint(int id);
  const std::vector<Breakpoint>& breakpoints() const { return breakpoints_; }
  // The first breakpoint that breaks before node `index`, or null.
  const Breakpoint* breakpointAt(size_t index) const;

  // The node called `name`, with or without its '%'.
  std::optional<NodeRef> findNode(std::string_view name) const;

  // Failed until the first restart() succeeds.
  SessionState state() const;
  bool failed() const { return failed_; }
  // The current run (the node at the cursor runs next; done: past the output node) and its
  // values, mismatches and symbol binding. Valid once a restart() succeeded.
  size_t cursor() const { return interp_->cursor(); }
  bool done() const { return interp_->done(); }
  const DebugInterpreter& interpreter() const { return *interp_; }
  const Graph& graph() const { return graph_; }
  const std::string& graphName() const { return graphName_; }
  const sym::ShapeEnv* shapeEnv() const { return env_; }
  size_t inputCount() const { return inputs_.size(); }

  // Over every run of the session.
  size_t mismatchesSeen() const { return mismatchesSeen_; }
  size_t failures() const { return failures_; }
  bool problemSeen() const { return mismatchesSeen_ > 0 || failures_ > 0; }

 private:
  Status checkReady() const;

  const Graph& graph_;
  std::string graphName_;
  const sym::ShapeEnv* env_;
  std::vector<ExampleInput> inputs_;
  std::optional<uint64_t> seed_;
  CheckOptions check_;
  std::unique_ptr<DebugInterpreter> interp_;
  std::vector<Breakpoint> breakpoints_;
  int nextBreakpointId_ = 1;
  bool failed_ = false;  // the node at the cursor failed to execute in this run, or restart did
  size_t mismatchesSeen_ = 0;
  size_t failures_ = 0;
};

}  // namespace fathom
