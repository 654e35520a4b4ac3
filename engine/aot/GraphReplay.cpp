#include "engine/aot/GraphReplay.h"

#include <variant>

#include "engine/frontend/OpCall.h"

namespace fathom::aot {
namespace {

using frontend::Arg;
using frontend::SymValue;
using frontend::Tensor;

// What a node produced: a tensor, a size, or the elements of a multi-output op.
using Produced = std::variant<std::monostate, Tensor, SymValue, std::vector<Tensor>>;

[[noreturn]] void failAt(const Node& n, const std::string& why) {
  throw frontend::FrontendError(invalidInput(why, "%" + n.name));
}

Arg argOf(const Value& v, const std::vector<Produced>& env, const Node& n) {
  if (auto* r = v.tryAs<NodeRef>()) {
    const Produced& p = env[static_cast<size_t>(r->index)];
    if (auto* t = std::get_if<Tensor>(&p)) return *t;
    if (auto* s = std::get_if<SymValue>(&p)) return *s;
    if (auto* l = std::get_if<std::vector<Tensor>>(&p)) return *l;
    failAt(n, "reads a node that produced nothing");
  }
  if (auto* l = v.tryAs<ValueList>()) {
    bool refs = false;
    for (const auto& e : *l) refs = refs || e.is<NodeRef>();
    if (!refs) return v;
    std::vector<Tensor> tensors;
    frontend::SymValues sizes;
    for (const auto& e : *l) {
      Arg a = argOf(e, env, n);
      if (auto* t = std::get_if<Tensor>(&a.v)) tensors.push_back(*t);
      else if (auto* s = std::get_if<SymValue>(&a.v)) sizes.push_back(*s);
      else if (auto* c = std::get_if<Value>(&a.v); c && c->isInt()) sizes.emplace_back(c->as<SymInt>().hint());
      else if (c && c->isNone()) tensors.emplace_back();
      else failAt(n, "has a list argument mixing kinds");
    }
    if (!tensors.empty() && !sizes.empty()) failAt(n, "has a list argument mixing tensors and sizes");
    return tensors.empty() ? Arg(std::move(sizes)) : Arg(std::move(tensors));
  }
  return v;
}

int64_t concrete(const SymValue& s, const Node& n) {
  if (s.isSymbolic()) failAt(n, "symbolic size arithmetic outside a trace");
  return s.hint();
}

}  // namespace

Result<std::vector<Tensor>> replayGraph(const Graph& graph, const std::vector<ReplayInput>& inputs) {
  return frontend::catchErrors([&] {
    std::vector<Produced> env(graph.size());
    size_t nextInput = 0;
    std::vector<Tensor> outputs;
    for (size_t i = 0; i < graph.size(); ++i) {
      const Node& n = graph.nodes()[i];
      if (n.kind == NodeKind::Placeholder) {
        if (nextInput >= inputs.size()) failAt(n, "more placeholders than inputs");
        const ReplayInput& in = inputs[nextInput++];
        if (auto* t = std::get_if<Tensor>(&in)) env[i] = *t;
        else env[i] = SymValue(std::get<int64_t>(in));
        continue;
      }
      if (n.kind == NodeKind::Output) {
        for (const auto& v : n.args.at(0).as<ValueList>()) {
          Arg a = argOf(v, env, n);
          auto* t = std::get_if<Tensor>(&a.v);
          outputs.push_back(t ? *t : Tensor{});
        }
        break;
      }
      if (n.target == "getitem") {
        const auto* list = std::get_if<std::vector<Tensor>>(&env[static_cast<size_t>(n.args.at(0).as<NodeRef>().index)]);
        const int64_t k = n.args.at(1).as<SymInt>().hint();
        if (!list || k < 0 || static_cast<size_t>(k) >= list->size()) failAt(n, "getitem of something that is not a tuple");
        env[i] = (*list)[static_cast<size_t>(k)];
        continue;
      }
      if (n.target == "aten.sym_size.default") {
        Arg t = argOf(n.args.at(0), env, n);
        env[i] = std::get<Tensor>(t.v).size(n.args.at(1).as<SymInt>().hint());
        continue;
      }
      if (n.target.rfind("operator.", 0) == 0) {
        auto side = [&](const Value& v) {
          Arg a = argOf(v, env, n);
          if (auto* s = std::get_if<SymValue>(&a.v)) return concrete(*s, n);
          return std::get<Value>(a.v).as<SymInt>().hint();
        };
        const int64_t a = side(n.args.at(0)), b = side(n.args.at(1));
        int64_t r = 0;
        if (n.target == "operator.add") r = a + b;
        else if (n.target == "operator.sub") r = a - b;
        else if (n.target == "operator.mul") r = a * b;
        else if (n.target == "operator.floordiv") {
          if (b == 0) failAt(n, "integer division by zero");
          r = a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
        } else failAt(n, "unknown size operator " + n.target);
        env[i] = SymValue(r);
        continue;
      }
      frontend::Args args;
      for (const auto& a : n.args) args.push_back(argOf(a, env, n));
      frontend::KwArgs kwargs;
      for (const auto& [k, a] : n.kwargs) kwargs.emplace_back(k, argOf(a, env, n));
      std::vector<Tensor> outs;
      try {
        outs = frontend::callOp(n.target, std::move(args), std::move(kwargs));
      } catch (const frontend::FrontendError& e) {
        throw frontend::FrontendError(Error{e.error().code, e.error().message, "%" + n.name});
      }
      if (n.val.is<ValueList>()) env[i] = std::move(outs);
      else if (!outs.empty()) env[i] = outs[0];
    }
    return outputs;
  });
}

}  // namespace fathom::aot
