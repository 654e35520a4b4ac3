// GraphBuilder: the C++ API for writing graphs by hand (samples, tests). Each call() looks the
// op up, binds its arguments, runs its meta function on the recorded fake values of its inputs
// and records the result, the caller's source location and the current module path.
//
//   GraphBuilder b;
//   NodeRef x = b.input("x", fakeTensor(DType::Float32, {32, 784}));
//   NodeRef w = b.input("w", fakeTensor(DType::Float32, {128, 784}));
//   NodeRef y = b.call("aten.mm.default", {x, b.call("aten.t.default", {w})});
//   b.output({y});
//   Result<Graph> g = b.finish();   // the first error, if any call failed, else the verified graph
//
// Errors are sticky: after the first failed call, later calls return an invalid NodeRef and
// finish() reports that first error with the node it happened at.
#pragma once

#include <functional>
#include <source_location>
#include <string>
#include <vector>

#include "engine/graph/Graph.h"

namespace fathom {

// "samples/Mlp.cpp:14": the file relative to the checkout (dumps stay identical across machines).
std::string sourceLocationText(const std::source_location& loc);

// A fake tensor with contiguous strides.
TensorMeta fakeTensor(DType dtype, const SymIntList& sizes);

class GraphBuilder {
 public:
  NodeRef input(std::string name, TensorMeta meta);
  NodeRef call(std::string_view op, ValueList args, Kwargs kwargs = {}, std::string name = {},
               std::source_location loc = std::source_location::current());
  NodeRef getitem(NodeRef multi, int64_t index,
                  std::source_location loc = std::source_location::current());
  void output(ValueList values);

  // Module path scope: nodes created while it lives get "outer.inner" as their module.
  class ModuleScope {
   public:
    ModuleScope(GraphBuilder& b, const std::string& name);
    ~ModuleScope();
    ModuleScope(const ModuleScope&) = delete;
    ModuleScope& operator=(const ModuleScope&) = delete;

   private:
    GraphBuilder& b_;
    size_t previousLength_;
  };
  ModuleScope module(const std::string& name) { return ModuleScope(*this, name); }
  void setStage(std::string stage) { stage_ = std::move(stage); }
  // Called by call() for each new call node, after its name, op, arguments and provenance are
  // set and before its meta function runs: a shape environment learns which node (and user
  // code) the guards the meta function records belong to.
  void setBeforeMeta(std::function<void(const Node&)> hook) { beforeMeta_ = std::move(hook); }

  // The first error of a call, if any (finish() reports it too).
  const Error* error() const { return error_ ? &*error_ : nullptr; }

  // The recorded fake value of a node built so far.
  const Value& valueOf(NodeRef r) const { return graph_.node(r).val; }
  // The graph built so far.
  const Graph& graph() const { return graph_; }
  Result<Graph> finish();

 private:
  Value fakeArgument(const Value& v) const;
  std::string sourceOf(const std::source_location& loc) const;

  Graph graph_;
  std::string module_;
  std::string stage_;
  std::optional<Error> error_;
  std::function<void(const Node&)> beforeMeta_;
};

}  // namespace fathom
