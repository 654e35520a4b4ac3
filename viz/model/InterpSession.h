// InterpSession: the interpreter panel's view model (Qt-free) over the engine's DebugSession, for
// one loaded dump: one graph, or an AOT dump's training step - forward, then backward on what the
// forward really saved plus the tangents, then joint (engine/aot/CheckStep.h) - as one run whose
// cursor moves from graph to graph.
//
//   auto s = InterpSession::create(dump);             // a training step when the dump has a partition
//   s->addBreakpoint("forward", "aten.addmm.default");
//   s->continueRun(&cancel);                           // to a breakpoint, a new mismatch, a failure, the end
//   InterpSnapshot snap = s->snapshot();               // marks per graph, mismatches, the node to follow
//   InterpTable t = s->table("forward", node);         // fake vs real of a node
//
// The first operation draws the inputs (restart() draws them again, at other sizes if asked: sizes
// the dump's guards refuse leave the run as it was). Runs stop between nodes when `cancel` is set
// (InterpStop::Paused; continue goes on from there). Operations report what they did through
// InterpStop and snapshot().message; a refused operation is an error and changes nothing.
//
// Threading: not locked. One thread at a time calls it - the GUI runs each operation on a worker
// and reads snapshot() there; only progress() may be read concurrently.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/dump/CheckReportJson.h"
#include "engine/dump/Dump.h"
#include "viz/layout/LayoutGraph.h"
#include "viz/model/InterpInputs.h"
#include "viz/model/InterpSnapshot.h"
#include "viz/model/InterpTable.h"

namespace fathom::viz {

class InterpSession {
 public:
  // Over `dump` (kept alive): `graph` alone, or - when "" - the training step of a dump with a
  // partition, else its first graph. An error names a graph the dump does not have.
  static Result<std::unique_ptr<InterpSession>> create(std::shared_ptr<const Dump> dump, const std::string& graph = "");
  ~InterpSession();

  const Dump& dump() const { return *dump_; }
  // The graphs of the run, in the order they run.
  std::vector<std::string> graphs() const;
  bool trainingStep() const;

  // Runs `count` nodes (fewer at a failure, the end, or when cancelled).
  Result<InterpStop> step(size_t count = 1, const CancelFlag* cancel = nullptr);
  // Runs on to a breakpoint, a node with new mismatches, a failure or the end of the last graph.
  Result<InterpStop> continueRun(const CancelFlag* cancel = nullptr);
  // Runs until node `node` of `graph` has run (stopping earlier at a breakpoint before another
  // node, a failure, or when cancelled). An error when that node already ran in this run.
  Result<InterpStop> runTo(const std::string& graph, const std::string& node, const CancelFlag* cancel = nullptr);
  // A new run, before the first node, on inputs drawn at `sizes` ("" as recorded, "s0=4,s1=64",
  // "input_ids=4x64"); refused sizes are an error naming the failing guard, and the run goes on.
  Status restart(const std::string& sizes = "");

  // Breakpoints before a node ("%add_3" / "add_3") or every node of an op, per graph.
  Result<AddedBreakpoint> addBreakpoint(const std::string& graph, const std::string& target);
  bool removeBreakpoint(const std::string& graph, int id);
  // Removes the breakpoint on node `node` of `graph` when it has one, else adds one: true when added.
  Result<bool> toggleBreakpoint(const std::string& graph, int32_t node);

  // Shows a `fathom check --json` report's marks and mismatches until the next run operation. An
  // error when it checked none of this dump's graphs.
  Status showReport(CheckReport report);

  InterpState state() const;
  InterpSnapshot snapshot() const;
  InterpTable table(const std::string& graph, int32_t node) const;
  // Nodes run by the operation under way (or the last one); safe from any thread.
  size_t progress() const { return progress_.load(std::memory_order_relaxed); }

 private:
  struct Stage;
  InterpSession(std::shared_ptr<const Dump> dump, std::vector<Stage> stages, std::string graph);

  Status prepare();  // before an operation: the report goes, a run starts, the run can go on
  Status startStage(size_t index);
  Result<StepResult> runNode();
  bool atBreakpoint() const;
  size_t cursor() const;
  int stageOf(const std::string& graph) const;
  InterpStop finish(InterpStop stop, size_t stage, int32_t node, std::string message);
  InterpStop afterNode(const StepResult& r, size_t stage);
  std::string nodeName(size_t stage, size_t node) const;

  std::shared_ptr<const Dump> dump_;
  std::vector<Stage> stages_;
  std::string graph_;       // what create() was asked to run
  size_t current_ = 0;      // the stage at the cursor
  bool started_ = false;    // a run is under way (inputs drawn)
  std::optional<Error> stageError_;  // a later graph could not start
  RunInputs inputs_;
  std::string sizes_;
  std::optional<CheckReport> report_;
  InterpStop stop_ = InterpStop::None;
  std::string message_;
  size_t focusStage_ = 0;
  int32_t focusNode_ = 0;
  double nodeSeconds_ = 0;
  uint64_t generation_ = 0;
  std::atomic<size_t> progress_{0};
};

}  // namespace fathom::viz
