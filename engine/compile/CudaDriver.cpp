// CudaDriver: the driver entry points, declared by hand with their stable C signatures and looked
// up by the versioned names cuda.h maps the plain ones to (cuMemAlloc -> cuMemAlloc_v2, ...).
// The primary context is used instead of cuCtxCreate, whose signature changed in CUDA 13 (_v4).
#include "engine/compile/CudaDriver.h"

#include <map>
#include <utility>

#include "engine/compile/CudaSource.h"
#include "engine/compile/DynamicLibrary.h"
#include "engine/compile/Nvrtc.h"

namespace fathom {
namespace {

using CUresult = int;  // 0 is CUDA_SUCCESS
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void*;
using CUmodule = void*;
using CUfunction = void*;
constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76;  // CUdevice_attribute
constexpr CUresult kUnsupportedPtxVersion = 222;  // CUDA_ERROR_UNSUPPORTED_PTX_VERSION
constexpr unsigned kBlockSize = 256;

struct Driver {
  void* library = nullptr;
  std::string loaded, why;
  CUresult (*init)(unsigned) = nullptr;
  CUresult (*deviceGetCount)(int*) = nullptr;
  CUresult (*deviceGet)(CUdevice*, int) = nullptr;
  CUresult (*deviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*primaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*ctxSetCurrent)(CUcontext) = nullptr;
  CUresult (*ctxSynchronize)() = nullptr;
  CUresult (*moduleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*moduleUnload)(CUmodule) = nullptr;
  CUresult (*moduleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*memAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*memFree)(CUdeviceptr) = nullptr;
  CUresult (*memcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*memcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                           void**, void**) = nullptr;
  CUresult (*getErrorString)(CUresult, const char**) = nullptr;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int major = 0, minor = 0;
  bool ok() const { return library && why.empty(); }
};

std::string errorText(const Driver& d, CUresult r) {
  const char* s = nullptr;
  if (d.getErrorString && d.getErrorString(r, &s) == 0 && s) return s;
  return "CUDA error " + std::to_string(r);
}

void lookUpAll(Driver& d, std::string* missing) {
  lookUpSymbol(d.library, "cuInit", &d.init, missing);
  lookUpSymbol(d.library, "cuDeviceGetCount", &d.deviceGetCount, missing);
  lookUpSymbol(d.library, "cuDeviceGet", &d.deviceGet, missing);
  lookUpSymbol(d.library, "cuDeviceGetAttribute", &d.deviceGetAttribute, missing);
  lookUpSymbol(d.library, "cuDevicePrimaryCtxRetain", &d.primaryCtxRetain, missing);
  lookUpSymbol(d.library, "cuCtxSetCurrent", &d.ctxSetCurrent, missing);
  lookUpSymbol(d.library, "cuCtxSynchronize", &d.ctxSynchronize, missing);
  lookUpSymbol(d.library, "cuModuleLoadData", &d.moduleLoadData, missing);
  lookUpSymbol(d.library, "cuModuleUnload", &d.moduleUnload, missing);
  lookUpSymbol(d.library, "cuModuleGetFunction", &d.moduleGetFunction, missing);
  lookUpSymbol(d.library, "cuMemAlloc_v2", &d.memAlloc, missing);
  lookUpSymbol(d.library, "cuMemFree_v2", &d.memFree, missing);
  lookUpSymbol(d.library, "cuMemcpyHtoD_v2", &d.memcpyHtoD, missing);
  lookUpSymbol(d.library, "cuMemcpyDtoH_v2", &d.memcpyDtoH, missing);
  lookUpSymbol(d.library, "cuLaunchKernel", &d.launchKernel, missing);
  lookUpSymbol(d.library, "cuGetErrorString", &d.getErrorString, missing);
}

// Loads the driver and retains device 0's primary context; on failure d.why says which step.
void openDevice(Driver& d) {
  auto fail = [&](const char* step, CUresult r) { d.why = std::string(step) + " failed: " + errorText(d, r); };
  int count = 0;
  if (CUresult r = d.init(0)) return fail("cuInit", r);
  if (CUresult r = d.deviceGetCount(&count)) return fail("cuDeviceGetCount", r);
  if (count == 0) {
    d.why = "the CUDA driver sees no device";
    return;
  }
  if (CUresult r = d.deviceGet(&d.device, 0)) return fail("cuDeviceGet", r);
  if (CUresult r = d.deviceGetAttribute(&d.major, kComputeCapabilityMajor, d.device)) return fail("cuDeviceGetAttribute", r);
  if (CUresult r = d.deviceGetAttribute(&d.minor, kComputeCapabilityMinor, d.device)) return fail("cuDeviceGetAttribute", r);
  if (CUresult r = d.primaryCtxRetain(&d.context, d.device)) return fail("cuDevicePrimaryCtxRetain", r);
}

Driver load() {
  Driver d;
  std::string tried;
  d.library = openFirstLibrary({"libcuda.so.1", "libcuda.so"}, &d.loaded, &tried);
  if (!d.library) {
    d.why = "the CUDA driver is not installed (" + tried + ")";
    return d;
  }
  std::string missing;
  lookUpAll(d, &missing);
  if (!missing.empty()) {
    d.why = d.loaded + " lacks " + missing;
    return d;
  }
  openDevice(d);
  return d;
}

const Driver& driver() {
  static const Driver d = load();  // thread-safe once; the context lives as long as the process
  return d;
}

// The driver, with its context current on this thread.
Result<const Driver*> currentDriver() {
  const Driver& d = driver();
  if (!d.ok()) return invalidInput("no CUDA device: " + d.why);
  if (CUresult r = d.ctxSetCurrent(d.context)) return internalError("cuCtxSetCurrent failed: " + errorText(d, r));
  return &d;
}

// Device memory for one run, freed when the run ends however it ends.
class DeviceAllocations {
 public:
  explicit DeviceAllocations(const Driver& d) : d_(d) {}
  ~DeviceAllocations() {
    for (CUdeviceptr p : ptrs_) d_.memFree(p);
  }
  // A copy of `bytes` bytes from `host` (at least one byte is allocated, so the address is real).
  Result<CUdeviceptr> copyOf(const void* host, size_t bytes) {
    CUdeviceptr p = 0;
    if (CUresult r = d_.memAlloc(&p, bytes ? bytes : 1))
      return Error{ErrorCode::OutOfMemory, "cuMemAlloc of " + humanBytes(bytes) + " failed: " + errorText(d_, r), ""};
    ptrs_.push_back(p);
    if (CUresult r = bytes ? d_.memcpyHtoD(p, host, bytes) : 0) return internalError("cuMemcpyHtoD failed: " + errorText(d_, r));
    return p;
  }

