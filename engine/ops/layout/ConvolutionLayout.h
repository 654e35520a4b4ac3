// aten.convolution's argument checks and output layouts, as PyTorch 1.13's CPU _convolution and
// convolution_backward decide them (2-d convolution, and 1-d run as 2-d with a unit height;
// 3-d; transposed too).
//
// The memory format of a 2-d result depends on the backend PyTorch picks, so this models the pick:
//   Empty       - batch or channels of size 0;
//   Mkldnn      - float32 when oneDNN wants the shape (use_mkldnn, with one intra-op thread,
//                 the oracle's setting; bfloat16 would need AVX-512, which the oracle host lacks);
//   Slow2d / SlowDilated2d - everything else, one group at a time with the groups concatenated.
// Mkldnn and ungrouped slow convolutions give channels_last results when the input or the weight
// suggests channels_last; grouped slow ones take the format the per-group results suggest (so
// a depthwise 1x1 result stays contiguous). Gradients follow the same backends (see
// convGradLayouts). Checked against PyTorch on thousands of random shapes and layouts.
//   SlowTranspose2d - every non-empty transposed convolution (slow_conv_transpose2d, groups
//                 run one at a time): contiguous results and gradients, whatever the layouts.
// 3-d convolutions (5-d tensors): Mkldnn as for 2-d, else Slow3d, SlowDilated3d, SlowTranspose3d.
// 1.13 has no channels_last_3d path in any of them, oneDNN's included, so non-empty results and
// gradients are contiguous whatever the layouts; the backend matters for the dtypes it accepts
// (see convSetup and convBackwardKernelName) and, for oneDNN, for the backward's output_mask.
// A transposed convolution's weight is [in channels, out channels / groups, k...]; its output
// is (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1 per spatial dim.
#pragma once

#include "engine/tensor/TensorMeta.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// MkldnnTranspose only under 2.x's rules (AtenVersion.h).
enum class ConvBackend { Empty, Mkldnn, MkldnnTranspose, Slow2d, SlowDilated2d, SlowTranspose2d, Slow3d, SlowDilated3d, SlowTranspose3d };
inline bool isMkldnn(ConvBackend b) { return b == ConvBackend::Mkldnn || b == ConvBackend::MkldnnTranspose; }

struct ConvParams {
  // One entry per spatial dim the backend sees: two (height, width) for 2-d, where a 1-d
  // convolution has stride 1, padding 0, dilation 1 in its unit height; three for 3-d.
  IntList stride, padding, dilation, outputPadding;
  int64_t groups = 1;
  bool oneD = false;        // the op's tensors are 3-d: [N, C, L]
  bool transposed = false;  // weight [in, out / groups, k...]
  bool threeD() const { return stride.size() == 3; }
  bool isDilated() const { return anyOtherThan(dilation, 1); }
  bool isStrided() const { return anyOtherThan(stride, 1); }

 private:
  static bool anyOtherThan(const IntList& v, int64_t value) {
    for (int64_t x : v)
      if (x != value) return true;
    return false;
  }
};

// A convolution's checked arguments, seen as 2-d (or 3-d).
struct ConvSetup {
  TensorMeta input, weight;  // 4-d (5-d) views, as the backend sees them
  ConvParams params;
  ConvBackend backend = ConvBackend::Slow2d;
  SymIntList outputSizes;  // 4-d (5-d)
};

struct ConvArgs {
  const TensorMeta* input = nullptr;
  const TensorMeta* weight = nullptr;
  const TensorMeta* bias = nullptr;  // optional
  IntList stride, padding, dilation, outputPadding;
  bool transposed = false;
  int64_t groups = 1;
};

// Checks the arguments as check_shape_forward does (bias included when given) and picks the
// backend.
ConvSetup convSetup(const ConvArgs& args);

// The forward result's layout (3-d for a 1-d convolution).
TensorMeta convOutputLayout(const ConvSetup& s);

struct ConvGradLayouts {
  TensorMeta input, weight;  // same rank as the op's input / weight
};
ConvGradLayouts convGradLayouts(const ConvSetup& s);

// The ATen kernel whose dtype dispatch refuses a backward of `s`'s dtype, for the error message
// (a backward runs in floating point only).
const char* convBackwardKernelName(const ConvSetup& s);

// 4-d view of a 1-d convolution's tensor (unsqueeze(2)), or the tensor itself.
TensorMeta convView4d(const TensorMeta& t, bool oneD);
// The op's result from a 4-d one (squeeze(2) for 1-d).
TensorMeta convViewBack(const TensorMeta& t, bool oneD);

}  // namespace fathom
