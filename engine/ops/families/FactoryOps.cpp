// Factories and copies: clone, contiguous, _to_copy, copy, the *_like factories, the sized factories
// (empty, empty_strided, zeros, ones, full, scalar_tensor) and the new_* ones that take dtype from a tensor
// (new_zeros, new_ones, new_full, new_empty, new_empty_strided). The arange family lives in
// RangeFactories.cpp.
//
// Layouts follow memory_format (see MemoryLayout.h): preserve_format (the default of the copies
// and *_like) keeps a dense input's strides and gives any other input dense strides in its
// dimension order; contiguous_format and channels_last are what they say. Outputs never share
// storage with the input (except contiguous() of an already contiguous tensor, which returns
// it, and copy(self, src) of a src already like self, which returns src) and start at storage offset 0. Uninitialized results (empty*) hold zeros here: our storage
// is zero-filled.
#include "engine/core/Error.h"
#include "engine/ops/AtenVersion.h"
#include "engine/ops/layout/Broadcast.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/families/RangeFactories.h"

namespace fathom {
namespace {

using LayoutFn = TensorMeta (*)(const ValueList& margs);

// The layout and device arguments are accepted when they name what we have: strided, CPU.
void checkStridedCpu(const ValueList& margs, size_t layoutIndex) {
  const Value& device = margs.at(layoutIndex + 1);
  if (auto* d = device.tryAs<Device>()) FATHOM_CHECK(d->name == "cpu" || d->name == "meta", "unsupported device ", d->name);
  if (auto* s = device.tryAs<std::string>()) FATHOM_CHECK(*s == "cpu" || *s == "meta", "unsupported device ", *s);
}

SymIntList checkedSizes(const Value& v) {
  SymIntList sizes = toSymIntList(v);
  for (const auto& s : sizes)
    FATHOM_CHECK(!symLt(s, 0, "factory: negative size"), "Trying to create tensor with negative dimension ", s.str(),
                 ": ", sizesStr(sizes));
  return sizes;
}

TensorMeta freshTensor(SymIntList sizes, SymIntList strides, DType dtype) {
  TensorMeta out;
  out.dtype = dtype;
  out.sizes = std::move(sizes);
  out.strides = std::move(strides);
  return out;
}

// clone(self, *, memory_format)
TensorMeta cloneLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  return freshLike(self, self.dtype, likeStrides(self, optionalMemoryFormatArg(margs, 1)));
}

// contiguous(self, *, memory_format): self itself when already contiguous in that format.
TensorMeta contiguousLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const MemoryFormat format = optionalMemoryFormatArg(margs, 1).value_or(MemoryFormat::Contiguous);
  if (isContiguousIn(self, format)) return self;
  FATHOM_CHECK(format != MemoryFormat::Preserve, "preserve memory format is unsupported by the contiguous operator");
  return freshLike(self, self.dtype, likeStrides(self, format));
}

// _to_copy(self, *, dtype, layout, device, pin_memory, non_blocking, memory_format)
TensorMeta toCopyLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  checkStridedCpu(margs, 2);
  const DType dtype = optionalDTypeArg(margs, 1).value_or(self.dtype);
  return freshLike(self, dtype, likeStrides(self, optionalMemoryFormatArg(margs, 6)));
}

// prims.convert_element_type(a, dtype): torch 2.x's decompositions (T5's layer norm, mixed
// precision) cast with the prim; its meta keeps a's strides where a is dense and otherwise gives
// the elementwise output strides - _to_copy's preserve_format layout.
TensorMeta convertElementTypeLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  const std::optional<DType> dtype = optionalDTypeArg(margs, 1);
  FATHOM_CHECK(dtype.has_value(), "prims.convert_element_type needs a dtype");
  return freshLike(self, *dtype, likeStrides(self, std::nullopt));
}

// empty_like / zeros_like / ones_like(self, *, dtype, layout, device, pin_memory, memory_format)
TensorMeta likeLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  checkStridedCpu(margs, 2);
  const DType dtype = optionalDTypeArg(margs, 1).value_or(self.dtype);
  return freshLike(self, dtype, likeStrides(self, optionalMemoryFormatArg(margs, 5)));
}

// full_like(self, fill_value, *, dtype, layout, device, pin_memory, memory_format)
TensorMeta fullLikeLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  checkStridedCpu(margs, 3);
  const DType dtype = optionalDTypeArg(margs, 2).value_or(self.dtype);
  return freshLike(self, dtype, likeStrides(self, optionalMemoryFormatArg(margs, 6)));
}

