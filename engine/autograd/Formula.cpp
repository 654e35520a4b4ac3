#include "engine/autograd/Formula.h"

#include <algorithm>
#include <mutex>

#include "engine/autograd/Derivatives.h"
#include "engine/core/StringHash.h"

namespace fathom::autograd {
namespace {

[[noreturn]] void badArgument(std::string_view op, size_t pos, const char* want) {
  throw OpError("derivative of " + std::string(op) + ": argument " + std::to_string(pos) + " is not " + want,
                ErrorCode::Internal);
}

struct Registry {
  StringMap<Formula> formulas;
  StringMap<bool> nonDifferentiable;
};

}  // namespace

GradContext::GradContext(std::string_view op, const std::vector<Arg>& args, const TensorList& outputs,
                         const TensorList& grads, const std::vector<bool>& needed,
                         const std::vector<size_t>& firstSlot)
    : op_(op), args_(args), outputs_(outputs), grads_(grads), needed_(needed), firstSlot_(firstSlot),
      result_(needed.size()) {}

const Tensor& GradContext::tensor(size_t pos) const {
  static const Tensor kUndefined;
  const auto& v = args_.at(pos).v;
  if (auto* t = std::get_if<Tensor>(&v)) return *t;
  if (auto* c = std::get_if<Value>(&v); c && c->isNone()) return kUndefined;
  badArgument(op_, pos, "a tensor");
}

const TensorList& GradContext::tensors(size_t pos) const {
  if (auto* l = std::get_if<TensorList>(&args_.at(pos).v)) return *l;
  badArgument(op_, pos, "a tensor list");
}

SymValue GradContext::symInt(size_t pos) const {
  const auto& v = args_.at(pos).v;
  if (auto* s = std::get_if<SymValue>(&v)) return *s;
  if (auto* c = std::get_if<Value>(&v); c && c->isInt()) return SymValue(c->as<SymInt>().hint());
  badArgument(op_, pos, "an int");
}

SymValues GradContext::symList(size_t pos) const {
  const auto& v = args_.at(pos).v;
  if (auto* l = std::get_if<SymValues>(&v)) return *l;
  if (auto* c = std::get_if<Value>(&v); c && c->is<ValueList>()) {
    SymValues out;
    for (const auto& e : c->as<ValueList>()) {
      if (!e.isInt()) badArgument(op_, pos, "an int list");
      out.emplace_back(e.as<SymInt>().hint());
    }
    return out;
  }
  if (auto* s = std::get_if<SymValue>(&v)) return {*s};
  badArgument(op_, pos, "an int list");
}

int64_t GradContext::integer(size_t pos) const {
  const auto& v = args_.at(pos).v;
  if (auto* c = std::get_if<Value>(&v)) {
    if (c->isInt()) return c->as<SymInt>().hint();
    if (c->is<bool>()) return c->as<bool>() ? 1 : 0;
  }
  if (auto* s = std::get_if<SymValue>(&v); s && !s->isSymbolic()) return s->hint();
  badArgument(op_, pos, "a concrete int");
}

IntList GradContext::intList(size_t pos) const {
  const auto& v = args_.at(pos).v;
  if (auto* c = std::get_if<Value>(&v)) {
    if (c->isInt()) return {c->as<SymInt>().hint()};
    try {
      return toIntList(*c);
    } catch (const OpError&) {
    }
  }
  badArgument(op_, pos, "an int list");
}

double GradContext::number(size_t pos) const {
  const auto& v = args_.at(pos).v;
  if (auto* c = std::get_if<Value>(&v); c && c->isNumber()) return c->toDouble();
  if (auto* s = std::get_if<SymValue>(&v); s && !s->isSymbolic()) return static_cast<double>(s->hint());
  badArgument(op_, pos, "a number");
}

bool GradContext::flag(size_t pos) const {
  const auto& v = args_.at(pos).v;
  if (auto* c = std::get_if<Value>(&v)) {
    if (c->is<bool>()) return c->as<bool>();
    if (c->isInt()) return c->as<SymInt>().hint() != 0;
  }
  badArgument(op_, pos, "a bool");
}

bool GradContext::isNone(size_t pos) const {
  const auto& v = args_.at(pos).v;
  if (auto* c = std::get_if<Value>(&v)) return c->isNone();
  if (auto* t = std::get_if<Tensor>(&v)) return !t->defined();
  return false;
}

std::string GradContext::string(size_t pos) const {
  const auto& v = args_.at(pos).v;
  if (auto* c = std::get_if<Value>(&v); c && c->is<std::string>()) return c->as<std::string>();
  badArgument(op_, pos, "a string");
}

bool GradContext::needs(size_t pos) const { return needsElement(pos, 0); }

bool GradContext::needsElement(size_t pos, size_t element) const {
  if (pos >= firstSlot_.size()) return false;
  const size_t slot = firstSlot_[pos] + element;
  const size_t end = pos + 1 < firstSlot_.size() ? firstSlot_[pos + 1] : needed_.size();
  return slot < end && needed_[slot];
}

bool GradContext::needsAny() const { return std::find(needed_.begin(), needed_.end(), true) != needed_.end(); }

void GradContext::set(size_t pos, Tensor grad) { setElement(pos, 0, std::move(grad)); }

void GradContext::setElement(size_t pos, size_t element, Tensor grad) {
  if (!needsElement(pos, element)) return;
  result_[firstSlot_[pos] + element] = std::move(grad);
}

namespace {
Registry& rawRegistry() {
  static Registry r;
  return r;
}
Registry& ready() {
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinDerivatives(); });
  return rawRegistry();
}
}  // namespace

const Formula* findDerivative(std::string_view op) {
  auto& r = ready();
  auto it = r.formulas.find(op);
  return it == r.formulas.end() ? nullptr : &it->second;
}

bool isNonDifferentiable(std::string_view op) {
  auto& r = ready();
  return r.nonDifferentiable.find(op) != r.nonDifferentiable.end();
}

std::vector<std::string> differentiableOps() {
  std::vector<std::string> out;
  for (const auto& [name, f] : ready().formulas) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

void registerDerivative(std::string op, Formula formula) { rawRegistry().formulas[std::move(op)] = std::move(formula); }
void registerNonDifferentiable(std::string op) { rawRegistry().nonDifferentiable[std::move(op)] = true; }

}  // namespace fathom::autograd
