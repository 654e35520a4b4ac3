// KernelBuilder: appends instructions to a LoweredKernel (KernelIR.h) with their types worked
// out, and turns recorded sizes into KernelInts (a constant, or a runtime parameter slot shared
// by every use of the same expression). KernelLowering.cpp builds the loops and buffers with it;
// PointwiseLowering.cpp writes each ATen op's formula with it.
#pragma once

#include <string>

#include "engine/compile/KernelIR.h"
#include "engine/core/Result.h"
#include "engine/graph/Graph.h"

namespace fathom {

class KernelBuilder {
 public:
  LoweredKernel kernel;
  int32_t phase = 0;  // of the instructions appended from now on

  ScalarKind typeOf(int32_t v) const { return kernel.body[static_cast<size_t>(v)].type; }
  int32_t load(int32_t buffer, ScalarKind type);
  int32_t constant(ScalarKind type, double value);
  int32_t cast(int32_t v, ScalarKind to);                 // v itself when it has that type
  int32_t unary(KOp op, int32_t a);                       // in a's type
  int32_t binary(KOp op, int32_t a, int32_t b);           // a's type; comparisons: bool
  int32_t select(int32_t cond, int32_t a, int32_t b);     // a's type
  int32_t acc(int32_t reduction);                         // an earlier phase's finished reduction

  KernelInt intOf(const SymInt& s);  // a constant, or the slot of this expression

 private:
  void push(KernelInstr in);  // tagged with the current phase
};

// One argument of a pointwise node as its formula sees it: a tensor already in the kernel (an
// instruction), or a constant (a Python scalar, a string, None, a list).
struct PointwiseArg {
  int32_t value = -1;  // instruction, when the argument is a tensor
  Value constant;      // otherwise
  bool isTensor() const { return value >= 0; }
};

// The instruction computing `node` (a pointwise op of a known formula) from its bound
// arguments, in the result dtype `result`; an error naming what is not supported otherwise
// (the kernel then runs on the eager kernels).
Result<int32_t> lowerPointwiseOp(KernelBuilder& b, const Node& node, const std::vector<PointwiseArg>& args,
                                 ScalarKind result);

}  // namespace fathom
