// Factory frontend ops (no tensor arguments): inside a trace they record into the current one,
// with the keyword arguments make_fx writes for torch.full(..., dtype=d) on the CPU.
#include "engine/frontend/OpCall.h"
#include "engine/frontend/Functional.h"

namespace fathom::frontend {
namespace {

KwArgs factoryOptions(DType dtype) {
  return {{"dtype", dtype}, {"device", Value(Device{"cpu"})}, {"pin_memory", false}};
}

}  // namespace

Tensor full(const SymValues& sizes, double value, DType dtype, Loc loc) {
  return callOp1("aten.full.default", {sizes, value}, factoryOptions(dtype), loc);
}

Tensor ones(const SymValues& sizes, DType dtype, Loc loc) {
  return callOp1("aten.ones.default", {sizes}, factoryOptions(dtype), loc);
}

Tensor arange(const SymValue& start, const SymValue& end, DType dtype, Loc loc) {
  return callOp1("aten.arange.start", {start, end}, factoryOptions(dtype), loc);
}

}  // namespace fathom::frontend
