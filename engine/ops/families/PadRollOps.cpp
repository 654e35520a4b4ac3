// Copies that move elements to new positions (Swin's windows): constant_pad_nd and roll, as ATen
// 1.13 composes them from narrow, clone, empty, fill_, copy_ and cat, which also decide layouts.
//
// constant_pad_nd(self, pad, value): pad holds (before, after) pairs from the last dim backwards.
//   Negative pads narrow the input first. When no pad is positive the result is a clone of the
//   narrowed input (preserve_format, value unchecked); otherwise a fresh tensor in self's suggested
//   memory format, filled with value (which must fit the dtype), with the narrowed input copied
//   into its middle.
// roll(self, shifts, dims): one dim rolls as cat(self.narrow(dim, start, size - start),
//   self.narrow(dim, 0, start)) with start = (size - shift) mod size, so the result is laid out as
//   cat lays out those two views; several dims roll one after the other; no dims rolls the
//   flattened contiguous tensor and views it back. An empty tensor comes back as a clone.
#include "engine/core/Error.h"
#include "engine/ops/cpu/Copy.h"
#include "engine/ops/cpu/ScalarConvert.h"
#include "engine/ops/families/IndexingFamily.h"
#include "engine/ops/layout/Concat.h"
#include "engine/ops/layout/MemoryLayout.h"
#include "engine/ops/layout/ViewGeometry.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"

