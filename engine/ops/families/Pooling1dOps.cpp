// avg_pool1d and adaptive_avg_pool1d, as 1.13 composes them: self.unsqueeze(-2), then
// avg_pool2d with kernel (1, k), stride (1, s) and padding (0, p), or adaptive_avg_pool2d to
// (1, L) - which is a mean over the last two dims (keepdim) when L is 1, else
// _adaptive_avg_pool2d - then squeeze(-2). The meta function and the kernel run exactly those
// registered ops (their metas, or their kernels), so the result's layout is theirs with the unit
// dim squeezed away.
#include <string>

#include "engine/core/Error.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// check1d: an int[1] argument holds exactly one int.
int64_t one(const Value& v, const char* name, const char* op = "avg_pool1d") {
  const IntList l = toIntList(v);
  FATHOM_CHECK(l.size() == 1, op, "() argument '", name, "' should contain one int (got ", l.size(), ")");
  return l[0];
}

// checkDimRange(op, self, 2, 3).
void checkRank(const ValueList& args, bool meta, const char* op) {
  const int64_t rank = meta ? metaArg(args, 0).dim() : tensorArg(args, 0).dim();
  FATHOM_CHECK(rank == 2 || rank == 3, "Expected 2 to 3 dimensions, but got ", rank,
               "-dimensional tensor for argument #1 'self' (while checking arguments for ", op, ")");
}

Result<ValueList> call(const char* op, const ValueList& args, bool meta) {
  const OpDef* def = OpRegistry::global().find(op);
  FATHOM_CHECK(def != nullptr, "missing op ", op);
  return meta ? callMeta(*def, args) : callKernel(*def, args);
}

Value first(const Result<ValueList>& r) {
  if (!r.ok()) throwOpError(r.error().message);
  return (*r)[0];
}

// avg_pool1d(self, kernel_size, stride=[], padding=0, ceil_mode, count_include_pad): `args` hold
// tensors (meta) or TensorMetas.
ValueList avgPool1d(const ValueList& args, bool meta) {
  checkRank(args, meta, "avg_pool1d");
  const int64_t k = one(args.at(1), "kernel_size");
  const bool noStride = toIntList(args.at(2)).empty();
  const int64_t s = noStride ? k : one(args.at(2), "stride"), p = one(args.at(3), "padding");
  const Value x = first(call("aten.unsqueeze.default", {args.at(0), Value(int64_t{-2})}, meta));
  auto ints = [](int64_t a, int64_t b) { return Value(ValueList{Value(a), Value(b)}); };
  const Value pooled =
      first(call("aten.avg_pool2d.default", {x, ints(1, k), ints(1, s), ints(0, p), args.at(4), args.at(5), Value(None{})}, meta));
  return {first(call("aten.squeeze.dim", {pooled, Value(int64_t{-2})}, meta))};
}

// adaptive_avg_pool1d(self, output_size). A 1 x 1 mean of an input that suggests channels-last
// (a transposed batch does, once unsqueezed) gets 1.13's channels-last strides [c, 1, c, c].
ValueList adaptiveAvgPool1d(const ValueList& args, bool meta) {
  checkRank(args, meta, "adaptive_avg_pool1d");
  const int64_t size = one(args.at(1), "output_size", "adaptive_avg_pool1d");
  FATHOM_CHECK(size >= 0, "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {1, ",
               size, "}");
  const Value x = first(call("aten.unsqueeze.default", {args.at(0), Value(int64_t{-2})}, meta));
  auto list = [](std::initializer_list<Value> v) { return Value(ValueList(v)); };
  Value pooled;
  if (size != 1) {
    pooled = first(call("aten._adaptive_avg_pool2d.default", {x, list({Value(int64_t{1}), Value(size)})}, meta));
  } else {
    pooled = first(call("aten.mean.dim", {x, list({Value(int64_t{-1}), Value(int64_t{-2})}), Value(true), Value(None{})}, meta));
    const TensorMeta xm = meta ? x.as<TensorMeta>() : x.as<Tensor>().meta();
    if (suggestMemoryFormat(xm) == SuggestedFormat::ChannelsLast) {
      const SymInt n = xm.sizes[0], c = xm.sizes[1];
      pooled = first(call("aten.as_strided.default",
                          {pooled, list({n, c, SymInt(1), SymInt(1)}), list({c, SymInt(1), c, c}), Value(None{})}, meta));
    }
  }
  return {first(call("aten.squeeze.dim", {pooled, Value(int64_t{-2})}, meta))};
}

}  // namespace

void registerPooling1dOps(OpRegistry& registry) {
  (void)registry.add("aten::adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor",
                     [](const ValueList& args) { return adaptiveAvgPool1d(args, true); },
                     [](const ValueList& args) { return adaptiveAvgPool1d(args, false); });
  (void)registry.add(
      "aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], bool ceil_mode=False, "
      "bool count_include_pad=True) -> Tensor",
      [](const ValueList& args) { return avgPool1d(args, true); }, [](const ValueList& args) { return avgPool1d(args, false); });
}

}  // namespace fathom
