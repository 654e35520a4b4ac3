// Stepper: the session behind `fathom step` - one graph, its inputs, the breakpoints, and a
// DebugInterpreter for the current run - driven one command line at a time (next, continue,
// break, delete, print, where, list, restart, quit, help). It prints its answers on stdout; a bad
// command or argument is one line there and the session goes on.
//
// Invariants: every value of the current run stays alive (keepIntermediates), so `print` works on
// any node already run; restart() draws the same inputs again (a graph may mutate its inputs in
// place) and keeps the breakpoints; after a node fails to execute only `restart` runs anything.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "engine/interp/DebugInterpreter.h"

namespace fathom::cli {

// Exactly one of `node` and `op` is set.
struct Breakpoint {
  int id = 0;
  std::string node;  // without the '%'
  std::string op;    // "aten.add.Tensor"
};

// One session; its answers go to stdout.
class Stepper {
 public:
  Stepper(const NamedGraph& graph, const sym::ShapeEnv* env, std::vector<ExampleInput> inputs,
          std::optional<uint64_t> seed, CheckOptions check)
      : graph_(graph), env_(env), inputs_(std::move(inputs)), seed_(seed), check_(std::move(check)) {}

  // A new interpreter on freshly drawn inputs; breakpoints are kept.
  Status restart();
  // Runs one command line; false when the session is over.
  bool execute(const std::string& line);
  bool problemSeen() const { return mismatchesSeen_ > 0 || failures_ > 0; }
  void printEnd() const;
  std::string cursorLine() const { return interp_->done() ? "the end" : nodeLine(interp_->cursor()); }

 private:
  using Args = std::vector<std::string>;

  void next(const Args& args);
  void cont();
  void addBreak(const Args& args);
  void deleteBreak(const Args& args);
  void print(const Args& args);
  void where() const;
  void list() const;
  static void help();

  bool canRun() const;
  // Runs the node at the cursor; prints its line and mismatches when `echo` (and always when
  // it fails). Returns the number of new mismatches, or nullopt when the node failed.
  std::optional<size_t> stepOne(bool echo);
  void printFinished() const;
  void printTable(const Node& node, const Value& recorded, const Value& real, const std::string& label) const;
  std::optional<NodeRef> findNode(std::string name) const;
  const Breakpoint* breakpointAt(size_t index) const;
  // "[7] %addmm = aten.addmm.default(...)"; `aligned` pads the index to the widest one's width.
  std::string nodeLine(size_t index, bool aligned = false) const;
  std::string offsetText(const SymInt& offset) const;

  const NamedGraph& graph_;
  const sym::ShapeEnv* env_;  // null for a static trace
  std::vector<ExampleInput> inputs_;
  std::optional<uint64_t> seed_;
  CheckOptions check_;
  std::unique_ptr<DebugInterpreter> interp_;
  std::vector<Breakpoint> breakpoints_;
  int nextBreakpointId_ = 1;
  bool failed_ = false;          // the node at the cursor failed to execute in this run
  size_t mismatchesSeen_ = 0;    // over every run of the session
  size_t failures_ = 0;
  std::string lastCommand_;
};

}  // namespace fathom::cli
