// TraceContext: one trace of model code into a Graph. While it lives it is the thread's current
// trace: factory ops (no tensor arguments) and module scopes record into it, and parameters
// read inside it are its placeholders. Ops on its traced tensors append nodes to its builder.
//
// TraceHooks are the only coupling to a shape environment: makeSize turns each input dimension
// into a SymInt (symbolic or not, the environment decides), beforeNode learns each call node
// before its meta function runs (so guards know their node, op, source line and module).
//
// Symbolic sizes become graph values as in FX: a size read from a traced tensor is a sym_size
// node the first time it is used; the node computing a symbolic SymInt is remembered (by the
// identity of its expression), so later uses of the same size reuse it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/frontend/TensorHandle.h"
#include "engine/graph/GraphBuilder.h"

namespace fathom::frontend {

struct NodeContext {
  std::string node;    // "addmm_3"
  std::string op;      // "aten.addmm.default"
  std::string source;  // "samples/models/BertModel.cpp:57"
  std::string module;  // "encoder.layer.0.attention.self.query"
  std::vector<std::string> argNames;  // the nodes it reads, in argument order ("view_2", "t_1")
  std::string stage;   // the builder's stage: "forward", or "backward" while autograd traces a backward
};

struct TraceHooks {
  // Makes the size of input dimension: source is "x.size(0)". Null: sizes stay concrete (static
  // trace).
  std::function<SymInt(int64_t hint, const std::string& source)> makeSize;
  // Called right before each op's meta function runs, with the node about to be created.
  std::function<void(const NodeContext&)> beforeNode;
};

class TraceContext {
 public:
  explicit TraceContext(TraceHooks hooks = {});
  ~TraceContext();
  TraceContext(const TraceContext&) = delete;
  TraceContext& operator=(const TraceContext&) = delete;

  // The innermost live trace on this thread, or null (eager mode).
  static TraceContext* current();

  GraphBuilder& builder() { return builder_; }
  const TraceHooks& hooks() const { return hooks_; }

  // A placeholder with `meta` as given (parameters and buffers: static sizes).
  Tensor placeholder(const std::string& name, const TensorMeta& meta);
  // A model input: each dimension's size from hooks.makeSize (source "name.size(d)") when set,
  // contiguous strides computed from those sizes.
  Tensor input(const std::string& name, const TensorMeta& meta);
  // The placeholder bound to `key` (a parameter), or an invalid NodeRef.
  NodeRef bound(const void* key) const;
  void bind(const void* key, NodeRef node) { bound_[key] = node; }
  // The autograd state a parameter's placeholder carries in this trace (null: none - a plain
  // forward trace; AOT tracing makes parameters leaves that require grad).
  const std::shared_ptr<autograd::AutogradMeta>& boundGrad(const void* key) const;
  void bindGrad(const void* key, std::shared_ptr<autograd::AutogradMeta> meta) { boundGrad_[key] = std::move(meta); }

  // A size as an op argument: a plain int when concrete, else the node computing it (a
  // sym_size node is appended the first time a size read from a tensor is used).
  Value lower(const SymValue& size);
  // Appends `op`(a, b) for symbolic size arithmetic ("operator.mul").
  SymValue symBinary(std::string_view op, const SymValue& a, const SymValue& b);
  // Appends a call node; throws FrontendError with the builder's error when it fails.
  NodeRef call(std::string_view op, ValueList args, Kwargs kwargs, std::source_location loc);

 private:
  void remember(const SymInt& size, NodeRef node);

  GraphBuilder builder_;
  TraceHooks hooks_;
  TraceContext* previous_;
  // Symbolic expression -> the node that computes it; the SymNode is kept alive so its address
  // is never reused for another expression.
  std::unordered_map<const SymNodeImpl*, std::pair<SymNode, NodeRef>> sizeNodes_;
  std::unordered_map<const void*, NodeRef> bound_;
  std::unordered_map<const void*, std::shared_ptr<autograd::AutogradMeta>> boundGrad_;
};

}  // namespace fathom::frontend
