#include "engine/ops/OpRegistry.h"

#include <algorithm>

#include "engine/core/Error.h"

namespace fathom {

OpRegistry& OpRegistry::global() {
  static OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    registerBuiltinOps(*r);
    return r;
  }();
  return *registry;
}

Status OpRegistry::add(std::string_view schemaText, OpFn meta, OpFn kernel, OpTags tags) {
  auto schema = parseSchema(schemaText);
  if (!schema.ok()) return internalError("bad built-in schema: " + schema.error().str());
  return add(std::move(*schema), std::move(meta), std::move(kernel), tags);
}

Status OpRegistry::add(FunctionSchema schema, OpFn meta, OpFn kernel, OpTags tags) {
  auto def = std::make_unique<OpDef>();
  def->name = schema.qualifiedName();
  def->schema = std::move(schema);
  def->meta = std::move(meta);
  def->kernel = std::move(kernel);
  def->tags = tags.bits ? tags : builtinOpTags(def->name);
  const std::string name = def->name;
  if (!ops_.emplace(name, std::move(def)).second) return internalError("op registered twice: " + name);
  return {};
}

const OpDef* OpRegistry::find(std::string_view name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

namespace {
size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::vector<std::string> OpRegistry::suggest(std::string_view name, size_t n) const {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& [key, def] : ops_) scored.emplace_back(editDistance(name, key), key);
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  // Only names that are plausibly a typo: within a third of the length, and no more than one
  // edit worse than the best match (so a near-exact hit is not buried among loose ones).
  const size_t budget = std::max<size_t>(3, name.size() / 3);
  const size_t best = scored.empty() ? 0 : scored.front().first;
  for (const auto& [d, key] : scored) {
    if (out.size() == n || d > budget || d > best + 1) break;
    out.push_back(key);
  }
  return out;
}

std::string OpRegistry::unknownOpMessage(std::string_view name) const {
  std::string msg = "unknown op '" + std::string(name) + "'";
  auto near = suggest(name);
  if (!near.empty()) {
    msg += " (did you mean ";
    for (size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "") + near[i];
    msg += "?)";
  }
  return msg;
}

std::vector<const OpDef*> OpRegistry::all() const {
  std::vector<const OpDef*> out;
  for (const auto& [key, def] : ops_) out.push_back(def.get());
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->name < b->name; });
  return out;
}

OpFn OpRegistry::replaceMeta(std::string_view name, OpFn meta) {
  auto it = ops_.find(name);
  if (it == ops_.end()) return {};
  std::swap(it->second->meta, meta);
  return meta;
}

OpFn OpRegistry::replaceKernel(std::string_view name, OpFn kernel) {
  auto it = ops_.find(name);
  if (it == ops_.end()) return {};
  std::swap(it->second->kernel, kernel);
  return kernel;
}

namespace {

// PyTorch passes a Python number given for a Tensor argument (`aten.mul.Tensor(x, 2)`, as FX
// records `x * 2`) as a "wrapped number": a 0-dim tensor that type promotion ranks below every
// dimensioned tensor. A 0-dim tensor of the number's kind gives the same promotion - bool, int64,
// and for a float the default float32, or float64 when a tensor argument is float64 so the
// value keeps its precision where PyTorch's would.
bool hasWrappedNumbers(const OpDef& op, const ValueList& args) {
  for (size_t i = 0; i < args.size() && i < op.schema.args.size(); ++i) {
    const SchemaType& t = op.schema.args[i].type;
    if (t.kind == ArgKind::Tensor && !t.isList && args[i].isNumber()) return true;
  }
  return false;
}

ValueList wrapNumbers(const OpDef& op, const ValueList& args, bool meta) {
  bool float64 = false;
  for (const auto& a : args) {
    if (auto* t = a.tryAs<Tensor>(); t && t->defined()) float64 = float64 || t->dtype() == DType::Float64;
    if (auto* m = a.tryAs<TensorMeta>()) float64 = float64 || m->dtype == DType::Float64;
  }
  ValueList out = args;
  for (size_t i = 0; i < out.size() && i < op.schema.args.size(); ++i) {
    const SchemaType& t = op.schema.args[i].type;
    if (t.kind != ArgKind::Tensor || t.isList || !out[i].isNumber()) continue;
    const Value& v = out[i];
    const DType dtype = v.is<bool>() ? DType::Bool : v.is<SymInt>() ? DType::Int64 : float64 ? DType::Float64 : DType::Float32;
    if (meta) {
      TensorMeta m;
      m.dtype = dtype;
      out[i] = std::move(m);
      continue;
    }
    const double x = v.is<bool>() ? (v.as<bool>() ? 1.0 : 0.0) : v.is<SymInt>() ? static_cast<double>(v.as<SymInt>().hint()) : v.as<double>();
    auto scalar = Tensor::scalar(x, dtype);
    if (scalar.ok()) out[i] = std::move(*scalar);
  }
  return out;
}

Result<ValueList> invoke(const OpDef& op, const OpFn& fn, const ValueList& args, const char* what, bool meta) {
  if (!fn) return invalidInput(op.name + " has no " + what);
  try {
    if (hasWrappedNumbers(op, args)) return fn(wrapNumbers(op, args, meta));
    return fn(args);
  } catch (const OpError& e) {
    return Error{e.code(), e.what(), {}};
  } catch (const std::bad_alloc&) {
    return Error{ErrorCode::OutOfMemory, op.name + ": out of memory", {}};
  } catch (const std::exception& e) {
    return internalError(op.name + " " + what + " failed: " + e.what());
  }
}
}  // namespace

Result<ValueList> callMeta(const OpDef& op, const ValueList& args) {
  return invoke(op, op.meta, args, "meta function", true);
}

Result<ValueList> callKernel(const OpDef& op, const ValueList& args) {
  return invoke(op, op.kernel, args, "CPU kernel", false);
}

}  // namespace fathom
