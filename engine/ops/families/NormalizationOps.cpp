// Normalization ops: softmax and log_softmax (SoftmaxOps.cpp), layer_norm (LayerNormOps.cpp),
// group_norm (GroupNormOps.cpp), each with its backward.
#include "engine/ops/families/NormalizationFamilies.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {

void registerNormalizationOps(OpRegistry& registry) {
  registerSoftmaxOps(registry);
  registerLayerNormOps(registry);
  registerGroupNormOps(registry);
}

}  // namespace fathom
