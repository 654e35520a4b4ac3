// lowerKernel: a pointwise or reduction kernel of the fusion plan (FusionPlan.h) as KernelIR,
// ready for a generator. The loops, strides and dtypes come from the graph's recorded meta and
// nothing else: this is where the backend decides to trust the fake strides, as Inductor does.
//
//   Pointwise kernel: the loops are the iteration sizes; an input read at other sizes is
//   broadcast (stride 0 where its size is 1); a value reshaped inside the kernel is indexed by
//   its own sizes over the same linear index.
//   Reduction kernel: the kept dims are the outer loops, the reduced dims the inner ones, and the
//   pointwise ops before the reduction run at the reduced input's index.
//
// Fails, with the reason, for what the generators do not handle: an extern or row-local kernel,
// an op without a formula (PointwiseLowering.cpp), a dtype other than bool, u8, i8, i32, i64, f32,
// f64, a broadcast of a symbolic size, a reduction whose intermediates are read elsewhere. Such a
// kernel runs on the eager kernels instead.
#pragma once

#include "engine/compile/FusionPlan.h"
#include "engine/compile/KernelIR.h"
#include "engine/core/Result.h"
#include "engine/graph/Graph.h"

namespace fathom {

Result<LoweredKernel> lowerKernel(const Graph& graph, const FusedKernel& kernel);

}  // namespace fathom
