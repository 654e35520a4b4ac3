// KernelJit: compiles LoweredKernels (KernelIR.h) to host machine code with LLVM 19 ORC LLJIT.
// The interface has no LLVM in it (LlvmCodegen.cpp has), so the rest of the engine builds fast.
//
//   KernelJit& jit = KernelJit::process();           // one per process: its JIT and caches
//   auto fns = jit.compile({&k1, &k2}, &stats);      // KernelFn per kernel, in order
//   fns->at(0)(buffers, params, 0, outerExtent(k1));
//
// Code: the kernels of one call go into one LLVM module (a module's fixed cost paid once), run
// through LLVM's O3 IR pipeline and a cheap machine-code level (the generated loops are already
// optimized IR; the expensive codegen levels buy little), for the host CPU and its features.
// exp, log, tanh and erf on float32 are inline polynomials, so the loops vectorize (a call to
// expf stops the vectorizer); floating-point contraction is off, so a * b + c rounds twice as in
// the eager kernels.
//
// Caches: in memory by kernel signature (a kernel compiles once per process), and on disk by
// the signatures of the whole call, the target and the generator's version: an object file under
// $FATHOM_KERNEL_CACHE (default $XDG_CACHE_HOME/fathom/kernels or ~/.cache/fathom/kernels; "off"
// turns it off), so a second process compiles nothing. A cache file that is not an object defining
// the expected kernels is a miss (compiled again); past 4096 files the oldest quarter goes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/compile/KernelIR.h"
#include "engine/core/Result.h"

namespace fathom {

using KernelFn = void (*)(void* const* buffers, const int64_t* params, int64_t begin, int64_t end);

// Where each kernel's code came from, in the order asked.
enum class KernelSource { Memory, Disk, Compiled };
std::string_view kernelSourceName(KernelSource s);  // "memory", "disk cache", "compiled"

struct JitStats {
  int64_t kernels = 0;     // asked for
  int64_t fromMemory = 0;  // already compiled in this process
  int64_t fromDisk = 0;    // loaded from the disk cache's object file
  int64_t compiled = 0;    // generated now
  double compileMs = 0;    // generating, optimizing and emitting the new ones, of which
  double optimizeMs = 0;   //   the O3 IR passes
  double machineCodeMs = 0;  //   instruction selection and the object file
  double loadMs = 0;       // linking objects into the process (new or from disk)
  std::vector<KernelSource> sources;  // per kernel asked, appended
};

class KernelJit {
 public:
  static KernelJit& process();
  ~KernelJit();

  // Whether this build and machine can generate code ("built without LLVM", a target error).
  bool available(std::string* why = nullptr) const;
  std::string target() const;  // "x86_64-pc-linux-gnu, skylake-avx512"

  Result<std::vector<KernelFn>> compile(const std::vector<const LoweredKernel*>& kernels, JitStats* stats = nullptr);
  // The LLVM IR of one kernel: as generated, or after the O3 pipeline.
  Result<std::string> ir(const LoweredKernel& kernel, bool optimized);

  // Where object files are kept; empty when the disk cache is off.
  std::string cacheDir() const;

  struct Impl;

 private:
  KernelJit();
  std::unique_ptr<Impl> impl_;
};

}  // namespace fathom
