// Interpreter: runs a graph on real tensors, node by node, FX-style:
//   run() -> start() + step() until done -> runNode() -> placeholder() / callOp() / output()
// Subclasses (the debug interpreter) override runNode or the per-kind hooks to look at every
// value as it is produced. Values are dropped after their last use unless keepIntermediates.
//
// Errors name the node: "<what went wrong>; while executing %add_3 = aten.add.Tensor(%x, %y)".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/core/Result.h"
#include "engine/graph/Graph.h"

namespace fathom {

struct InterpreterOptions {
  bool keepIntermediates = false;
};

class Interpreter {
 public:
  explicit Interpreter(const Graph& graph, InterpreterOptions options = {});
  virtual ~Interpreter() = default;

  // Runs the whole graph; returns the values the output node returns (flattened one level:
  // `return [a, b]` gives {a, b}).
  Result<ValueList> run(ValueList inputs);

  // Stepping: start() binds the inputs; step() runs the node at cursor().
  Status start(ValueList inputs);
  Status step();
  bool done() const { return cursor_ >= graph_.size(); }
  size_t cursor() const { return cursor_; }
  const Graph& graph() const { return graph_; }
  // The value a node produced; None if it has not run yet or was already freed.
  const Value& value(NodeRef r) const { return env_[static_cast<size_t>(r.index)]; }
  const ValueList& outputs() const { return outputs_; }
  // The opaque nodes (ops this build does not know, kept at load) that ran so far: their
  // values came from their recorded meta, so values downstream of them are not real.
  const std::vector<std::string>& opaqueNodesRun() const { return opaqueRun_; }

 protected:
  virtual Result<Value> runNode(const Node& node);
  virtual Result<Value> placeholder(const Node& node, size_t inputIndex);
  // `args` are bound to the schema (one per schema argument) with node references replaced
  // by their values.
  virtual Result<Value> callOp(const Node& node, const ValueList& args);
  virtual Result<Value> output(const Node& node);
  // An opaque node's value: zero tensors with the recorded sizes, strides and offset (a list
  // for a multi-output op), so the graph after it still runs and checks its layouts.
  virtual Result<Value> opaqueValue(const Node& node);
  // A recorded size as a number: its value when concrete, else the trace-time hint (the debug
  // interpreter binds symbols to the real input sizes instead).
  virtual std::optional<int64_t> concreteSize(const SymInt& s) const { return s.hint(); }

  // `arg` with every NodeRef replaced by that node's value.
  Value resolve(const Value& arg) const;

 private:
  void freeDeadValues(size_t executed);

  const Graph& graph_;
  InterpreterOptions options_;
  std::vector<Value> env_;
  std::vector<std::vector<int32_t>> freeAfter_;  // node index -> values whose last use it is
  ValueList inputs_;
  ValueList outputs_;
  std::vector<std::string> opaqueRun_;
  size_t cursor_ = 0;
  size_t nextInput_ = 0;
};

}  // namespace fathom
