// The normalization ops, one registration function per file; registerNormalizationOps
// (NormalizationOps.cpp) calls them all.
#pragma once

namespace fathom {
class OpRegistry;
void registerSoftmaxOps(OpRegistry& registry);    // SoftmaxOps.cpp: _softmax, _log_softmax (+ backward)
void registerLayerNormOps(OpRegistry& registry);  // LayerNormOps.cpp: native_layer_norm (+ backward)
void registerGroupNormOps(OpRegistry& registry);  // GroupNormOps.cpp: native_group_norm (+ backward)
}  // namespace fathom
