#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"
namespace fathom {
void registerFactoryOps(OpRegistry& registry) { (void)registry; }  // TODO(ops helper)
}  // namespace fathom
