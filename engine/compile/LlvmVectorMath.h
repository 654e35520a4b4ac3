// float32 exp, log, tanh and erf as inline LLVM IR: straight-line polynomials the loop vectorizer
// widens (a call to expf would stop it). exp is the eager kernels' expVec (engine/ops/cpu/
// VecMath.h, Cephes) and erf ATen's Vectorized<float>::erf over it, so the fused gelu computes
// what the eager kernel's vector loop does; log and tanh are Cephes' logf and tanhf (a few ulp).
// float64 calls libm instead (LlvmKernelEmitter.cpp).
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace fathom::llvmmath {

llvm::Value* expF32(llvm::IRBuilder<>& b, llvm::Value* x);
llvm::Value* logF32(llvm::IRBuilder<>& b, llvm::Value* x);
llvm::Value* tanhF32(llvm::IRBuilder<>& b, llvm::Value* x);
llvm::Value* erfF32(llvm::IRBuilder<>& b, llvm::Value* x);

}  // namespace fathom::llvmmath
