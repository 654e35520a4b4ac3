// DynamicLibrary: the dlopen/dlsym calls the CUDA path shares (Nvrtc.cpp, CudaDriver.cpp). NVRTC
// and the driver are found at run time, never linked, so a build without CUDA runs everywhere
// and a machine without a GPU gets an error, not a loader failure.
#pragma once

#include <string>
#include <vector>

namespace fathom {

// The first of `candidates` (file names or paths, "" skipped) that dlopen loads, with its name in
// *loaded; nullptr when none does, with every attempt's dlerror in *why.
void* openFirstLibrary(const std::vector<std::string>& candidates, std::string* loaded, std::string* why);

// Looks up `name` into *fn; false (and `name` appended to *missing) when absent.
template <class Fn>
bool lookUpSymbol(void* library, const char* name, Fn* fn, std::string* missing);

void* lookUpSymbolAddress(void* library, const char* name);

template <class Fn>
bool lookUpSymbol(void* library, const char* name, Fn* fn, std::string* missing) {
  void* address = lookUpSymbolAddress(library, name);
  *fn = reinterpret_cast<Fn>(address);
  if (!address) *missing += (missing->empty() ? "" : ", ") + std::string(name);
  return address != nullptr;
}

}  // namespace fathom
