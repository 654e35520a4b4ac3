#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"
namespace fathom {
void registerReductionOps(OpRegistry& registry) { (void)registry; }  // TODO(ops helper)
}  // namespace fathom