 private:
  const Driver& d_;
  std::vector<CUdeviceptr> ptrs_;
};

Result<std::string> ptxFor(const LoweredKernel& kernel, std::string* arch) {
  const Driver& d = driver();
  *arch = "compute_" + std::to_string(d.major * 10 + d.minor);
  std::string source = cudaSource(kernel);
  auto ptx = compileToPtx(source, kernel.name, *arch);
  // A device newer than this NVRTC: compile for the oldest architecture CUDA 13 knows; the
  // driver compiles PTX for any newer device.
  if (!ptx.ok() && ptx.error().message.find("INVALID_OPTION") != std::string::npos) {
    *arch = "compute_75";
    ptx = compileToPtx(source, kernel.name, *arch);
  }
  return ptx;
}

}  // namespace

bool cudaDeviceAvailable(std::string* why) {
  if (why) *why = driver().why;
  return driver().ok();
}

std::string cudaDeviceDescription() {
  const Driver& d = driver();
  if (!d.ok()) return "";
  return "device 0: compute capability " + std::to_string(d.major) + "." + std::to_string(d.minor) + " (" + d.loaded + ")";
}

Result<CudaKernel> CudaKernel::compile(const LoweredKernel& kernel) {
  auto d = currentDriver();
  FATHOM_TRY(d);
  FATHOM_TRY(checkKernelForCuda(kernel));
  CudaKernel k;
  k.kernel_ = kernel;
  auto ptx = ptxFor(kernel, &k.arch_);
  FATHOM_TRY(ptx);
  k.ptx_ = std::move(*ptx);
  if (CUresult r = (*d)->moduleLoadData(&k.module_, k.ptx_.c_str()))
    return internalError("cuModuleLoadData failed: " + errorText(**d, r) +
                             (r == kUnsupportedPtxVersion ? " (the driver is older than NVRTC: update the driver)" : ""),
                         kernel.name);
  std::string entry = cudaKernelName(kernel);
  if (CUresult r = (*d)->moduleGetFunction(&k.function_, k.module_, entry.c_str()))
    return internalError("cuModuleGetFunction(" + entry + ") failed: " + errorText(**d, r), kernel.name);
  return k;
}

CudaKernel::CudaKernel(CudaKernel&& other) noexcept { *this = std::move(other); }

CudaKernel& CudaKernel::operator=(CudaKernel&& other) noexcept {
  std::swap(kernel_, other.kernel_);
  std::swap(ptx_, other.ptx_);
  std::swap(arch_, other.arch_);
  std::swap(module_, other.module_);
  std::swap(function_, other.function_);
  return *this;
}

CudaKernel::~CudaKernel() {
  if (!module_) return;
  auto d = currentDriver();
  if (d.ok()) (*d)->moduleUnload(module_);
}

Status CudaKernel::checkArguments(const std::vector<Tensor>& buffers, const std::vector<int64_t>& params) const {
  if (buffers.size() != kernel_.buffers.size())
    return invalidInput(std::to_string(buffers.size()) + " tensors for " + std::to_string(kernel_.buffers.size()) + " buffers",
                        kernel_.name);
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (!buffers[i].defined()) return invalidInput("buffer b" + std::to_string(i) + "'s tensor is undefined", kernel_.name);
    if (scalarKindOf(buffers[i].dtype()) != kernel_.buffers[i].type)
      return invalidInput("buffer b" + std::to_string(i) + " holds " + std::string(scalarKindName(kernel_.buffers[i].type)) +
                              ", its tensor " + std::string(dtypeName(buffers[i].dtype())),
                          kernel_.name);
  }
  if (params.size() < kernel_.params.size())
    return invalidInput(std::to_string(params.size()) + " parameter values for " + std::to_string(kernel_.params.size()),
                        kernel_.name);
  return {};
}

