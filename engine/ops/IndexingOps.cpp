// gather, index_select, embedding and embedding_dense_backward, nll_loss_forward/backward.
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {

void registerIndexingOps(OpRegistry& registry) { (void)registry; }

}  // namespace fathom
