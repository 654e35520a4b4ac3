// Nvrtc: the NVRTC entry points, declared here by hand with their stable C signatures (nvrtc.h,
// unchanged since CUDA 7 for these), looked up once per process.
#include "engine/compile/Nvrtc.h"

#include <cstdlib>
#include <vector>

#include "engine/compile/DynamicLibrary.h"

namespace fathom {
namespace {

struct NvrtcProgramOpaque;
using nvrtcProgram = NvrtcProgramOpaque*;
using nvrtcResult = int;  // an enum in nvrtc.h; 0 is NVRTC_SUCCESS
constexpr nvrtcResult kNvrtcSuccess = 0;

struct NvrtcApi {
  void* library = nullptr;
  std::string loaded, why;
  nvrtcResult (*createProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  nvrtcResult (*compileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
  nvrtcResult (*getPTXSize)(nvrtcProgram, size_t*) = nullptr;
  nvrtcResult (*getPTX)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*getProgramLogSize)(nvrtcProgram, size_t*) = nullptr;
  nvrtcResult (*getProgramLog)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*destroyProgram)(nvrtcProgram*) = nullptr;
  const char* (*getErrorString)(nvrtcResult) = nullptr;
  nvrtcResult (*version)(int*, int*) = nullptr;
  int major = 0, minor = 0;
  bool ok() const { return library && why.empty(); }
};

std::vector<std::string> candidates() {
  const char* env = std::getenv("FATHOM_NVRTC");
  std::vector<std::string> names = {env ? env : ""};
  const char* files[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
  for (const char* dir : {"", "/usr/local/cuda/lib64/", "/usr/local/cuda-13.0/lib64/"})
    for (const char* file : files) names.push_back(std::string(dir) + file);
  return names;
}

NvrtcApi load() {
  NvrtcApi api;
  std::string tried;
  api.library = openFirstLibrary(candidates(), &api.loaded, &tried);
  if (!api.library) {
    api.why = "NVRTC not found (" + tried + "); set FATHOM_NVRTC to libnvrtc.so's path";
    return api;
  }
  std::string missing;
  lookUpSymbol(api.library, "nvrtcCreateProgram", &api.createProgram, &missing);
  lookUpSymbol(api.library, "nvrtcCompileProgram", &api.compileProgram, &missing);
  lookUpSymbol(api.library, "nvrtcGetPTXSize", &api.getPTXSize, &missing);
  lookUpSymbol(api.library, "nvrtcGetPTX", &api.getPTX, &missing);
  lookUpSymbol(api.library, "nvrtcGetProgramLogSize", &api.getProgramLogSize, &missing);
  lookUpSymbol(api.library, "nvrtcGetProgramLog", &api.getProgramLog, &missing);
  lookUpSymbol(api.library, "nvrtcDestroyProgram", &api.destroyProgram, &missing);
  lookUpSymbol(api.library, "nvrtcGetErrorString", &api.getErrorString, &missing);
  lookUpSymbol(api.library, "nvrtcVersion", &api.version, &missing);
  if (!missing.empty()) api.why = api.loaded + " lacks " + missing;
  else api.version(&api.major, &api.minor);
  return api;
}

const NvrtcApi& nvrtc() {
  static const NvrtcApi api = load();  // thread-safe once
  return api;
}

// Destroys the program on every path out of compileToPtx.
struct ProgramGuard {
  nvrtcProgram program = nullptr;
  ~ProgramGuard() {
    if (program) nvrtc().destroyProgram(&program);
  }
};

std::string programLog(nvrtcProgram program) {
  size_t size = 0;
  if (nvrtc().getProgramLogSize(program, &size) != kNvrtcSuccess || size <= 1) return "";
  std::string log(size, '\0');
  if (nvrtc().getProgramLog(program, log.data()) != kNvrtcSuccess) return "";
  log.resize(size - 1);  // the size counts the terminating NUL
  return log;
}

Error nvrtcError(const std::string& what, nvrtcResult r, const std::string& name) {
  return internalError(what + ": " + nvrtc().getErrorString(r), name);
}

}  // namespace

bool nvrtcAvailable(std::string* why) {
  if (why) *why = nvrtc().why;
  return nvrtc().ok();
}

std::string nvrtcDescription() {
  const NvrtcApi& api = nvrtc();
  if (!api.ok()) return "";
  return api.loaded + " (NVRTC " + std::to_string(api.major) + "." + std::to_string(api.minor) + ")";
}

Result<std::string> compileToPtx(const std::string& source, const std::string& name, const std::string& arch) {
  const NvrtcApi& api = nvrtc();
  if (!api.ok()) return invalidInput(api.why, name);
  ProgramGuard guard;
  nvrtcResult r = api.createProgram(&guard.program, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr);
  if (r != kNvrtcSuccess) return nvrtcError("nvrtcCreateProgram failed", r, name);
  // No FMA contraction: each float operation rounds on its own, as on the CPU and in the
  // reference, so results compare closely across backends.
  std::string archOption = "--gpu-architecture=" + arch;
  const char* options[] = {archOption.c_str(), "--fmad=false"};
  r = api.compileProgram(guard.program, 2, options);
  if (r != kNvrtcSuccess)
    return internalError("NVRTC could not compile it for " + arch + " (" + api.getErrorString(r) + "):\n" + programLog(guard.program),
                         name);
  size_t size = 0;
  if ((r = api.getPTXSize(guard.program, &size)) != kNvrtcSuccess) return nvrtcError("nvrtcGetPTXSize failed", r, name);
  std::string ptx(size, '\0');
  if ((r = api.getPTX(guard.program, ptx.data())) != kNvrtcSuccess) return nvrtcError("nvrtcGetPTX failed", r, name);
  if (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

}  // namespace fathom
