#include "engine/interp/Interpreter.h"

#include "engine/graph/GraphPrinter.h"

#include <functional>

namespace fathom {

Interpreter::Interpreter(const Graph& graph, InterpreterOptions options)
    : graph_(graph), options_(options) {}

Status Interpreter::start(ValueList inputs) {
  const auto placeholders = graph_.placeholders();
  if (inputs.size() != placeholders.size())
    return invalidInput("the graph takes " + std::to_string(placeholders.size()) + " inputs but " +
                        std::to_string(inputs.size()) + " were given");
  inputs_ = std::move(inputs);
  env_.assign(graph_.size(), Value{});
  outputs_.clear();
  opaqueRun_.clear();
  cursor_ = 0;
  nextInput_ = 0;
  freeAfter_.assign(graph_.size(), {});
  if (!options_.keepIntermediates) {
    std::vector<int32_t> lastUse(graph_.size(), -1);
    const auto& nodes = graph_.nodes();
    for (size_t i = 0; i < nodes.size(); ++i)
      forEachNodeRef(nodes[i], [&](NodeRef r) { lastUse[r.index] = static_cast<int32_t>(i); });
    for (size_t i = 0; i < nodes.size(); ++i)
      if (lastUse[i] >= 0) freeAfter_[lastUse[i]].push_back(static_cast<int32_t>(i));
  }
  return {};
}

Result<ValueList> Interpreter::run(ValueList inputs) {
  FATHOM_TRY(start(std::move(inputs)));
  while (!done()) FATHOM_TRY(step());
  return outputs_;
}

Status Interpreter::step() {
  if (done()) return invalidInput("the graph has finished running");
  const Node& node = graph_.nodes()[cursor_];
  auto result = runNode(node);
  if (!result.ok()) {
    Error e = std::move(result.error());
    if (e.where.empty()) e.where = "%" + node.name;
    const std::string context = node.kind == NodeKind::Call ? " = " + formatCall(graph_, node) : "";
    e.message += "; while executing %" + node.name + context;
    return e;
  }
  env_[cursor_] = std::move(*result);
  freeDeadValues(cursor_);
  ++cursor_;
  return {};
}

void Interpreter::freeDeadValues(size_t executed) {
  for (int32_t dead : freeAfter_[executed]) env_[dead] = Value{};
}

Result<Value> Interpreter::runNode(const Node& node) {
  switch (node.kind) {
    case NodeKind::Placeholder:
      return placeholder(node, nextInput_++);
    case NodeKind::Call: {
      if (!node.op && node.opaque) {
        opaqueRun_.push_back(node.name);
        return opaqueValue(node);
      }
      if (!node.op) return invalidInput("unknown op '" + node.target + "'");
      auto bound = bindArguments(node.op->schema, node.args, node.kwargs);
      FATHOM_TRY(bound);
      for (auto& a : *bound) a = resolve(a);
      return callOp(node, *bound);
    }
    case NodeKind::Output:
      return output(node);
  }
  return internalError("unknown node kind");
}

Result<Value> Interpreter::placeholder(const Node& node, size_t inputIndex) {
  return inputs_[inputIndex];
}

Result<Value> Interpreter::callOp(const Node& node, const ValueList& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string why;
    if (!valueFitsType(args[i], node.op->schema.args[i].type, &why))
      return invalidInput(node.op->name + " argument '" + node.op->schema.args[i].name + "': " + why);
  }
  auto out = callKernel(*node.op, args);
  FATHOM_TRY(out);
  if (out->size() == 1) return std::move((*out)[0]);
  return Value(std::move(*out));
}

Result<Value> Interpreter::opaqueValue(const Node& node) {
  std::function<Result<Value>(const Value&)> make = [&](const Value& recorded) -> Result<Value> {
    if (auto* m = recorded.tryAs<TensorMeta>()) {
      TensorMeta concrete = *m;
      auto bind = [&](SymInt& s) -> Status {
        auto v = concreteSize(s);
        if (!v) return invalidInput("its recorded size " + s.str() + " has no value here");
        s = SymInt(*v);
        return {};
      };
      for (auto& s : concrete.sizes) FATHOM_TRY(bind(s));
      for (auto& s : concrete.strides) FATHOM_TRY(bind(s));
      FATHOM_TRY(bind(concrete.storageOffset));
      auto t = Tensor::fromMeta(concrete);  // zero-filled
      FATHOM_TRY(t);
      return Value(std::move(*t));
    }
    if (auto* l = recorded.tryAs<ValueList>()) {
      ValueList out;
      for (const auto& e : *l) {
        auto v = make(e);
        FATHOM_TRY(v);
        out.push_back(std::move(*v));
      }
      return Value(std::move(out));
    }
    if (recorded.isInt()) {
      auto v = concreteSize(recorded.as<SymInt>());
      if (!v) return invalidInput("its recorded value " + recorded.as<SymInt>().str() + " has no value here");
      return Value(SymInt(*v));
    }
    return recorded;  // None, a bool, a number: the recorded value itself
  };
  if (node.val.isNone())
    return invalidInput("op '" + node.target + "' is unknown to this build (kept as an opaque node) and records no value to stand in for it");
  auto v = make(node.val);
  if (!v.ok()) return invalidInput("opaque op '" + node.target + "': " + v.error().message);
  return v;
}

Result<Value> Interpreter::output(const Node& node) {
  Value v = resolve(node.args.at(0));
  if (auto* l = v.tryAs<ValueList>()) outputs_ = *l;
  else outputs_ = {v};
  return v;
}

Value Interpreter::resolve(const Value& arg) const {
  if (auto* r = arg.tryAs<NodeRef>()) return env_[static_cast<size_t>(r->index)];
  if (auto* l = arg.tryAs<ValueList>()) {
    ValueList out;
    out.reserve(l->size());
    for (const auto& e : *l) out.push_back(resolve(e));
    return out;
  }
  return arg;
}

}  // namespace fathom
