// Size arithmetic as graph nodes, as FX records it when sizes are symbolic:
//   aten.sym_size.default(Tensor self, int dim) -> SymInt   (x.size(d); torch 2 names it .int)
//   aten.sym_stride.int, aten.sym_numel.default, aten.sym_storage_offset.default
//   operator.add / sub / mul / floordiv / mod(SymInt a, SymInt b) -> SymInt, operator.neg
//   torch.sym_sum(SymInt[] args) -> SymInt   (torch 2.x's n-ary sum, e.g. a cat's output size)
//   operator.truediv(SymInt a, SymInt b) -> float   (a size ratio: an upsampling's scale)
// Meta functions compute over SymInt (a symbolic size stays symbolic, its expression extended);
// kernels see concrete sizes and return plain ints. The operator ops live in the "operator"
// namespace because FX records Python's operator functions there, not ATen overloads.
#include "engine/core/Error.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

ValueList symSizeMeta(const ValueList& args) {
  const TensorMeta& self = metaArg(args, 0);
  return {self.sizes[static_cast<size_t>(wrapDim(intArg(args, 1), self.dim()))]};
}

ValueList symSizeKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  return {self.size(wrapDim(intArg(args, 1), self.dim()))};
}

ValueList symStrideMeta(const ValueList& args) {
  const TensorMeta& self = metaArg(args, 0);
  return {self.strides[static_cast<size_t>(wrapDim(intArg(args, 1), self.dim()))]};
}

ValueList symStrideKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  return {self.stride(wrapDim(intArg(args, 1), self.dim()))};
}

ValueList symNumelMeta(const ValueList& args) { return {metaArg(args, 0).numel()}; }
ValueList symNumelKernel(const ValueList& args) { return {tensorArg(args, 0).numel()}; }
ValueList symOffsetMeta(const ValueList& args) { return {metaArg(args, 0).storageOffset}; }
ValueList symOffsetKernel(const ValueList& args) { return {tensorArg(args, 0).storageOffset()}; }

ValueList negate(const ValueList& args) { return {SymInt(0) - symIntArg(args, 0)}; }

// a / b as Python divides two ints. Fathom has no symbolic floats: over symbols the meta answers
// the ratio of the hints. A float feeds only scalar arguments (mul.Tensor's other, a scale),
// which decide no layout; the kernel divides the sizes the run really has.
ValueList trueDivide(const ValueList& args) {
  const SymInt a = symIntArg(args, 0), b = symIntArg(args, 1);
  FATHOM_CHECK(b.hint() != 0, "division by zero");
  return {static_cast<double>(a.hint()) / static_cast<double>(b.hint())};
}

ValueList sum(const ValueList& args) {
  SymInt total(0);
  for (const SymInt& s : toSymIntList(args.at(0))) total = total + s;
  return {total};
}

// One binary operator: the same function serves meta (symbolic operands) and kernel (ints).
template <SymOp Op>
ValueList binary(const ValueList& args) {
  const SymInt a = symIntArg(args, 0), b = symIntArg(args, 1);
  if constexpr (Op == SymOp::FloorDiv || Op == SymOp::Mod) {
    if (!b.isSymbolic()) FATHOM_CHECK(b.hint() != 0, "integer division or modulo by zero");
  }
  return {SymInt::combine(Op, a, b)};
}

}  // namespace

void registerSymIntOps(OpRegistry& registry) {
  (void)registry.add("aten::sym_size(Tensor self, int dim) -> SymInt", symSizeMeta, symSizeKernel);
  (void)registry.add("aten::sym_size.int(Tensor self, int dim) -> SymInt", symSizeMeta, symSizeKernel);
  (void)registry.add("aten::sym_stride.int(Tensor self, int dim) -> SymInt", symStrideMeta, symStrideKernel);
  (void)registry.add("aten::sym_numel(Tensor self) -> SymInt", symNumelMeta, symNumelKernel);
  (void)registry.add("aten::sym_storage_offset(Tensor self) -> SymInt", symOffsetMeta, symOffsetKernel);
  (void)registry.add("operator::mod(SymInt a, SymInt b) -> SymInt", binary<SymOp::Mod>, binary<SymOp::Mod>);
  (void)registry.add("operator::neg(SymInt a) -> SymInt", negate, negate);
  (void)registry.add("torch::sym_sum(SymInt[] args) -> SymInt", sum, sum);
  (void)registry.add("operator::truediv(SymInt a, SymInt b) -> float", trueDivide, trueDivide);
  (void)registry.add("operator::add(SymInt a, SymInt b) -> SymInt", binary<SymOp::Add>, binary<SymOp::Add>);
  (void)registry.add("operator::sub(SymInt a, SymInt b) -> SymInt", binary<SymOp::Sub>, binary<SymOp::Sub>);
  (void)registry.add("operator::mul(SymInt a, SymInt b) -> SymInt", binary<SymOp::Mul>, binary<SymOp::Mul>);
  (void)registry.add("operator::floordiv(SymInt a, SymInt b) -> SymInt", binary<SymOp::FloorDiv>,
                     binary<SymOp::FloorDiv>);
}

}  // namespace fathom
