// In-place variants, as make_fx records them from user code (`x.add_(y)`, ReLU(inplace=True),
// BatchNorm's num_batches_tracked += 1, dropout's div_): each is its functional op followed by a
// copy of the result into `self`, which is what ATen's in-place kernels compute. The rules ATen
// adds on top are checked: the result must keep self's shape ("output with shape [3, 1] doesn't
// match the broadcast shape [3, 4]") and its dtype must be castable to self's ("result type
// Float can't be cast to the desired output type Long").
//   aten.X_.overload(Tensor(a!) self, ...) -> Tensor(a!)      for every X tagged HasInplace
//   aten.copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
//   aten.fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)
//   aten.zero_(Tensor(a!) self) -> Tensor(a!)
#include "engine/core/Error.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

// ATen's canCast: no floating -> integral, no non-bool -> bool.
bool canCast(DType from, DType to) {
  if (isFloating(from) && isIntegral(to, true)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

std::string dtypeTitle(DType t) {  // "Float", "Long", as ATen's messages name them
  switch (t) {
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
    case DType::Float16: return "Half";
    case DType::BFloat16: return "BFloat16";
    case DType::Int64: return "Long";
    case DType::Int32: return "Int";
    case DType::Int16: return "Short";
    case DType::Int8: return "Char";
    case DType::UInt8: return "Byte";
    case DType::Bool: return "Bool";
  }
  return "?";
}

// ATen's assert_no_internal_overlap: a broadcast (stride 0) dimension would be written twice.
void checkNoInternalOverlap(const TensorMeta& self) {
  for (size_t d = 0; d < self.sizes.size(); ++d)
    FATHOM_CHECK(self.sizes[d].isSymbolic() || self.sizes[d].hint() <= 1 || self.strides[d].isSymbolic() || self.strides[d].hint() != 0,
                 "unsupported operation: more than one element of the written-to tensor refers to a single memory location. "
                 "Please clone() the tensor before performing the operation.");
}

void checkWritable(const TensorMeta& self, const TensorMeta& result) {
  checkNoInternalOverlap(self);
  bool same = self.dim() == result.dim();
  for (size_t d = 0; same && d < self.sizes.size(); ++d)
    if (!self.sizes[d].isSymbolic() && !result.sizes[d].isSymbolic()) same = self.sizes[d].hint() == result.sizes[d].hint();
  FATHOM_CHECK(same, "output with shape " + sizesStr(self.sizes) + " doesn't match the broadcast shape " + sizesStr(result.sizes));
  FATHOM_CHECK(canCast(result.dtype, self.dtype),
               "result type " + dtypeTitle(result.dtype) + " can't be cast to the desired output type " + dtypeTitle(self.dtype));
}

OpFn inplaceMeta(const OpDef* functional) {
  return [functional](const ValueList& args) -> ValueList {
    const ValueList out = functional->meta(args);
    checkWritable(metaArg(args, 0), out.at(0).as<TensorMeta>());
    return {metaArg(args, 0)};
  };
}

OpFn inplaceKernel(const OpDef* functional) {
  return [functional](const ValueList& args) -> ValueList {
    const ValueList out = functional->kernel(args);
    const Tensor& self = tensorArg(args, 0);
    const Tensor& result = out.at(0).as<Tensor>();
    checkWritable(self.meta(), result.meta());
    copyInto(self, result);
    return {self};
  };
}

// aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor  becomes
// aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
FunctionSchema inplaceSchema(FunctionSchema s) {
  FATHOM_CHECK(!s.args.empty() && s.args[0].type.kind == ArgKind::Tensor && s.returns.size() == 1,
               s.qualifiedName() + " has no tensor 'self' to write into");
  s.name += "_";
  s.args[0].alias = "a!";
  s.returns[0].alias = "a!";
  return s;
}

// copy_: src broadcasts to self (ATen's TensorIterator message when it does not).
void checkCopy(const TensorMeta& self, const TensorMeta& src) {
  TensorMeta broadcast = self;
  broadcast.sizes = broadcastShapes(self.sizes, src.sizes);
  broadcast.dtype = self.dtype;
  checkWritable(self, broadcast);
}

ValueList copyMeta(const ValueList& args) {
  checkCopy(metaArg(args, 0), metaArg(args, 1));
  return {metaArg(args, 0)};
}

ValueList copyKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  Tensor src = tensorArg(args, 1);
  checkCopy(self.meta(), src.meta());
  if (src.sharesStorageWith(self)) {  // copyInto needs distinct storage: go through a copy
    TensorMeta m = src.meta();
    m.strides = contiguousStrides(m.sizes);
    m.storageOffset = 0;
    Tensor copy = allocateTensor(m);
    copyInto(copy, src);
    src = copy;
  }
  copyInto(self, src);
  return {self};
}

ValueList selfMeta(const ValueList& args) {
  checkNoInternalOverlap(metaArg(args, 0));
  return {metaArg(args, 0)};
}

ValueList fillKernel(const ValueList& args) {
  checkNoInternalOverlap(tensorArg(args, 0).meta());
  fillWith(tensorArg(args, 0), scalarArg(args.at(1)));
  return {tensorArg(args, 0)};
}

ValueList zeroKernel(const ValueList& args) {
  checkNoInternalOverlap(tensorArg(args, 0).meta());
  fillWith(tensorArg(args, 0), scalarArg(Value(SymInt(0))));
  return {tensorArg(args, 0)};
}

}  // namespace

void registerInplaceOps(OpRegistry& registry) {
  // The functional ops whose in-place form graphs use ("aten.add.Tensor" -> "aten.add_.Tensor"),
  // as OpTagTable.cpp tags them.
  for (const OpDef* functional : registry.all()) {
    if (!functional->tags.has(OpTag::HasInplace)) continue;
    (void)registry.add(inplaceSchema(functional->schema), inplaceMeta(functional), inplaceKernel(functional),
                       OpTags{static_cast<uint32_t>(OpTag::Inplace)});
  }
  (void)registry.add("aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", copyMeta, copyKernel);
  (void)registry.add("aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", selfMeta, fillKernel);
  (void)registry.add("aten::zero_(Tensor(a!) self) -> Tensor(a!)", selfMeta, zeroKernel);
}

}  // namespace fathom
