// The indexing op family is registered by registerIndexingOps (IndexingOps.cpp: gather,
// index_select), which calls the registration functions of its other files declared here.
#pragma once

namespace fathom {
class OpRegistry;
void registerEmbeddingOps(OpRegistry& registry);  // EmbeddingOps.cpp
void registerNllLossOps(OpRegistry& registry);    // NllLossOps.cpp
void registerScatterOps(OpRegistry& registry);    // ScatterOps.cpp: scatter, scatter_add, select_scatter
}  // namespace fathom
