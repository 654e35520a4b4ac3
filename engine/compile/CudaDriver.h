// CudaDriver: runs generated kernels on the first GPU through the CUDA driver API, loaded with
// dlopen (libcuda.so.1) on first use and declared by hand, so Fathom builds without CUDA and a
// machine without a GPU or driver gets an error, never a crash. The device's primary context is
// retained once for the process and made current on each calling thread.
//
//   auto kernel = CudaKernel::compile(lowered);      // CudaSource -> NVRTC PTX -> module
//   kernel->run({a, b, out}, /*params=*/{}, 0, n);   // tensors in buffer order; out copied back
//
// run() is for tests and checks, not speed: it copies each buffer's whole storage to the device
// (a storage two buffers share is copied once, so aliasing behaves as on the host), launches,
// waits, and copies the storages of the output buffers back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/compile/KernelIR.h"
#include "engine/core/Result.h"
#include "engine/tensor/Tensor.h"

namespace fathom {

// Whether the driver loaded and found a device; if not, *why says what is missing.
bool cudaDeviceAvailable(std::string* why);

// "device 0: compute capability 9.0 (libcuda.so.1)", or "" without one: for logs.
std::string cudaDeviceDescription();

// One LoweredKernel compiled for the device and loaded as a module. Move-only: it owns the module.
class CudaKernel {
 public:
  static Result<CudaKernel> compile(const LoweredKernel& kernel);
  CudaKernel(CudaKernel&& other) noexcept;
  CudaKernel& operator=(CudaKernel&& other) noexcept;
  CudaKernel(const CudaKernel&) = delete;
  CudaKernel& operator=(const CudaKernel&) = delete;
  ~CudaKernel();

  // Runs the outermost loop over [begin, end): buffers[i] is the tensor of kernel buffer i (its
  // element [0, ...] is the buffer's first element, its dtype the buffer's), params the values of
  // the kernel's runtime parameters by slot.
  Status run(const std::vector<Tensor>& buffers, const std::vector<int64_t>& params, int64_t begin,
             int64_t end) const;

  const std::string& ptx() const { return ptx_; }
  const std::string& arch() const { return arch_; }

 private:
  CudaKernel() = default;
  Status checkArguments(const std::vector<Tensor>& buffers, const std::vector<int64_t>& params) const;

  LoweredKernel kernel_;
  std::string ptx_, arch_;
  void* module_ = nullptr;    // CUmodule
  void* function_ = nullptr;  // CUfunction
};

}  // namespace fathom
