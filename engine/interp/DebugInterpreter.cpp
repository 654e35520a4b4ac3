#include "engine/interp/DebugInterpreter.h"

#include <cmath>

#include "engine/interp/RandomOps.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/infer/InferMeta.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom {
namespace {

std::string listText(const std::vector<int64_t>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

bool symbolic(const SymIntList& l) {
  for (const auto& s : l)
    if (s.isSymbolic()) return true;
  return false;
}

// Does the op's result alias an argument (a view, or an in-place op's self)?
bool returnsAlias(const OpDef& op) {
  for (const auto& r : op.schema.returns)
    if (!r.alias.empty()) return true;
  return false;
}



}  // namespace

DebugInterpreter::DebugInterpreter(const Graph& graph, CheckOptions options)
    : Interpreter(graph, InterpreterOptions{options.keepIntermediates}), options_(std::move(options)), bad_(graph.size(), 0) {}

std::optional<int64_t> DebugInterpreter::symbolValue(int32_t symbol) const { return binding_.value(symbol); }

std::optional<int64_t> DebugInterpreter::eval(const SymInt& s) const { return binding_.eval(s); }

std::string DebugInterpreter::describe(const SymIntList& sizes) const {
  std::string text = "[", values = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    text += (i ? ", " : "") + sizes[i].str();
    auto v = eval(sizes[i]);
    values += (i ? ", " : "") + (v ? std::to_string(*v) : std::string("?"));
  }
  text += "]";
  values += "]";
  return symbolic(sizes) ? text + " = " + values : values;
}

Result<Value> DebugInterpreter::placeholder(const Node& node, size_t inputIndex) {
  auto v = Interpreter::placeholder(node, inputIndex);
  FATHOM_TRY(v);
  binding_.bindFrom(node.val, *v);
  return v;
}

void DebugInterpreter::report(const Node& node, std::string field, std::string expected, std::string actual) {
  nodeBad_ = true;
  Mismatch m;
  m.graph = options_.graphName;
  m.node = node.name;
  m.op = node.kind == NodeKind::Placeholder ? "placeholder" : node.target;
  // An element of a multi-output op (PyTorch 1.13 records meta only there): name the op, which
  // is what computed the wrong layout - "aten.native_layer_norm.default[0]".
  if (node.target == "getitem" && node.args.size() == 2) {
    const auto* src = node.args[0].tryAs<NodeRef>();
    const auto* index = node.args[1].tryAs<SymInt>();
    if (src && index && graph().node(*src).kind == NodeKind::Call)
      m.op = graph().node(*src).target + "[" + index->str() + "]";
  }
  m.field = std::move(field);
  m.expected = std::move(expected);
  // A meta inferred from the kernel (ops/infer/) is an assumption: name the rule that failed.
  if (node.op)
    if (const auto* inferred = infer::inferredMetaOf(node.op->meta))
      m.expected += " (assumed by " + std::string(infer::kInferMetaStage) + ": " + inferred->ruleText() + ")";
  m.actual = std::move(actual);
  m.origin = !inputsBad_;
  m.source = node.provenance.source;
  m.module = node.provenance.module;
  mismatches_.push_back(std::move(m));
}

void DebugInterpreter::compareTensor(const Node& node, const TensorMeta& m, const Tensor& t, const std::string& where) {
  if (!t.defined()) return;
  if (m.dtype != t.dtype()) report(node, where + "dtype", std::string(dtypeName(m.dtype)), std::string(dtypeName(t.dtype())));
  if (m.dim() != t.dim()) {
    report(node, where + "sizes", describe(m.sizes), listText(t.sizes()));
    return;
  }
  std::vector<int64_t> sizes, strides;
  for (const auto& s : m.sizes) {
    auto v = eval(s);
    if (!v) {
      skipped_.push_back(node.name + " (a size over a symbol no input binds)");
      return;
    }
    sizes.push_back(*v);
  }
  if (sizes != t.sizes()) {
    report(node, where + "sizes", describe(m.sizes), listText(t.sizes()));
    return;  // strides of different sizes say nothing more
  }
  const bool empty = t.numel() == 0;
  bool stridesDiffer = false;
  for (size_t d = 0; d < m.strides.size(); ++d) {
    auto v = eval(m.strides[d]);
    strides.push_back(v.value_or(-1));
    const bool significant = options_.strictStrides || (!empty && sizes[d] != 1);
    if (significant && (!v || *v != t.stride(static_cast<int64_t>(d)))) stridesDiffer = true;
  }
  if (stridesDiffer) report(node, where + "strides", describe(m.strides), listText(t.strides()));
  auto offset = eval(m.storageOffset);
  if (!empty && (!offset || *offset != t.storageOffset()))
    report(node, where + "storage_offset",
           m.storageOffset.isSymbolic() ? m.storageOffset.str() + " = " + (offset ? std::to_string(*offset) : "?")
                                        : std::to_string(m.storageOffset.hint()),
           std::to_string(t.storageOffset()));
}

