// The trace-log events of a jit compile (JitOptions::traceLog), at stage "compile" (their structs:
// KernelCompiledEvent and CompileAssumptionEvent, engine/core/TraceEvents.h):
//   kernel_compiled     {graph, kernel, kind, nodes, code: llvm|eager, dump (when known), why,
//                        source: compiled|disk cache|memory, compile_ms (the module's time shared
//                        by the kernels in it)}
//   compile_assumption  {graph, input, sizes, strides, kernel, nodes, check: runtime|unchecked, dump}:
//                        the layout the generated code trusts for an input and the kernel that
//                        reads it with it - the one assumption the jit adds, checked before each
//                        run unless --unchecked (Inductor's assert_size_stride)
#pragma once

#include "engine/jit/CompiledGraph.h"

namespace fathom {

void emitCompileEvents(const CompiledGraph& compiled, const JitOptions& options);

}  // namespace fathom
