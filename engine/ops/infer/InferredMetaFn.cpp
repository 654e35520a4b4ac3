// The meta function of an inferred rule (InferMeta.h: asMetaFn): the rule's assumptions checked
// on the call (decisions with stage infer-meta), then the rule applied - or, for a specialized
// meta, every symbolic size pinned to its hint and the kernel run on inputs of that layout.
#include <memory>

#include "engine/core/Error.h"
#include "engine/ops/infer/InferMeta.h"
#include "engine/ops/infer/SamplePlan.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::infer {
namespace {

// A constant argument as text, tensors left out: calls must match the example's.
std::string constantKey(const Value& v) {
  if (v.is<TensorMeta>() || v.is<Tensor>()) return "T";
  if (const auto* l = v.tryAs<ValueList>()) {
    std::string out = "[";
    for (const auto& x : *l) out += constantKey(x) + ",";
    return out + "]";
  }
  if (const auto* i = v.tryAs<SymInt>()) return i->str();
  if (const auto* d = v.tryAs<double>()) return std::to_string(*d);
  if (const auto* b = v.tryAs<bool>()) return *b ? "True" : "False";
  if (const auto* s = v.tryAs<std::string>()) return "'" + *s + "'";
  if (const auto* t = v.tryAs<DType>()) return std::string(dtypeName(*t));
  return v.kindName();
}

// While it lives, decisions recorded in the inputs' shape env carry stage infer-meta (the node,
// op and source line the tracer set stay).
class InferMetaStage {
 public:
  explicit InferMetaStage(const std::vector<TensorMeta>& inputs) {
    for (const auto& m : inputs)
      for (const auto& s : m.sizes)
        if (!env_) env_ = sym::shapeEnvOf(s);
    if (!env_) return;
    saved_ = env_->context();
    sym::GuardContext c = saved_;
    c.stage = kInferMetaStage;
    env_->setContext(std::move(c));
  }
  ~InferMetaStage() {
    if (env_) env_->setContext(std::move(saved_));
  }
  InferMetaStage(const InferMetaStage&) = delete;
  InferMetaStage& operator=(const InferMetaStage&) = delete;

 private:
  std::shared_ptr<sym::ShapeEnv> env_;
  sym::GuardContext saved_;
};

// The rule holds for calls like the example: its constants, ranks, fixed sizes and equal dims.
void checkAssumptions(const InferredMeta& m, const ValueList& args, const std::vector<TensorMeta>& in) {
  for (size_t a = 0; a < m.example.size(); ++a)
    FATHOM_CHECK(a < args.size() && constantKey(args[a]) == constantKey(m.example[a]), m.op,
                 ": its meta was inferred for argument ", a, " = ", constantKey(m.example[a]), ", this call has ",
                 a < args.size() ? constantKey(args[a]) : "none", ": infer it again for these arguments");
  std::vector<std::pair<std::string, const SymInt*>> first;  // per size variable: its first dim
  for (size_t i = 0; i < in.size(); ++i) {
    const auto& vars = m.variables[i];
    FATHOM_CHECK(in[i].dim() == static_cast<int64_t>(vars.size()), m.op, ": its meta was inferred for in", i,
                 " of rank ", vars.size(), ", this call's has rank ", in[i].dim());
    for (size_t d = 0; d < vars.size(); ++d) {
      const std::string where = "in" + std::to_string(i) + ".d" + std::to_string(d);
      const SymInt& size = in[i].sizes[d];
      if (vars[d] < 0) {
        const SymInt& fixed = m.exampleInputs[i].sizes[d];
        FATHOM_CHECK(symEq(size, fixed, "infer-meta: " + where + " was " + fixed.str() + " in every kernel run"), m.op,
                     ": its meta was inferred with ", where, " = ", fixed.str(), ", this call has ", size.str());
        continue;
      }
      const size_t v = static_cast<size_t>(vars[d]);
      if (v >= first.size()) first.resize(v + 1);
      if (!first[v].second) {
        first[v] = {where, &size};
        continue;
      }
      FATHOM_CHECK(symEq(size, *first[v].second, "infer-meta: " + where + " equals " + first[v].first + " in every kernel run"),
                   m.op, ": its meta was inferred with ", where, " equal to ", first[v].first, ", this call has ",
                   size.str(), " and ", first[v].second->str());
    }
  }
}

// Every symbolic size, stride and offset pinned to its hint (a guard each); the real inputs.
ValueList specializedArgs(const InferredMeta& m, const ValueList& args, const std::vector<TensorMeta>& in) {
  const std::string reason = "infer-meta: no rule fits " + m.op + ", its inputs are specialized";
  auto pin = [&](const SymInt& s) {
    FATHOM_CHECK(symEq(s, s.hint(), reason), "internal: a hint that is not its own value");
    return SymInt(s.hint());
  };
  ValueList real = args;
  for (size_t i = 0; i < in.size(); ++i) {
    TensorMeta t = in[i];
    for (auto& s : t.sizes) s = pin(s);
    for (auto& s : t.strides) s = pin(s);
    t.storageOffset = pin(t.storageOffset);
    auto tensor = Tensor::fromMeta(t);
    if (!tensor.ok()) throw OpError(m.op + ": " + tensor.error().message);
    const auto& slot = m.slots[i];
    (slot.item ? real[slot.arg].as<ValueList>()[*slot.item] : real[slot.arg]) = Value(std::move(*tensor));
  }
  return real;
}

// The meta function: a named type, so inferredMetaOf() can find its record behind an OpFn.
struct InferredMetaFn {
  std::shared_ptr<const InferredMeta> meta;

  ValueList operator()(const ValueList& args) const {
    const InferredMeta& m = *meta;
    auto in = inputMetas(args, m.slots);
    if (!in.ok()) throw OpError(m.op + ": " + in.error().message);
    InferMetaStage stage(*in);
    ValueList out;
    if (m.specialized) {
      auto real = m.kernel(specializedArgs(m, args, *in));
      for (const auto& v : real) out.push_back(v.is<Tensor>() ? Value(v.as<Tensor>().meta()) : v);
      return out;
    }
    checkAssumptions(m, args, *in);
    for (const auto& rule : m.outputs) out.push_back(rule.apply(*in));
    return out;
  }
};

}  // namespace

OpFn InferredMeta::asMetaFn() const { return InferredMetaFn{std::make_shared<const InferredMeta>(*this)}; }

const InferredMeta* inferredMetaOf(const OpFn& meta) {
  const auto* fn = meta.target<InferredMetaFn>();
  return fn ? fn->meta.get() : nullptr;
}

}  // namespace fathom::infer
