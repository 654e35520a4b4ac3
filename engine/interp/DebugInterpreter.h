// DebugInterpreter: runs a graph on real tensors and, after every node, compares what the graph
// *recorded* about the node (its fake value: sizes, strides, storage offset, dtype - symbolic
// ones evaluated under the symbols bound from the real inputs) with what really happened, and
// whether a view is really a view. Every mismatch is classified:
//   origin     the node's inputs matched their meta and its output does not: the bug is in this
//              op's meta function or kernel
//   inherited  an input already mismatched
// It goes on with the real values after a mismatch, so one run reports every origin.
//
// Strides of size-1 dimensions (and of empty tensors) are not compared unless strictStrides, as
// PyTorch's significant-strides rule. With checkValues, floating outputs are checked for NaN/Inf
// and against the node's kernel rerun in float64 on the same inputs.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "engine/interp/Interpreter.h"
#include "engine/interp/SymbolBinding.h"
#include "engine/symbolic/Expr.h"

namespace fathom {

struct CheckOptions {
  bool strictStrides = false;
  bool checkValues = false;
  double rtol = 1e-3, atol = 1e-5;  // value checks (float32 against a float64 rerun)
  std::string graphName;            // for reports
  bool keepIntermediates = false;   // keep every node's real value (the stepper prints them)
};

struct Mismatch {
  std::string graph;
  std::string node;
  std::string op;
  std::string field;     // "sizes", "strides", "storage_offset", "dtype", "alias", "values", "nan", ...
  std::string expected;  // "[s0, 768] = [4, 768]"
  std::string actual;    // "[4, 512]"
  bool origin = false;
  std::string source;    // the model line, and the module path when known
  std::string module;
};

class DebugInterpreter : public Interpreter {
 public:
  explicit DebugInterpreter(const Graph& graph, CheckOptions options = {});

  const std::vector<Mismatch>& mismatches() const { return mismatches_; }
  size_t checkedNodes() const { return checked_; }
  // Nodes whose recorded value could not be checked (no meta, or a symbol no input binds).
  const std::vector<std::string>& skipped() const { return skipped_; }
  // The value of a symbol as bound from the inputs (by symbol index), if bound.
  std::optional<int64_t> symbolValue(int32_t symbol) const;
  // Did node `r` (already run) match its meta?
  bool matched(NodeRef r) const { return !bad_[static_cast<size_t>(r.index)]; }
  // "[s0, 768] = [4, 768]": a recorded size list and its value under the binding.
  std::string describe(const SymIntList& sizes) const;
  // A recorded size under the binding; nullopt when a symbol in it is not bound (yet).
  std::optional<int64_t> eval(const SymInt& s) const;

 protected:
  Result<Value> runNode(const Node& node) override;
  Result<Value> placeholder(const Node& node, size_t inputIndex) override;
  std::optional<int64_t> concreteSize(const SymInt& s) const override { return eval(s); }

 private:
  void compare(const Node& node, const Value& recorded, const Value& real, const std::string& where);
  void compareTensor(const Node& node, const TensorMeta& m, const Tensor& t, const std::string& where);
  void checkAlias(const Node& node, const Value& real);
  void checkValues(const Node& node, const Value& real);
  void report(const Node& node, std::string field, std::string expected, std::string actual);

  CheckOptions options_;
  SymbolBinding binding_;
  std::vector<char> bad_;
  bool nodeBad_ = false;
  bool inputsBad_ = false;
  std::vector<Mismatch> mismatches_;
  std::vector<std::string> skipped_;
  size_t checked_ = 0;
};

}  // namespace fathom
