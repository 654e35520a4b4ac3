// The parts of the NN op family (registerNnOps in NnOps.cpp calls each): one registration
// function per concept.
#pragma once

namespace fathom {
class OpRegistry;
void registerConvolutionOps(OpRegistry& registry);   // ConvolutionOps.cpp
void registerBatchNormOps(OpRegistry& registry);     // BatchNormOps.cpp
void registerPoolingOps(OpRegistry& registry);       // PoolingOps.cpp
void registerPooling3dOps(OpRegistry& registry);     // Pooling3dOps.cpp
void registerAdaptivePoolingOps(OpRegistry& registry);  // AdaptivePoolingOps.cpp
void registerDropoutOps(OpRegistry& registry);       // DropoutOps.cpp
void registerPaddingOps(OpRegistry& registry);       // PaddingOps.cpp
void registerUpsampleOps(OpRegistry& registry);      // UpsampleOps.cpp
void registerPooling1dOps(OpRegistry& registry);     // Pooling1dOps.cpp
void registerAttentionOps(OpRegistry& registry);     // AttentionOps.cpp (torch 2.x's CPU flash attention)
void registerFoldOps(OpRegistry& registry);          // FoldOps.cpp
void registerGridSamplerOps(OpRegistry& registry);   // GridSamplerOps.cpp
void registerDistanceOps(OpRegistry& registry);      // DistanceOps.cpp: cdist, pdist and their backward
void registerPreluOps(OpRegistry& registry);         // PreluOps.cpp: prelu (1.13) and _prelu_kernel (2.x), backwards
}  // namespace fathom
