#include "engine/frontend/OpCall.h"

#include "engine/frontend/EagerRecorder.h"
#include "engine/frontend/GradRecorder.h"
#include "engine/frontend/TraceContext.h"
#include "engine/ops/OpRegistry.h"

namespace fathom::frontend {

std::string sourceLine(const std::source_location& loc) { return sourceLocationText(loc); }

void fail(std::string message, const std::source_location& loc) {
  throw FrontendError(invalidInput(std::move(message), sourceLine(loc)));
}

Arg::Arg(const IntList& l) {
  ValueList out;
  out.reserve(l.size());
  for (int64_t x : l) out.push_back(x);
  v = Value(std::move(out));
}

namespace {
thread_local const std::source_location* tSourceOverride = nullptr;
thread_local EagerRecorder* tRecorder = nullptr;
GradRecorder* gGradRecorder = nullptr;  // constant-initialized: set before main() by autograd
}  // namespace

void setGradRecorder(GradRecorder* recorder) { gGradRecorder = recorder; }

EagerRecorder* setEagerRecorder(EagerRecorder* recorder) {
  EagerRecorder* previous = tRecorder;
  tRecorder = recorder;
  return previous;
}

SourceOverride::SourceOverride(const std::source_location& loc) : loc_(loc), previous_(tSourceOverride) {
  tSourceOverride = &loc_;
}
SourceOverride::~SourceOverride() { tSourceOverride = previous_; }

namespace {

// Finds the trace the call belongs to (null: eager) and rejects mixing modes or traces.
class ModeFinder {
 public:
  explicit ModeFinder(const std::source_location& loc) : loc_(loc) {}

  void visit(const Arg& a) {
    if (auto* t = std::get_if<Tensor>(&a.v)) visit(*t);
    else if (auto* l = std::get_if<std::vector<Tensor>>(&a.v))
      for (const auto& t : *l) visit(t);
  }
  TraceContext* finish() const {
    if (traced_ && eager_)
      fail("a real tensor is used in a traced op: tensors a traced model uses must come from its inputs, "
           "parameters or ops",
           loc_);
    if (!traced_ && !eager_) return TraceContext::current();  // a factory op
    return traced_;
  }

 private:
  void visit(const Tensor& t) {
    if (!t.defined()) return;
    if (!t.isTraced()) {
      eager_ = true;
      return;
    }
    if (traced_ && traced_ != t.context()) fail("tensors of two different traces are used in one op", loc_);
    if (t.context() != TraceContext::current()) fail("a traced tensor is used after its trace ended", loc_);
    traced_ = t.context();
  }

  const std::source_location& loc_;
  TraceContext* traced_ = nullptr;
  bool eager_ = false;
};

// An argument as the Graph (traced) or the kernel (eager) takes it.
Value lower(const Arg& a, TraceContext* ctx) {
  struct Visitor {
    TraceContext* ctx;
    Value operator()(const Value& c) const { return c; }
    Value operator()(const Tensor& t) const {
      if (!t.defined()) return None{};
      return ctx ? Value(t.node()) : Value(t.real());
    }
    Value operator()(const SymValue& s) const { return ctx ? ctx->lower(s) : Value(s.sym()); }
    Value operator()(const SymValues& l) const {
      ValueList out;
      out.reserve(l.size());
      for (const auto& s : l) out.push_back((*this)(s));
      return out;
    }
    Value operator()(const std::vector<Tensor>& l) const {
      ValueList out;
      out.reserve(l.size());
      for (const auto& t : l) out.push_back((*this)(t));
      return out;
    }
  };
  return std::visit(Visitor{ctx}, a.v);
}

std::vector<Tensor> traced(TraceContext& ctx, std::string_view op, ValueList args, Kwargs kwargs,
                           const std::source_location& loc) {
  NodeRef r = ctx.call(op, std::move(args), std::move(kwargs), loc);
  const Value& v = ctx.builder().valueOf(r);
  if (!v.is<ValueList>()) return {Tensor::traced(&ctx, r)};
  const size_t n = v.as<ValueList>().size();
  std::vector<Tensor> outs;
  for (size_t i = 0; i < n; ++i) {
    NodeRef item = ctx.builder().getitem(r, static_cast<int64_t>(i), loc);
    if (const Error* e = ctx.builder().error()) throw FrontendError(*e);
    outs.push_back(Tensor::traced(&ctx, item));
  }
  return outs;
}

std::vector<Tensor> eager(std::string_view op, const ValueList& args, const Kwargs& kwargs,
                          const std::source_location& loc) {
  const OpDef* def = OpRegistry::global().find(op);
  if (!def) fail(OpRegistry::global().unknownOpMessage(op), loc);
  auto bound = bindArguments(def->schema, args, kwargs);
  if (!bound.ok()) throw FrontendError(bound.error().within(sourceLine(loc)));
  auto out = callKernel(*def, *bound);
  if (!out.ok()) {
    Error e = std::move(out.error());
    e.message = def->name + ": " + e.message;
    throw FrontendError(e.within(sourceLine(loc)));
  }
  // A single list return (split's Tensor[]) gives its elements, as the traced getitems do.
  const ValueList& values = out->size() == 1 && (*out)[0].is<ValueList>() ? (*out)[0].as<ValueList>() : *out;
  std::vector<Tensor> outs;
  for (const auto& v : values)
    outs.push_back(v.is<fathom::Tensor>() ? Tensor::eager(v.as<fathom::Tensor>()) : Tensor{});
  return outs;
}

}  // namespace

std::vector<Tensor> callOp(std::string_view op, Args args, KwArgs kwargs, std::source_location loc) {
  if (tSourceOverride) loc = *tSourceOverride;
  ModeFinder mode(loc);
  for (const auto& a : args) mode.visit(a);
  for (const auto& [name, a] : kwargs) mode.visit(a);
  TraceContext* ctx = mode.finish();
  // Lowered in argument order: sym_size nodes for the sizes come before the op's node, as in FX.
  ValueList lowered;
  lowered.reserve(args.size());
  for (const auto& a : args) lowered.push_back(lower(a, ctx));
  Kwargs loweredKw;
  for (const auto& [name, a] : kwargs) loweredKw.emplace_back(name, lower(a, ctx));
  std::vector<Tensor> outs = ctx ? traced(*ctx, op, std::move(lowered), std::move(loweredKw), loc)
                                 : eager(op, lowered, loweredKw, loc);
  if (tRecorder && !ctx) tRecorder->recordEager(op, lowered, loweredKw, outs);
  if (gGradRecorder) gGradRecorder->record(op, args, kwargs, outs, loc);
  return outs;
}

Tensor callOp1(std::string_view op, Args args, KwArgs kwargs, std::source_location loc) {
  auto outs = callOp(op, std::move(args), std::move(kwargs), loc);
  if (outs.empty()) fail(std::string(op) + " returned nothing", loc);
  return outs[0];
}

}  // namespace fathom::frontend