// zeros / ones(size, *, dtype, layout, device, pin_memory): the default dtype is float32.
TensorMeta sizedLayout(const ValueList& margs) {
  SymIntList sizes = checkedSizes(margs.at(0));
  checkStridedCpu(margs, 2);
  SymIntList strides = contiguousStrides(sizes);
  return freshTensor(std::move(sizes), std::move(strides), optionalDTypeArg(margs, 1).value_or(DType::Float32));
}

// empty.memory_format(size, *, dtype, layout, device, pin_memory, memory_format)
TensorMeta emptyLayout(const ValueList& margs) {
  SymIntList sizes = checkedSizes(margs.at(0));
  checkStridedCpu(margs, 2);
  SymIntList strides = memoryFormatStrides(sizes, optionalMemoryFormatArg(margs, 5).value_or(MemoryFormat::Contiguous));
  return freshTensor(std::move(sizes), std::move(strides), optionalDTypeArg(margs, 1).value_or(DType::Float32));
}

// A tensor of these sizes and strides (empty_strided's and new_empty_strided's checks). A
// negative stride is refused with the message ATen's storage size computation gives it (which
// returns strides of its own for a negative stride on a size-1 dim: not followed here).
TensorMeta stridedTensor(const Value& sizeArg, const Value& strideArg, DType dtype) {
  SymIntList sizes = checkedSizes(sizeArg), strides = toSymIntList(strideArg);
  FATHOM_CHECK(sizes.size() == strides.size(), "dimensionality of sizes (", sizes.size(),
               ") must match dimensionality of strides (", strides.size(), ")");
  for (const auto& s : strides)
    FATHOM_CHECK(!symLt(s, 0, "empty_strided: negative stride"), "Storage size calculation overflowed with sizes=",
                 sizesStr(sizes), " and strides=", sizesStr(strides));
  return freshTensor(std::move(sizes), std::move(strides), dtype);
}

// empty_strided(size, stride, *, dtype, layout, device, pin_memory)
TensorMeta emptyStridedLayout(const ValueList& margs) {
  TensorMeta out = stridedTensor(margs.at(0), margs.at(1), optionalDTypeArg(margs, 2).value_or(DType::Float32));
  checkStridedCpu(margs, 3);
  return out;
}

// new_empty_strided(self, size, stride, *, dtype, layout, device, pin_memory): self's dtype
// (AOT backward graphs make gradient buffers with it, timm's GhostNet).
TensorMeta newEmptyStridedLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  TensorMeta out = stridedTensor(margs.at(1), margs.at(2), optionalDTypeArg(margs, 3).value_or(self.dtype));
  checkStridedCpu(margs, 4);
  return out;
}

// full(size, fill_value, *, dtype, layout, device, pin_memory): the dtype defaults to int64 for an
// int or bool fill value (1.13's infer_full_options counts bools as integers), else float32.
TensorMeta fullLayout(const ValueList& margs) {
  SymIntList sizes = checkedSizes(margs.at(0));
  checkStridedCpu(margs, 3);
  const ScalarArg fill = scalarArg(margs.at(1));
  const DType dtype = optionalDTypeArg(margs, 2).value_or(fill.isFloating() ? DType::Float32 : DType::Int64);
  SymIntList strides = contiguousStrides(sizes);
  return freshTensor(std::move(sizes), std::move(strides), dtype);
}

// new_zeros / new_ones / new_empty(self, size, *, dtype, layout, device, pin_memory): self's dtype.
TensorMeta newLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  SymIntList sizes = checkedSizes(margs.at(1));
  checkStridedCpu(margs, 3);
  SymIntList strides = contiguousStrides(sizes);
  return freshTensor(std::move(sizes), std::move(strides), optionalDTypeArg(margs, 2).value_or(self.dtype));
}

// new_full(self, size, fill_value, *, dtype, layout, device, pin_memory): self's dtype.
TensorMeta newFullLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  SymIntList sizes = checkedSizes(margs.at(1));
  checkStridedCpu(margs, 4);
  SymIntList strides = contiguousStrides(sizes);
  return freshTensor(std::move(sizes), std::move(strides), optionalDTypeArg(margs, 3).value_or(self.dtype));
}

