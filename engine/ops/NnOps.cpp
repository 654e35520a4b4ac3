// convolution, batch norm, pooling, nll_loss, dropout, bernoulli_.
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {

void registerNnOps(OpRegistry& registry) { (void)registry; }

}  // namespace fathom
