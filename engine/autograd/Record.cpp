#include "engine/autograd/Record.h"

#include <cctype>

#include "engine/autograd/BackwardObserver.h"
#include "engine/autograd/Formula.h"
#include "engine/autograd/GradMode.h"
#include "engine/frontend/GradRecorder.h"
#include "engine/frontend/TraceContext.h"
#include "engine/ops/OpRegistry.h"

namespace fathom::autograd {
namespace {

bool requiresGrad(const Tensor& t) { return t.defined() && t.autograd() && t.autograd()->requiresGrad; }

bool argRequiresGrad(const Arg& a) {
  if (auto* t = std::get_if<Tensor>(&a.v)) return requiresGrad(*t);
  if (auto* l = std::get_if<TensorList>(&a.v))
    for (const auto& t : *l)
      if (requiresGrad(t)) return true;
  return false;
}

Arg detachArg(const Arg& a) {
  if (auto* t = std::get_if<Tensor>(&a.v)) return Arg(t->detached());
  if (auto* l = std::get_if<TensorList>(&a.v)) {
    TensorList out;
    for (const auto& t : *l) out.push_back(t.detached());
    return Arg(std::move(out));
  }
  return a;
}

// The call's arguments in schema order, defaults filled in (the call was already bound once,
// so the names and arity are known to be right).
std::vector<Arg> bindToSchema(const FunctionSchema& schema, const frontend::Args& args, const frontend::KwArgs& kwargs) {
  std::vector<Arg> out;
  out.reserve(schema.args.size());
  for (size_t i = 0; i < schema.args.size(); ++i) {
    const SchemaArg& s = schema.args[i];
    if (i < args.size()) {
      out.push_back(detachArg(args[i]));
      continue;
    }
    const Arg* given = nullptr;
    for (const auto& [name, a] : kwargs)
      if (name == s.name) given = &a;
    if (given) out.push_back(detachArg(*given));
    else out.emplace_back(s.defaultValue.value_or(Value(None{})));
  }
  return out;
}

// A node that runs an op's derivative formula on what the forward call saved.
class OpGradNode : public GradNode {
 public:
  OpGradNode(std::string op, const Formula* formula, std::vector<Arg> args, TensorList outputs,
             std::vector<size_t> firstSlot)
      : GradNode(backwardNodeName(op)), op_(std::move(op)), formula_(formula), args_(std::move(args)),
        savedOutputs_(std::move(outputs)), firstSlot_(std::move(firstSlot)) {}

  void addEdge(Edge e) { next_.push_back(std::move(e)); }
  // The graph node the forward op recorded, while tracing (names it in errors).
  void setForwardNode(std::string name) { forwardNode_ = std::move(name); }
  void addOutputTemplate(Tensor t) { outputMetas_.push_back(std::move(t)); }

  TensorList apply(const TensorList& gradOutputs, const std::vector<bool>& needed) override {
    if (released_)
      throw OpError("Trying to backward through the graph a second time (or directly access saved tensors after "
                    "they have already been freed): " + name() + " was already run without retain_graph");
    if (!formula_)
      throw OpError("the derivative for '" + op_ + "' is not implemented (" + name() +
                    (forwardNode_.empty() ? "" : " of %" + forwardNode_) + ", created at " + site.source +
                    "), so the backward cannot be formed");
    GradContext c(op_, args_, savedOutputs_, gradOutputs, needed, firstSlot_);
    (*formula_)(c);
    return c.takeResult();
  }

  TensorList saved() const {
    TensorList out;
    for (const Arg& a : args_) {
      if (auto* t = std::get_if<Tensor>(&a.v)) out.push_back(*t);
      else if (auto* l = std::get_if<TensorList>(&a.v)) out.insert(out.end(), l->begin(), l->end());
    }
    out.insert(out.end(), savedOutputs_.begin(), savedOutputs_.end());
    return out;
  }

  void releaseSaved() override {
    args_.clear();
    savedOutputs_.clear();
    released_ = true;
  }

