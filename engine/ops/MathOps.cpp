// rsub, abs, log, sqrt, rsqrt, pow, gelu, hardtanh, clamp, maximum, minimum, where, comparisons, logical_not, masked_fill, fill, tril, triu, activation backward helpers.
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {

void registerMathOps(OpRegistry& registry) { (void)registry; }

}  // namespace fathom
