// An in-tree plugin with two custom ops, as a team would ship them:
//   demo::scaled_add(Tensor a, Tensor b, float alpha=1) -> Tensor   a + alpha * b, same sizes,
//       contiguous; it has a meta function
//   demo::row_pad(Tensor x, int pad) -> Tensor   the last dim padded with `pad` zeros at its end,
//       contiguous; it has NO meta function: Fathom infers its layout by running the kernel
// Both take float32 of any rank. Built as libfathom_demo_ops.so; load with --plugin.
#include "engine/core/Error.h"
#include "plugins/api/FathomPlugin.h"

namespace {

using fathom::Tensor;
using fathom::TensorMeta;
using fathom::Value;
using fathom::ValueList;

Tensor contiguousInput(const Value& v) {
  auto c = v.as<Tensor>().contiguous();
  FATHOM_CHECK(c.ok(), "demo: ", c.ok() ? "" : c.error().message);
  return std::move(*c);
}

ValueList scaledAddMeta(const ValueList& args) {
  const auto& a = args[0].as<TensorMeta>();
  const auto& b = args[1].as<TensorMeta>();
  FATHOM_CHECK(a.sizes.size() == b.sizes.size(), "demo::scaled_add: a has ", a.dim(), " dims, b has ", b.dim());
  TensorMeta out = a;
  out.strides = fathom::contiguousStrides(a.sizes);
  out.storageOffset = 0;
  return {Value(std::move(out))};
}

ValueList scaledAddKernel(const ValueList& args) {
  const Tensor a = contiguousInput(args[0]), b = contiguousInput(args[1]);
  const double alpha = args[2].isNumber() ? args[2].toDouble() : 1.0;
  FATHOM_CHECK(a.sizes() == b.sizes(), "demo::scaled_add: sizes ", fathom::intListText(a.sizes()), " and ", fathom::intListText(b.sizes()));
  auto out = Tensor::empty(a.sizes(), a.dtype());
  FATHOM_CHECK(out.ok(), "demo::scaled_add: ", out.ok() ? "" : out.error().message);
  for (int64_t i = 0; i < a.numel(); ++i) out->setLinear(i, a.atLinear(i) + alpha * b.atLinear(i));
  return {Value(std::move(*out))};
}

ValueList rowPadKernel(const ValueList& args) {
  const Tensor x = contiguousInput(args[0]);
  const int64_t pad = args[1].as<fathom::SymInt>().hint();
  FATHOM_CHECK(x.dim() >= 1 && pad >= 0, "demo::row_pad: needs a tensor with a dim and pad >= 0");
  fathom::IntList sizes = x.sizes();
  const int64_t row = sizes.back();
  sizes.back() += pad;
  auto out = Tensor::empty(sizes, x.dtype());
  FATHOM_CHECK(out.ok(), "demo::row_pad: ", out.ok() ? "" : out.error().message);
  for (int64_t r = 0; r < x.numel() / std::max<int64_t>(row, 1); ++r)
    for (int64_t c = 0; c < row; ++c) out->setLinear(r * (row + pad) + c, x.atLinear(r * row + c));
  return {Value(std::move(*out))};
}

}  // namespace

FATHOM_PLUGIN("demo-ops", "1.0", registrar) {
  registrar.op({"demo::scaled_add(Tensor a, Tensor b, float alpha=1) -> Tensor", scaledAddMeta, scaledAddKernel});
  registrar.op({"demo::row_pad(Tensor x, int pad) -> Tensor", {}, rowPadKernel});
}
