// Registration functions, one per op family (see OpTable.cpp for the list).
#pragma once

namespace fathom {
class OpRegistry;
void registerStructuralOps(OpRegistry& registry);
void registerSymIntOps(OpRegistry& registry);
void registerPointwiseOps(OpRegistry& registry);
void registerReductionOps(OpRegistry& registry);
void registerMatmulOps(OpRegistry& registry);
void registerViewOps(OpRegistry& registry);
void registerFactoryOps(OpRegistry& registry);
void registerMathOps(OpRegistry& registry);
void registerNormalizationOps(OpRegistry& registry);
void registerShapeOps(OpRegistry& registry);
void registerNnOps(OpRegistry& registry);
void registerIndexingOps(OpRegistry& registry);
void registerGradientOps(OpRegistry& registry);
void registerRandomFactories(OpRegistry& registry);
void registerInplaceOps(OpRegistry& registry);  // last: derived from the functional ops
}  // namespace fathom
