// Stepper: `fathom step`'s command lines over a DebugSession (engine/interp/DebugSession.h: the
// graph, its inputs, the breakpoints and the current run) - next, continue, break, delete, print,
// where, list, restart, quit, help. It parses each line, calls the session, and prints the answer
// on stdout; a bad command or argument is one line there and the session goes on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "engine/interp/DebugSession.h"

namespace fathom::cli {

// One session; its answers go to stdout.
class Stepper {
 public:
  Stepper(const NamedGraph& graph, const sym::ShapeEnv* env, std::vector<ExampleInput> inputs,
          std::optional<uint64_t> seed, CheckOptions check)
      : session_(graph.graph, graph.name, env, std::move(inputs), seed, std::move(check)) {}

  // A new run on freshly drawn inputs; breakpoints are kept.
  Status restart() { return session_.restart(); }
  // Runs one command line; false when the session is over.
  bool execute(const std::string& line);
  bool problemSeen() const { return session_.problemSeen(); }
  void printEnd() const;
  std::string cursorLine() const { return session_.done() ? "the end" : nodeLine(session_.cursor()); }

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
  // Runs the node at the cursor; prints its line and mismatches when `echo` (and always when it
  // fails or mismatches). False when the node failed.
  bool step(bool echo);
  void printStep(const StepResult& step, bool echo) const;
  void printFinished() const;
  void printTable(const Node& node, const Value& recorded, const Value& real) const;
  // "[7] %addmm = aten.addmm.default(...)"; `aligned` pads the index to the widest one's width.
  std::string nodeLine(size_t index, bool aligned = false) const;
  const Graph& graph() const { return session_.graph(); }
  const DebugInterpreter& interp() const { return session_.interpreter(); }

  DebugSession session_;
  std::string lastCommand_;
};

}  // namespace fathom::cli