void DebugInterpreter::compare(const Node& node, const Value& recorded, const Value& real, const std::string& where) {
  if (auto* m = recorded.tryAs<TensorMeta>()) {
    if (auto* t = real.tryAs<Tensor>()) compareTensor(node, *m, *t, where);
    else if (!real.isNone()) report(node, where + "kind", "a tensor", real.kindName());
  } else if (auto* l = recorded.tryAs<ValueList>()) {
    auto* r = real.tryAs<ValueList>();
    if (!r || r->size() != l->size()) {
      report(node, where + "kind", std::to_string(l->size()) + " values", r ? std::to_string(r->size()) + " values" : real.kindName());
      return;
    }
    for (size_t i = 0; i < l->size(); ++i) compare(node, (*l)[i], (*r)[i], where + "[" + std::to_string(i) + "] ");
  } else if (recorded.isInt() && real.isInt()) {
    auto v = eval(recorded.as<SymInt>());
    const int64_t actual = real.as<SymInt>().hint();
    if (v && *v != actual)
      report(node, where + "value", recorded.as<SymInt>().str() + " = " + std::to_string(*v), std::to_string(actual));
  }
}

void DebugInterpreter::checkAlias(const Node& node, const Value& real) {
  auto* out = real.tryAs<Tensor>();
  if (!out || !out->defined() || out->numel() == 0 || !node.op || node.op->schema.ns != "aten" ||
      node.op->tags.has(OpTag::MayAlias))  // sometimes a view, sometimes not: aliasing says nothing
    return;
  const bool alias = returnsAlias(*node.op);
  const Node* first = nullptr;
  const Node* shared = nullptr;
  forEachNodeRef(node, [&](NodeRef r) {
    const Value& v = value(r);
    auto* t = v.tryAs<Tensor>();
    if (!t || !t->defined()) return;
    if (!first) first = &graph().node(r);
    if (!shared && t->sharesStorageWith(*out)) shared = &graph().node(r);
  });
  if (!first) return;
  if (alias && !shared) report(node, "alias", "a view of %" + first->name, "fresh storage");
  if (!alias && shared) report(node, "alias", "fresh storage", "a view of %" + shared->name);
}

void DebugInterpreter::checkValues(const Node& node, const Value& real) {
  auto* out = real.tryAs<Tensor>();
  if (!out || !out->defined() || !isFloating(out->dtype()) || node.kind != NodeKind::Call || !node.op) return;
  for (int64_t i = 0; i < out->numel(); ++i) {
    const double x = out->atLinear(i);
    if (std::isnan(x) || std::isinf(x)) {
      report(node, "values", "finite", std::string(std::isnan(x) ? "nan" : "inf") + " at element " + std::to_string(i));
      return;
    }
  }
  if (isRandomOp(node) || out->dtype() == DType::Float64) return;
  // The reference: this node's kernel again, on its inputs converted to float64.
  auto bound = bindArguments(node.op->schema, node.args, node.kwargs);
  if (!bound.ok()) return;
  ValueList args;
  for (const auto& a : *bound) {
    Value v = resolve(a);
    if (auto* t = v.tryAs<Tensor>(); t && t->defined() && isFloating(t->dtype())) {
      TensorMeta m = t->meta();
      m.dtype = DType::Float64;
      const IntList contiguous = contiguousStrides(t->sizes());
      m.strides.assign(contiguous.begin(), contiguous.end());
      m.storageOffset = 0;
      try {
        v = convertedTo(*t, m);
      } catch (const OpError&) {
        return;
      }
    }
    args.push_back(std::move(v));
  }
  auto ref = callKernel(*node.op, args);
  if (!ref.ok() || ref->size() != 1 || !(*ref)[0].is<Tensor>()) return;
  const Tensor& r = (*ref)[0].as<Tensor>();
  if (r.sizes() != out->sizes()) return;
  double scale = 0, worst = 0;
  int64_t at = -1;
  for (int64_t i = 0; i < r.numel(); ++i) scale = std::max(scale, std::abs(r.atLinear(i)));
  for (int64_t i = 0; i < r.numel(); ++i) {
    const double d = std::abs(out->atLinear(i) - r.atLinear(i));
    if (d > worst) worst = d, at = i;
  }
  if (worst > options_.rtol * scale + options_.atol) {
    char text[128];
    std::snprintf(text, sizeof text, "max |diff| %.3g at element %lld (largest |x| %.3g)", worst, static_cast<long long>(at), scale);
    report(node, "values", "the float64 rerun within rtol " + std::to_string(options_.rtol), text);
  }
}

Result<Value> DebugInterpreter::runNode(const Node& node) {
  const size_t index = static_cast<size_t>(&node - graph().nodes().data());
  inputsBad_ = false;
  forEachNodeRef(node, [&](NodeRef r) { inputsBad_ = inputsBad_ || bad_[static_cast<size_t>(r.index)]; });
  auto out = Interpreter::runNode(node);
  FATHOM_TRY(out);
  if (node.kind == NodeKind::Output) return out;
  nodeBad_ = false;
  if (node.opaque) {
    skipped_.push_back(node.name + " (opaque op " + node.target + ": its value is made from its recorded meta)");
  } else if (node.val.isNone()) {
    skipped_.push_back(node.name + " (no recorded meta)");
  } else {
    ++checked_;
    compare(node, node.val, *out, "");
    if (node.kind == NodeKind::Call) checkAlias(node, *out);
  }
  if (options_.checkValues) checkValues(node, *out);
  bad_[index] = nodeBad_;
  return out;
}

}  // namespace fathom
