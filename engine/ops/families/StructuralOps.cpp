// Ops that move values around without computing: getitem picks element `index` of a
// multi-output op's result, as Python's operator.getitem does in FX graphs.
#include "engine/core/Error.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {
ValueList getitem(const ValueList& args) {
  FATHOM_CHECK(args[0].is<ValueList>(), "getitem expects the result of a multi-output op but got ", args[0].kindName());
  const auto& items = args[0].as<ValueList>();
  const int64_t size = static_cast<int64_t>(items.size());
  int64_t index = args[1].as<SymInt>().hint();
  FATHOM_CHECK(index >= -size && index < size, "getitem index ", index, " out of range for ", size, " outputs");
  return {items[static_cast<size_t>(index < 0 ? index + size : index)]};
}
}  // namespace

void registerStructuralOps(OpRegistry& registry) {
  (void)registry.add("getitem(Any self, int index) -> Any", getitem, getitem);
}

}  // namespace fathom
