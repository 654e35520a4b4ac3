// KernelJit in a build without LLVM 19 (FATHOM_WITH_LLVM off): it says so, and `--backend jit`
// reports it instead of running. CMake compiles this file or KernelJit.cpp, never both.
#include "engine/compile/KernelJit.h"

namespace fathom {

struct KernelJit::Impl {};

KernelJit::KernelJit() : impl_(std::make_unique<Impl>()) {}
KernelJit::~KernelJit() = default;

KernelJit& KernelJit::process() {
  static KernelJit jit;
  return jit;
}

bool KernelJit::available(std::string* why) const {
  if (why) *why = "this build has no LLVM 19 (configure with llvm-19-dev installed)";
  return false;
}
std::string KernelJit::target() const { return "none"; }
std::string KernelJit::cacheDir() const { return ""; }

Result<std::vector<KernelFn>> KernelJit::compile(const std::vector<const LoweredKernel*>&, JitStats*) {
  return invalidInput("the jit backend needs LLVM 19, and this build has none");
}

Result<std::string> KernelJit::ir(const LoweredKernel&, bool) {
  return invalidInput("the jit backend needs LLVM 19, and this build has none");
}

}  // namespace fathom