// One straight sequence of driver calls (copy in, launch, wait, copy out), each checked; the
// device memory is freed on every path out.
Status CudaKernel::run(const std::vector<Tensor>& buffers, const std::vector<int64_t>& params, int64_t begin,
                       int64_t end) const {
  auto d = currentDriver();
  FATHOM_TRY(d);
  FATHOM_TRY(checkArguments(buffers, params));
  auto threads = cudaThreadCount(kernel_, params, begin, end);
  FATHOM_TRY(threads);
  DeviceAllocations memory(**d);
  std::map<Storage*, CUdeviceptr> copies;  // one device copy per host storage
  std::vector<CUdeviceptr> pointers;
  for (const Tensor& t : buffers) {
    Storage* s = t.storage().get();
    if (!copies.count(s)) {
      auto p = memory.copyOf(s->data(), s->nbytes());
      FATHOM_TRY(p);
      copies[s] = *p;
    }
    pointers.push_back(copies[s] + CUdeviceptr(t.storageOffset() * int64_t(elementSize(t.dtype()))));
  }
  auto table = memory.copyOf(pointers.data(), pointers.size() * sizeof(CUdeviceptr));
  FATHOM_TRY(table);
  auto paramValues = memory.copyOf(params.data(), params.size() * sizeof(int64_t));
  FATHOM_TRY(paramValues);
  int64_t blocks = (*threads + kBlockSize - 1) / kBlockSize;
  if (blocks > 0x7fffffff) return invalidInput("too many threads for one launch: " + std::to_string(*threads), kernel_.name);
  if (blocks > 0) {
    long long from = begin, to = end;
    void* args[] = {&*table, &*paramValues, &from, &to};
    if (CUresult r = (*d)->launchKernel(function_, unsigned(blocks), 1, 1, kBlockSize, 1, 1, 0, nullptr, args, nullptr))
      return internalError("cuLaunchKernel failed: " + errorText(**d, r), kernel_.name);
    if (CUresult r = (*d)->ctxSynchronize()) return internalError("the kernel failed: " + errorText(**d, r), kernel_.name);
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (!kernel_.buffers[i].output) continue;
    Storage* s = buffers[i].storage().get();
    if (CUresult r = (*d)->memcpyDtoH(s->data(), copies[s], s->nbytes()))
      return internalError("cuMemcpyDtoH failed: " + errorText(**d, r), kernel_.name);
  }
  return {};
}

}  // namespace fathom
