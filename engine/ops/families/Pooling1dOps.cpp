// avg_pool1d, as 1.13 composes it: self.unsqueeze(-2), avg_pool2d with kernel (1, k), stride
// (1, s) and padding (0, p), then squeeze(-2). The meta function and the kernel run exactly those
// registered ops (their metas, or their kernels), so the result's layout is avg_pool2d's with the
// unit dim squeezed away (a view of avg_pool2d's fresh result, channels-last included).
#include <string>

#include "engine/core/Error.h"
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// check1d: an int[1] argument holds exactly one int.
int64_t one(const Value& v, const char* name) {
  const IntList l = toIntList(v);
  FATHOM_CHECK(l.size() == 1, "avg_pool1d() argument '", name, "' should contain one int (got ", l.size(), ")");
  return l[0];
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
  const int64_t rank = meta ? metaArg(args, 0).dim() : tensorArg(args, 0).dim();
  FATHOM_CHECK(rank == 2 || rank == 3, "Expected 2 to 3 dimensions, but got ", rank,
               "-dimensional tensor for argument #1 'self' (while checking arguments for avg_pool1d)");
  const int64_t k = one(args.at(1), "kernel_size");
  const bool noStride = toIntList(args.at(2)).empty();
  const int64_t s = noStride ? k : one(args.at(2), "stride"), p = one(args.at(3), "padding");
  const Value x = first(call("aten.unsqueeze.default", {args.at(0), Value(int64_t{-2})}, meta));
  auto ints = [](int64_t a, int64_t b) { return Value(ValueList{Value(a), Value(b)}); };
  const Value pooled =
      first(call("aten.avg_pool2d.default", {x, ints(1, k), ints(1, s), ints(0, p), args.at(4), args.at(5), Value(None{})}, meta));
  return {first(call("aten.squeeze.dim", {pooled, Value(int64_t{-2})}, meta))};
}

}  // namespace

void registerPooling1dOps(OpRegistry& registry) {
  (void)registry.add(
      "aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], bool ceil_mode=False, "
      "bool count_include_pad=True) -> Tensor",
      [](const ValueList& args) { return avgPool1d(args, true); }, [](const ValueList& args) { return avgPool1d(args, false); });
}

}  // namespace fathom