// scalar_tensor(s, *, dtype, layout, device, pin_memory): 0-dim, float32 unless a dtype is given
// (whatever the number's type).
TensorMeta scalarTensorLayout(const ValueList& margs) {
  checkStridedCpu(margs, 2);
  return freshTensor({}, {}, optionalDTypeArg(margs, 1).value_or(DType::Float32));
}

// copy(self, src, non_blocking), 1.13's composite (2.x's is below, AtenVersion.h): r = src.to(self.dtype) (src itself when the
// dtypes agree, else a preserve_format copy); r itself when it has self's sizes (so the result
// may be src, sharing its storage), else a preserve_format copy of r expanded to self's sizes.
struct CopyPlan {
  bool returnsSrc = false;
  TensorMeta result;
};

// 2.x's clone_preserve_strides(self), which copy() then fills from src: self's sizes, strides and
// offset, unless self overlaps itself (a stride 0 over a size above 1: a preserve_format clone)
// or has no storage (no elements: empty_strided, offset 0).
TensorMeta clonePreservingStrides(const TensorMeta& self) {
  const bool dense = isNonOverlappingAndDense(self);
  for (size_t d = 0; !dense && d < self.sizes.size(); ++d)
    if (symEq(self.strides[d], 0, "copy: stride 0") && symLt(1, self.sizes[d], "copy: size above 1"))
      return freshLike(self, self.dtype, likeStrides(self, std::nullopt));
  TensorMeta out = self;
  if (symEq(self.numel(), 0, "copy: no elements")) out.storageOffset = 0;
  out.requiresGrad = false;
  return out;
}

CopyPlan copyPlan(const TensorMeta& self, const TensorMeta& src) {
  FATHOM_CHECK(static_cast<int64_t>(self.sizes.size()) >= src.dim(), "expand(torch.", scalarTypeName(src.dtype),
               "Tensor{", sizesStr(src.sizes), "}, size=", sizesStr(self.sizes), "): the number of sizes provided (",
               self.sizes.size(), ") must be greater or equal to the number of dimensions in the tensor (", src.dim(), ")");
  Geometry expanded = expandGeometry(src, self.sizes);  // and its error when src does not broadcast
  if (atenVersion().atLeast(2, 0)) return {false, clonePreservingStrides(self)};
  bool sameSizes = self.sizes.size() == src.sizes.size();
  for (size_t d = 0; sameSizes && d < self.sizes.size(); ++d) sameSizes = symEq(self.sizes[d], src.sizes[d], "copy: same sizes");
  if (!sameSizes) {  // expand_copy: a preserve_format clone of the expanded src
    TensorMeta view = src;
    view.sizes = std::move(expanded.sizes);
    view.strides = std::move(expanded.strides);
    return {false, freshLike(view, self.dtype, likeStrides(view, std::nullopt))};
  }
  if (src.dtype == self.dtype) return {true, src};
  return {false, freshLike(src, self.dtype, likeStrides(src, std::nullopt))};
}

ValueList copyKernel(const ValueList& args) {
  const Tensor& src = tensorArg(args, 1);
  const CopyPlan plan = copyPlan(tensorArg(args, 0).meta(), src.meta());
  if (plan.returnsSrc) return {src};
  Tensor out = allocateTensor(plan.result);
  copyInto(out, src);
  return {out};
}

// What a factory's kernel writes into its fresh tensor.
enum class Contents {
  Uninitialized,  // empty*: left as allocated (zeros)
  Zeros,          // also left as allocated: storage starts zero-filled
  Ones,
  FillArg,        // the Scalar argument at `fillArg`
  CopyOfSelf,     // argument 0, converted to the output dtype
};

struct FactoryOp {
  const char* schema;
  LayoutFn layout;
  Contents contents;
  int fillArg = -1;
};

#define FACTORY_OPTIONS "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"

