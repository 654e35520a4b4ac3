// KernelIR: one fused kernel lowered for code generation - the loop nest, the buffers it reads
// and writes with the strides it trusts, and the scalar instructions it runs at each point. The
// LLVM generator (LlvmCodegen.h) and the CUDA C emitter (CudaSource.h) both start from it, and
// its canonical text (signature()) is the kernel cache's key.
//
//   Loops:   for i0 < loop[0], ..., i(n-1) < loop[n-1]; the innermost `reduceDims` loops reduce.
//   Buffer:  element at the point = data[sum_d strides[d] * i_d] where the i_d are the loop
//            indices, or - for a buffer with its own `shape` (a value reshaped inside the kernel) -
//            the coordinates of the row-major linear loop index in that shape.
//   Body:    SSA instructions; an instruction's operands are earlier instructions (a, b, c).
//   Phases:  a row-local kernel (softmax, layer norm) makes several passes over each row: phase
//            by phase, per outer point, the inner loops run the phase's instructions, stores and
//            reductions (a row phase runs its instructions once instead); a later phase reads an
//            earlier phase's finished reductions with Acc. Kernels without phases are one pass.
//   Stores:  values written at each point (in a reduction kernel: values before the reduction that
//            other kernels read); reductions: an accumulator per outer point, written (divided by
//            the reduced count for a mean) when the inner loops end.
//
// Sizes and strides are the graph's recorded meta: a constant is baked into the code, a symbolic
// one is a runtime parameter (`params`, expressions the host evaluates under the symbols bound
// from the real inputs), so one compiled kernel serves every size its guards allow. The strides
// are trusted, as Inductor trusts its fake strides: the runtime checks the inputs against them
// (unless --unchecked), never the intermediates.
//
// The generated function:  void kernel(void* const* buffers, const int64_t* params,
//                                      int64_t begin, int64_t end)
// runs the outermost loop over [begin, end) (a kernel with no loops runs its one point when
// begin < end); buffers[i] points at buffer i's first element (the tensor's data at its offset).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/DType.h"
#include "engine/core/SymInt.h"

namespace fathom {

// Element types the generators handle.
enum class ScalarKind { Bool, U8, I8, I32, I64, F32, F64 };
std::optional<ScalarKind> scalarKindOf(DType t);
DType dtypeOf(ScalarKind k);
std::string_view scalarKindName(ScalarKind k);  // "f32", "i64", "bool", ...
bool isFloatKind(ScalarKind k);

// A size or stride the code uses: a constant, or slot `param` of the runtime parameters.
struct KernelInt {
  int64_t constant = 0;
  int32_t param = -1;
  bool isConstant() const { return param < 0; }
  static KernelInt of(int64_t c) { return {c, -1}; }
  static KernelInt slot(int32_t p) { return {0, p}; }
};

enum class KOp {
  Load,    // buffer `buffer` at the point
  Const,   // `fconst` for float types, `iconst` otherwise (bool: 0 or 1)
  Cast,    // a to `type` (C++ conversion semantics; float -> bool is != 0)
  // Unary, in the type of a (= type).
  Neg, Abs, Exp, Log, Tanh, Erf, Sqrt, Floor, Ceil, Not,
  // Binary, a and b of one type; comparisons yield bool.
  Add, Sub, Mul, Div, Max, Min, Lt, Le, Gt, Ge, Eq, Ne, And, Or,
  Select,  // a (bool) ? b : c
  Acc,     // reduction `iconst`'s finished value (an earlier phase's): a mean divided by its count
};
std::string_view kopName(KOp op);

struct KernelInstr {
  KOp op = KOp::Const;
  ScalarKind type = ScalarKind::F32;  // the result's type
  int32_t a = -1, b = -1, c = -1;     // operands: earlier instructions
  int32_t buffer = -1;                // Load
  double fconst = 0;                  // Const, float types
  int64_t iconst = 0;                 // Const, integer and bool types; Acc: the reduction
  int32_t phase = 0;
};

struct KernelBuffer {
  std::string value;               // the graph value it holds: a node name ("add_3")
  ScalarKind type = ScalarKind::F32;
  bool output = false;
  std::vector<KernelInt> shape;    // empty: indexed by the loop indices; else by this shape
  std::vector<KernelInt> strides;  // one per loop dim (or per shape dim); 0 where it broadcasts
};

enum class ReduceOp { Sum, Max, Min, Mean };
std::string_view reduceOpName(ReduceOp op);

struct KernelStore {
  int32_t value = -1;   // instruction
  int32_t buffer = -1;  // an output buffer
  int32_t phase = 0;
};

struct KernelReduction {
  ReduceOp op = ReduceOp::Sum;
  ScalarKind type = ScalarKind::F32;  // the accumulator's (= the value's) type
  int32_t value = -1;                 // instruction reduced over the inner loops
  int32_t buffer = -1;                // output buffer (strides 0 on the reduced dims); -1: none
  int32_t phase = 0;
};

struct KernelPhase {
  bool overRow = true;  // runs the inner loops; false: once per outer point
};

struct LoweredKernel {
  std::string name;                    // the plan's kernel name ("pointwise_3")
  std::vector<std::string> nodes;      // the graph nodes it computes, in order
  std::vector<KernelInt> loop;         // extents, outermost first
  int32_t reduceDims = 0;              // innermost loops that reduce
  std::vector<KernelBuffer> buffers;   // inputs first, then outputs
  std::vector<KernelInstr> body;
  std::vector<KernelStore> stores;     // at every point of the loops
  std::vector<KernelReduction> reductions;
  std::vector<KernelPhase> phases;     // empty: one pass (every instruction in phase 0)
  std::vector<SymInt> params;          // runtime parameters by slot

  int32_t inputCount() const;
  // Everything the generated code depends on, names left out: equal signatures generate the
  // same code. The kernel cache's key (with the target and the generator's version).
  std::string signature() const;
  // The kernel for a person: loops, buffers with strides, one instruction per line.
  std::string text() const;
};

// The extent of the loop a kernel's [begin, end) covers, under the runtime parameters: its
// outermost loop, or 1 when it has none or every loop reduces.
int64_t outerExtent(const LoweredKernel& k, const std::vector<int64_t>& params);

}  // namespace fathom