namespace fathom {
namespace {

TensorMeta cloneOf(const TensorMeta& t) { return freshLike(t, t.dtype, likeStrides(t, std::nullopt)); }

// ATen's narrow(dim, start, length), with its checks.
TensorMeta narrow(const TensorMeta& t, int64_t dim, SymInt start, const SymInt& length) {
  FATHOM_CHECK(t.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  const SymInt size = t.sizes[dim];
  if (!symEq(start, size, "narrow: start at the end") && start.maybeConcrete() && size.maybeConcrete())
    start = SymInt(wrapDim(*start.maybeConcrete(), *size.maybeConcrete()));
  FATHOM_CHECK(!symLt(length, 0, "narrow: length >= 0") && !symLt(size - length, start, "narrow: in range"), "start (",
               start.str(), ") + length (", length.str(), ") exceeds dimension size (", size.str(), ").");
  return sliceView(t, dim, start, start + length, SymInt(1));
}

// ---- constant_pad_nd ---------------------------------------------------------------------------

struct PadPlan {
  TensorMeta input;   // self narrowed by the negative pads
  TensorMeta output;  // the result
  TensorMeta target;  // the view of the result the input is copied into
  bool cloneOnly = false;
};

PadPlan padPlan(const TensorMeta& self, const IntList& pad) {
  FATHOM_CHECK(pad.size() % 2 == 0, "Length of pad must be even but instead it equals ", pad.size());
  const int64_t rank = self.dim(), pairs = static_cast<int64_t>(pad.size() / 2), first = rank - pairs;
  FATHOM_CHECK(first >= 0, "Length of pad should be no more than twice the number of dimensions of the input. Pad length is ",
               pad.size(), "while the input has ", rank, "dimensions.");
  PadPlan p;
  p.input = self;
  bool positive = false;
  for (int64_t d = first; d < rank; ++d) {
    const int64_t before = pad[2 * (rank - d - 1)], after = pad[2 * (rank - d - 1) + 1];
    if (before < 0) p.input = narrow(p.input, d, SymInt(-before), p.input.sizes[d] + SymInt(before));
    if (after < 0) p.input = narrow(p.input, d, SymInt(0), p.input.sizes[d] + SymInt(after));
    positive = positive || before > 0 || after > 0;
  }
  if (!positive) {
    p.cloneOnly = true;
    p.output = cloneOf(p.input);
    return p;
  }
  SymIntList sizes = self.sizes;
  for (int64_t d = first; d < rank; ++d) sizes[d] = sizes[d] + SymInt(pad[2 * (rank - d - 1)] + pad[2 * (rank - d - 1) + 1]);
  p.output = freshLike(self, self.dtype, suggestedFormatStrides(sizes, suggestMemoryFormat(self)));
  p.output.sizes = sizes;
  p.target = p.output;
  for (int64_t d = first; d < rank; ++d) {
    const int64_t before = pad[2 * (rank - d - 1)], after = pad[2 * (rank - d - 1) + 1];
    if (before > 0) p.target = narrow(p.target, d, SymInt(before), p.target.sizes[d] - SymInt(before));
    if (after > 0) p.target = narrow(p.target, d, SymInt(0), p.target.sizes[d] - SymInt(after));
  }
  return p;
}

ValueList padMeta(const ValueList& args) {
  const PadPlan p = padPlan(metaArg(args, 0), toIntList(args.at(1)));
  if (!p.cloneOnly) checkScalarFits(scalarArg(args.at(2)), p.output.dtype);
  return {p.output};
}

ValueList padKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const PadPlan p = padPlan(self.meta(), toIntList(args.at(1)));
  Tensor out = allocateTensor(p.output);
  if (p.cloneOnly) {
    copyInto(out, realizeView(self, p.input));
    return {out};
  }
  fillWith(out, scalarArg(args.at(2)));
  copyInto(realizeView(out, p.target), realizeView(self, p.input));
  return {out};
}

// ---- roll --------------------------------------------------------------------------------------

// The views a roll of one dim concatenates: (self.narrow(dim, start, size - start), self.narrow(dim, 0, start)).
std::vector<TensorMeta> rollParts(const TensorMeta& self, int64_t shift, int64_t dim) {
  FATHOM_CHECK(self.dim() > 0, "Dimension specified as ", dim, " but tensor has no dimensions");
  dim = wrapDim(dim, self.dim());
  const SymInt size = self.sizes[dim];
  const SymInt start = mod(size - SymInt(shift), size);
  return {narrow(self, dim, start, size - start), narrow(self, dim, SymInt(0), start)};
}

// roll_cpu's cases, calling `one` for a single-dim roll (which needs the tensor it rolls) and
// `flat` for a roll of the flattened tensor.
void checkRollArgs(const IntList& shifts, const IntList& dims) {
  FATHOM_CHECK(!shifts.empty(), "`shifts` required");
  FATHOM_CHECK(dims.empty() ? shifts.size() == 1 : shifts.size() == dims.size(),
               "shifts and dimensions must align. shifts: ", shifts.size(), ", dims:", dims.size());
}

TensorMeta rollLayout(const TensorMeta& self, const IntList& shifts, const IntList& dims) {
  checkRollArgs(shifts, dims);
  if (dims.empty()) return freshLike(self, self.dtype, contiguousStrides(self.sizes));
  TensorMeta t = self;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (symEq(t.numel(), 0, "roll: empty tensor")) return cloneOf(t);
    t = catLayout(rollParts(t, shifts[i], dims[i]), wrapDim(dims[i], t.dim())).output;
  }
  return t;
}

Tensor rollOnce(const Tensor& t, int64_t shift, int64_t dim) {
  if (t.numel() == 0) {
    Tensor out = allocateTensor(cloneOf(t.meta()));
    copyInto(out, t);
    return out;
  }
  std::vector<Tensor> parts;
  for (const TensorMeta& m : rollParts(t.meta(), shift, dim)) parts.push_back(realizeView(t, m));
  return catTensors(parts, wrapDim(dim, t.dim()));
}

ValueList rollKernel(const ValueList& args) {
  const Tensor& self = tensorArg(args, 0);
  const IntList shifts = toIntList(args.at(1)), dims = toIntList(args.at(2));
  checkRollArgs(shifts, dims);
  if (dims.empty()) {  // self.contiguous().view(numel), rolled along dim 0, viewed back
    Tensor flat = allocateTensor(freshLike(self.meta(), self.dtype(), contiguousStrides(self.meta().sizes)));
    copyInto(flat, self);
    auto line = flat.asStrided({self.numel()}, {1}, 0);
    FATHOM_CHECK(line.ok(), line.ok() ? "" : line.error().message);
    Tensor rolled = rollOnce(*line, shifts[0], 0);
    auto back = rolled.asStrided(self.sizes(), contiguousStrides(self.sizes()), 0);
    FATHOM_CHECK(back.ok(), back.ok() ? "" : back.error().message);
    return {*back};
  }
  Tensor t = self;
  for (size_t i = 0; i < dims.size(); ++i) t = rollOnce(t, shifts[i], dims[i]);
  return {t};
}

}  // namespace

void registerPadRollOps(OpRegistry& registry) {
  (void)registry.add("aten::constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor", padMeta, padKernel);
  (void)registry.add(
      "aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor",
      [](const ValueList& args) {
        return ValueList{rollLayout(metaArg(args, 0), toIntList(args.at(1)), toIntList(args.at(2)))};
      },
      rollKernel);
}

}  // namespace fathom
