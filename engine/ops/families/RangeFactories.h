// The arange family (registered by registerFactoryOps): aten.arange.default(end),
// aten.arange.start(start, end), aten.arange.start_step(start, end, step).
#pragma once

namespace fathom {
class OpRegistry;
void registerRangeFactories(OpRegistry& registry);
}  // namespace fathom
