// emitKernel: one LoweredKernel (KernelIR.h) as an LLVM IR function in `module`, with the ABI
// KernelIR.h documents: void NAME(ptr buffers, ptr params, i64 begin, i64 end). Loops index each
// buffer with the strides the kernel was lowered with - constants in the code, symbolic ones
// read from params - and nothing else: what the graph's meta says is what the code reads.
#pragma once

#include <string>

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include "engine/compile/KernelIR.h"

namespace fathom {

llvm::Function* emitKernel(llvm::Module& module, const LoweredKernel& kernel, const std::string& name);

}  // namespace fathom
