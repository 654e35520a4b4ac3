#include "engine/frontend/TraceContext.h"

#include "engine/frontend/OpCall.h"

namespace fathom::frontend {
namespace {

thread_local TraceContext* tCurrent = nullptr;

NodeContext contextOf(const Graph& graph, const Node& n) {
  NodeContext c{n.name, n.target, n.provenance.source, n.provenance.module, {}, n.stage};
  forEachNodeRef(n, [&](NodeRef r) { c.argNames.push_back(graph.node(r).name); });
  return c;
}

}  // namespace

TraceContext::TraceContext(TraceHooks hooks) : hooks_(std::move(hooks)), previous_(tCurrent) {
  tCurrent = this;
  builder_.setStage("forward");
  if (hooks_.beforeNode) {
    // The node is not in the graph yet, but everything it reads is.
    builder_.setBeforeMeta([this](const Node& n) { hooks_.beforeNode(contextOf(builder_.graph(), n)); });
  }
}

TraceContext::~TraceContext() { tCurrent = previous_; }

TraceContext* TraceContext::current() { return tCurrent; }

const std::shared_ptr<autograd::AutogradMeta>& TraceContext::boundGrad(const void* key) const {
  static const std::shared_ptr<autograd::AutogradMeta> kNone;
  auto it = boundGrad_.find(key);
  return it == boundGrad_.end() ? kNone : it->second;
}

Tensor TraceContext::placeholder(const std::string& name, const TensorMeta& meta) {
  NodeRef r = builder_.input(name, meta);
  if (const Error* e = builder_.error()) throw FrontendError(*e);
  return Tensor::traced(this, r);
}

Tensor TraceContext::input(const std::string& name, const TensorMeta& meta) {
  if (!hooks_.makeSize) return placeholder(name, meta);
  TensorMeta m = meta;
  for (size_t d = 0; d < m.sizes.size(); ++d)
    m.sizes[d] = hooks_.makeSize(m.sizes[d].hint(), name + ".size(" + std::to_string(d) + ")");
  m.strides = contiguousStrides(m.sizes);
  m.storageOffset = 0;
  return placeholder(name, m);
}

NodeRef TraceContext::bound(const void* key) const {
  auto it = bound_.find(key);
  return it == bound_.end() ? NodeRef{} : it->second;
}

void TraceContext::remember(const SymInt& size, NodeRef node) {
  if (size.isSymbolic()) sizeNodes_.try_emplace(size.node().get(), size.node(), node);
}

Value TraceContext::lower(const SymValue& size) {
  if (!size.isSymbolic()) return size.sym();
  if (size.node().index >= 0) return size.node();
  auto it = sizeNodes_.find(size.sym().node().get());
  if (it != sizeNodes_.end()) return it->second.second;
  if (size.tensor().index < 0)
    fail("a symbolic size that no graph node computes: " + size.sym().str(), size.location());
  NodeRef r = call("aten.sym_size.default", {size.tensor(), size.dim()}, {}, size.location());
  remember(size.sym(), r);
  return r;
}

SymValue TraceContext::symBinary(std::string_view op, const SymValue& a, const SymValue& b) {
  ValueList args{lower(a), lower(b)};
  NodeRef r = call(op, std::move(args), {}, a.location());
  const Value& v = builder_.valueOf(r);
  if (!v.is<SymInt>()) fail(std::string(op) + " did not produce an int", a.location());
  remember(v.as<SymInt>(), r);
  return SymValue(v.as<SymInt>(), r, a.location());
}

NodeRef TraceContext::call(std::string_view op, ValueList args, Kwargs kwargs, std::source_location loc) {
  NodeRef r = builder_.call(op, std::move(args), std::move(kwargs), {}, loc);
  if (const Error* e = builder_.error()) throw FrontendError(*e);
  return r;
}

}  // namespace fathom::frontend
