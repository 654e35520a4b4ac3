// The one list of op families. Adding an op: its schema, meta function and CPU kernel go in the
// family's file, a test case in tests/engine/ops/, and nothing else changes here unless it is a
// new family.
#include "engine/ops/OpRegistry.h"
#include "engine/ops/OpFamilies.h"

namespace fathom {

void registerBuiltinOps(OpRegistry& registry) {
  registerStructuralOps(registry);   // getitem
  registerSymIntOps(registry);       // sym_size, sym_stride, sym_numel, operator.add / sub / mul / floordiv / mod / neg
  registerPointwiseOps(registry);    // add, sub, mul, div, neg, relu, threshold_backward, ...
  registerReductionOps(registry);    // sum, mean, amax, max.dim, var, argmax, cumsum
  registerMatmulOps(registry);       // mm, addmm, bmm, baddbmm
  registerViewOps(registry);         // view, t, transpose, permute, expand, unsqueeze, as_strided, ...
  registerFactoryOps(registry);      // clone, _to_copy, zeros_like, full, zeros, ones, arange, ...
  registerMathOps(registry);         // rsub, abs, log, pow, gelu, clamp, where, eq, masked_fill, tril, ...
  registerNormalizationOps(registry);  // _softmax, _log_softmax, native_layer_norm (+ backward)
  registerShapeOps(registry);        // reshape, split, flip, cat, stack
  registerNnOps(registry);           // convolution, native_batch_norm, max_pool2d, nll_loss, dropout, ...
  registerIndexingOps(registry);     // gather, index_select, embedding, nll_loss (+ backward)
  registerGradientOps(registry);     // slice_backward, select_backward, native_dropout_backward
  registerRandomFactories(registry);  // rand, randn, randperm, rand_like, randn_like
  registerInplaceOps(registry);      // add_, mul_, relu_, hardtanh_, ... copy_, fill_, zero_ (last: they wrap the above)
}

}  // namespace fathom