 private:
  std::string op_;
  const Formula* formula_;
  std::vector<Arg> args_;
  TensorList savedOutputs_;
  std::vector<size_t> firstSlot_;
  std::string forwardNode_;
  bool released_ = false;
};

}  // namespace

TensorList savedTensorsOf(const GradNode& node) {
  if (auto* op = dynamic_cast<const OpGradNode*>(&node)) return op->saved();
  return {};
}

std::string backwardNodeName(std::string_view op) {
  // "aten.native_layer_norm.default" -> "NativeLayerNormBackward0"
  std::string_view base = op;
  if (auto dot = base.find('.'); dot != std::string_view::npos) base = base.substr(dot + 1);
  if (auto dot = base.find('.'); dot != std::string_view::npos) base = base.substr(0, dot);
  std::string out;
  bool upper = true;
  for (char ch : base) {
    if (ch == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = false;
  }
  return out + "Backward0";
}

bool anyRequiresGrad(const frontend::Args& args, const frontend::KwArgs& kwargs) {
  for (const auto& a : args)
    if (argRequiresGrad(a)) return true;
  for (const auto& [name, a] : kwargs)
    if (argRequiresGrad(a)) return true;
  return false;
}

Edge gradientEdge(const Tensor& t) {
  if (!requiresGrad(t)) return {};
  const auto& meta = t.autograd();
  if (meta->gradFn) return {meta->gradFn, meta->outputNr};
  if (auto acc = meta->accumulator.lock()) return {acc, 0};
  auto acc = std::make_shared<AccumulateGrad>(meta, t.detached());
  acc->site.source = meta->name;
  meta->accumulator = acc;
  return {acc, 0};
}

void recordOp(const OpDef& op, const frontend::Args& args, const frontend::KwArgs& kwargs,
              std::vector<Tensor>& outputs, const std::source_location& loc) {
  if (!GradMode::enabled() || !anyRequiresGrad(args, kwargs)) return;
  if (isNonDifferentiable(op.name)) return;
  std::vector<Arg> bound = bindToSchema(op.schema, args, kwargs);
  // One gradient slot per tensor argument (per element of a Tensor[]), in schema order.
  std::vector<size_t> firstSlot;
  std::vector<Edge> edges;
  for (const Arg& a : bound) {
    firstSlot.push_back(edges.size());
    if (std::holds_alternative<Tensor>(a.v)) edges.push_back({});
    else if (auto* l = std::get_if<TensorList>(&a.v)) edges.resize(edges.size() + l->size());
  }
  // Edges come from the arguments as given (with history), matched to their slots.
  {
    size_t pos = 0;
    auto edgeOf = [&](const Arg& a, size_t slot) {
      if (auto* t = std::get_if<Tensor>(&a.v)) edges[slot] = gradientEdge(*t);
      else if (auto* l = std::get_if<TensorList>(&a.v))
        for (size_t i = 0; i < l->size(); ++i) edges[slot + i] = gradientEdge((*l)[i]);
    };
    for (; pos < args.size() && pos < bound.size(); ++pos) edgeOf(args[pos], firstSlot[pos]);
    for (const auto& [name, a] : kwargs)
      for (size_t i = 0; i < op.schema.args.size(); ++i)
        if (op.schema.args[i].name == name) edgeOf(a, firstSlot[i]);
  }
  TensorList saved;
  for (const Tensor& t : outputs) saved.push_back(t.detached());
  auto node = std::make_shared<OpGradNode>(op.name, findDerivative(op.name), std::move(bound), saved, std::move(firstSlot));
  for (auto& e : edges) node->addEdge(std::move(e));
  node->site.op = op.name;
  node->site.source = frontend::sourceLine(loc);
  node->site.loc = loc;
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor& out = outputs[i];
    node->addOutputTemplate(saved[i]);
    if (!out.defined() || !isFloating(out.dtype())) continue;
    if (out.isTraced() && node->site.module.empty()) {
      const Graph& g = out.context()->builder().graph();
      const Node& n = g.node(out.node());
      node->site.module = n.provenance.module;
      // A multi-output op's outputs are getitems: name the op's own node.
      const auto* src = n.target == "getitem" && !n.args.empty() ? n.args[0].tryAs<NodeRef>() : nullptr;
      node->setForwardNode(src ? g.node(*src).name : n.name);
    }
    auto meta = std::make_shared<AutogradMeta>();
    meta->requiresGrad = true;
    meta->gradFn = node;
    meta->outputNr = static_cast<uint32_t>(i);
    out.setAutograd(std::move(meta));
  }
}

namespace {

// The tape as the frontend's GradRecorder: looks the op up only when something will be recorded.
class TapeRecorder final : public frontend::GradRecorder {
 public:
  void record(std::string_view op, const frontend::Args& args, const frontend::KwArgs& kwargs,
              std::vector<Tensor>& outputs, const std::source_location& loc) override {
    if (!GradMode::enabled() || !anyRequiresGrad(args, kwargs)) return;
    recordOp(*OpRegistry::global().find(op), args, kwargs, outputs, loc);
  }
};

}  // namespace

}  // namespace fathom::autograd

// Installed before main(). fathom_engine's consumers link with --undefined=fathom_autograd_tape
// (engine/CMakeLists.txt), so this file is in every program that runs ops, even one that never
// names autograd: parameters require grad, and their ops must record a tape either way.
extern "C" const bool fathom_autograd_tape;
const bool fathom_autograd_tape = [] {
  static fathom::autograd::TapeRecorder tape;
  fathom::frontend::setGradRecorder(&tape);
  return true;
}();
