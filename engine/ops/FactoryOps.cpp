// Factories and copies: clone, _to_copy, empty_like, zeros_like, ones_like, full.
//
// Layouts follow memory_format (see MemoryLayout.h): preserve_format (the default) keeps a
// dense input's strides and gives any other input dense strides in its dimension order;
// contiguous_format and channels_last are what they say. Outputs never share storage with the
// input and start at storage offset 0. empty_like's contents are zeros here (our storage is
// zero-filled), which PyTorch leaves unspecified.
#include "engine/core/Error.h"
#include "engine/ops/Copy.h"
#include "engine/ops/MemoryLayout.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpFamilies.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

void checkStridedCpu(const ValueList& margs, size_t layoutIndex) {
  // Layout and device arguments are accepted when they name what we have: strided, CPU.
  const Value& device = margs.at(layoutIndex + 1);
  if (auto* d = device.tryAs<Device>()) FATHOM_CHECK(d->name == "cpu" || d->name == "meta", "unsupported device ", d->name);
  if (auto* s = device.tryAs<std::string>()) FATHOM_CHECK(*s == "cpu" || *s == "meta", "unsupported device ", *s);
}

// clone(self, *, memory_format)
TensorMeta cloneLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  return freshLike(self, self.dtype, likeStrides(self, optionalMemoryFormatArg(margs, 1)));
}

// _to_copy(self, *, dtype, layout, device, pin_memory, non_blocking, memory_format)
TensorMeta toCopyLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  checkStridedCpu(margs, 2);
  const DType dtype = optionalDTypeArg(margs, 1).value_or(self.dtype);
  return freshLike(self, dtype, likeStrides(self, optionalMemoryFormatArg(margs, 6)));
}

// empty_like / zeros_like / ones_like(self, *, dtype, layout, device, pin_memory, memory_format)
TensorMeta likeLayout(const ValueList& margs) {
  const TensorMeta& self = metaArg(margs, 0);
  checkStridedCpu(margs, 2);
  const DType dtype = optionalDTypeArg(margs, 1).value_or(self.dtype);
  return freshLike(self, dtype, likeStrides(self, optionalMemoryFormatArg(margs, 5)));
}

// full(size, fill_value, *, dtype, layout, device, pin_memory): the dtype defaults to the fill
// value's (bool, int64, or the default float32).
TensorMeta fullLayout(const ValueList& margs) {
  const SymIntList sizes = toSymIntList(margs.at(0));
  for (const auto& s : sizes)
    FATHOM_CHECK(!symLt(s, 0, "full: negative size"), "Trying to create tensor with negative dimension ", s.str());
  checkStridedCpu(margs, 3);
  const ScalarArg fill = scalarArg(margs.at(1));
  TensorMeta out;
  out.dtype = optionalDTypeArg(margs, 2).value_or(fill.isFloating() ? DType::Float32 : fill.dtype);
  out.sizes = sizes;
  out.strides = contiguousStrides(sizes);
  return out;
}

ValueList copyKernel(TensorMeta (*layout)(const ValueList&), const ValueList& args) {
  Tensor out = allocateTensor(layout(metaArgs(args)));
  copyInto(out, tensorArg(args, 0));
  return {out};
}

ValueList fillKernel(TensorMeta (*layout)(const ValueList&), const ValueList& args, std::optional<ScalarArg> value) {
  Tensor out = allocateTensor(layout(metaArgs(args)));
  if (value) fillWith(out, *value);  // storage starts zero-filled: zeros need no pass
  return {out};
}

constexpr const char* kLikeArgs =
    "(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, "
    "MemoryFormat? memory_format=None) -> Tensor";

}  // namespace

void registerFactoryOps(OpRegistry& registry) {
  const auto metaOf = [](TensorMeta (*layout)(const ValueList&)) {
    return [layout](const ValueList& args) { return ValueList{layout(args)}; };
  };
  (void)registry.add("aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", metaOf(cloneLayout),
                     [](const ValueList& args) { return copyKernel(cloneLayout, args); });
  (void)registry.add(
      "aten::_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor",
      metaOf(toCopyLayout), [](const ValueList& args) { return copyKernel(toCopyLayout, args); });
  (void)registry.add(std::string("aten::empty_like") + kLikeArgs, metaOf(likeLayout),
                     [](const ValueList& args) { return fillKernel(likeLayout, args, std::nullopt); });
  (void)registry.add(std::string("aten::zeros_like") + kLikeArgs, metaOf(likeLayout),
                     [](const ValueList& args) { return fillKernel(likeLayout, args, std::nullopt); });
  ScalarArg one;
  one.integer = 1;
  one.real = 1;
  (void)registry.add(std::string("aten::ones_like") + kLikeArgs, metaOf(likeLayout),
                     [one](const ValueList& args) { return fillKernel(likeLayout, args, one); });
  (void)registry.add(
      "aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor",
      metaOf(fullLayout), [](const ValueList& args) {
        return fillKernel(fullLayout, args, scalarArg(args.at(1)));
      });
}

}  // namespace fathom
