// cat and stack, as ATen 1.13 lays them out:
//   cat: the output takes the first non-skipped input's sizes with the cat dim summed, the
//     promoted dtype of all inputs (torch.result_type), and a fresh layout in the memory format
//     the inputs suggest: channels-last only when every input suggests it (a contiguous one wins
//     at once, disagreeing ones give contiguous). 1-d empty inputs are skipped for the shape
//     checks and the dim wrapping (the legacy rule) but still vote on the memory format.
//   stack: cat of the inputs along `dim`, viewed with the new dim split out; stacking after the
//     last dim unsqueezes every input first instead.
// Layout functions work on TensorMeta (SymInt); the kernels compute the same layouts from their
// tensors' metadata and then copy each input into its slice of the output.
#pragma once

#include <vector>

#include "engine/tensor/Tensor.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {

struct CatLayout {
  TensorMeta output;
  int64_t dim = 0;  // wrapped (unless every input is skipped)
};

CatLayout catLayout(const std::vector<TensorMeta>& inputs, int64_t dim);
Tensor catTensors(const std::vector<Tensor>& inputs, int64_t dim);

TensorMeta stackLayout(const std::vector<TensorMeta>& inputs, int64_t dim);
Tensor stackTensors(const std::vector<Tensor>& inputs, int64_t dim);

}  // namespace fathom
