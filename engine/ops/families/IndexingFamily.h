// The indexing op family is registered by registerIndexingOps (IndexingOps.cpp: gather,
// index_select), which calls the registration functions of its other files declared here: ops
// that read or write elements at computed positions.
#pragma once

namespace fathom {
class OpRegistry;
void registerEmbeddingOps(OpRegistry& registry);  // EmbeddingOps.cpp
void registerEmbeddingBagOps(OpRegistry& registry);          // EmbeddingBagOps.cpp: _embedding_bag
void registerEmbeddingBagBackwardOps(OpRegistry& registry);  // EmbeddingBagBackwardOps.cpp: its backward ops
void registerNllLossOps(OpRegistry& registry);    // NllLossOps.cpp
void registerAdvancedIndexingOps(OpRegistry& registry);  // AdvancedIndexingOps.cpp: index.Tensor, index_put
void registerFunctionalizedOps(OpRegistry& registry);    // FunctionalizedOps.cpp: zero, fill.Tensor, lift_fresh_copy, *_scatter
void registerPadRollOps(OpRegistry& registry);           // PadRollOps.cpp: constant_pad_nd, roll
void registerScatterOps(OpRegistry& registry);    // ScatterOps.cpp: scatter, scatter_add, select_scatter
}  // namespace fathom