// contiguous's default is written contiguous_format here where PyTorch's schema text has the
// enum's ordinal (=0), which Fathom's schema reader would take for an int.
constexpr FactoryOp kFactoryOps[] = {
    {"aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", cloneLayout, Contents::CopyOfSelf},
    {"aten::_to_copy(Tensor self, *, " FACTORY_OPTIONS ", bool non_blocking=False, MemoryFormat? memory_format=None) "
     "-> Tensor",
     toCopyLayout, Contents::CopyOfSelf},
    {"prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor", convertElementTypeLayout, Contents::CopyOfSelf},
    {"aten::empty_like(Tensor self, *, " FACTORY_OPTIONS ", MemoryFormat? memory_format=None) -> Tensor", likeLayout,
     Contents::Uninitialized},
    {"aten::zeros_like(Tensor self, *, " FACTORY_OPTIONS ", MemoryFormat? memory_format=None) -> Tensor", likeLayout,
     Contents::Zeros},
    {"aten::ones_like(Tensor self, *, " FACTORY_OPTIONS ", MemoryFormat? memory_format=None) -> Tensor", likeLayout,
     Contents::Ones},
    {"aten::full_like(Tensor self, Scalar fill_value, *, " FACTORY_OPTIONS ", MemoryFormat? memory_format=None) "
     "-> Tensor",
     fullLikeLayout, Contents::FillArg, 1},
    {"aten::empty.memory_format(SymInt[] size, *, " FACTORY_OPTIONS ", MemoryFormat? memory_format=None) -> Tensor",
     emptyLayout, Contents::Uninitialized},
    {"aten::empty_strided(SymInt[] size, SymInt[] stride, *, " FACTORY_OPTIONS ") -> Tensor", emptyStridedLayout,
     Contents::Uninitialized},
    {"aten::zeros(SymInt[] size, *, " FACTORY_OPTIONS ") -> Tensor", sizedLayout, Contents::Zeros},
    {"aten::ones(SymInt[] size, *, " FACTORY_OPTIONS ") -> Tensor", sizedLayout, Contents::Ones},
    {"aten::full(SymInt[] size, Scalar fill_value, *, " FACTORY_OPTIONS ") -> Tensor", fullLayout, Contents::FillArg,
     1},
    {"aten::new_empty(Tensor self, SymInt[] size, *, " FACTORY_OPTIONS ") -> Tensor", newLayout,
     Contents::Uninitialized},
    {"aten::new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, " FACTORY_OPTIONS ") -> Tensor",
     newEmptyStridedLayout, Contents::Uninitialized},
    {"aten::new_zeros(Tensor self, SymInt[] size, *, " FACTORY_OPTIONS ") -> Tensor", newLayout, Contents::Zeros},
    {"aten::new_ones(Tensor self, SymInt[] size, *, " FACTORY_OPTIONS ") -> Tensor", newLayout, Contents::Ones},
    {"aten::new_full(Tensor self, SymInt[] size, Scalar fill_value, *, " FACTORY_OPTIONS ") -> Tensor", newFullLayout,
     Contents::FillArg, 2},
    {"aten::scalar_tensor(Scalar s, *, " FACTORY_OPTIONS ") -> Tensor", scalarTensorLayout, Contents::FillArg, 0},
};

#undef FACTORY_OPTIONS

ValueList factoryKernel(const FactoryOp& op, const ValueList& args) {
  Tensor out = allocateTensor(op.layout(metaArgs(args)));
  switch (op.contents) {
    case Contents::Uninitialized:
    case Contents::Zeros:
      break;
    case Contents::Ones: {
      ScalarArg one;
      one.integer = 1;
      one.real = 1;
      fillWith(out, one);
      break;
    }
    case Contents::FillArg:
      fillWith(out, scalarArg(args.at(static_cast<size_t>(op.fillArg))));
      break;
    case Contents::CopyOfSelf:
      copyInto(out, tensorArg(args, 0));
      break;
  }
  return {out};
}

ValueList contiguousKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const ValueList margs = metaArgs(args);
  const MemoryFormat format = optionalMemoryFormatArg(margs, 1).value_or(MemoryFormat::Contiguous);
  if (isContiguousIn(self.meta(), format)) return {self};
  Tensor out = allocateTensor(contiguousLayout(margs));
  copyInto(out, self);
  return {out};
}

}  // namespace

void registerFactoryOps(OpRegistry& registry) {
  for (const FactoryOp& op : kFactoryOps) {
    const LayoutFn layout = op.layout;
    (void)registry.add(
        op.schema, [layout](const ValueList& args) { return ValueList{layout(args)}; },
        [&op](const ValueList& args) { return factoryKernel(op, args); });
  }
  (void)registry.add(
      "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
      [](const ValueList& args) { return ValueList{contiguousLayout(args)}; }, contiguousKernel);
  (void)registry.add(
      "aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor",
      [](const ValueList& args) { return ValueList{copyPlan(metaArg(args, 0), metaArg(args, 1)).result}; }, copyKernel);
  registerRangeFactories(registry);
}

}  // namespace fathom
