// The NN op family: convolution, batch norm, pooling, dropout and bernoulli_, padding, upsampling,
// im2col / col2im, grid sampling, attention, pairwise distances, each registered from its own
// file (see NnFamilies.h).
#include "engine/ops/families/NnFamilies.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {

void registerNnOps(OpRegistry& registry) {
  registerConvolutionOps(registry);
  registerBatchNormOps(registry);
  registerPoolingOps(registry);
  registerPooling3dOps(registry);
  registerAdaptivePoolingOps(registry);
  registerDropoutOps(registry);
  registerPaddingOps(registry);
  registerUpsampleOps(registry);
  registerPooling1dOps(registry);
  registerAttentionOps(registry);
  registerFoldOps(registry);
  registerGridSamplerOps(registry);
  registerDistanceOps(registry);
  registerPreluOps(registry);
}

}  // namespace fathom
