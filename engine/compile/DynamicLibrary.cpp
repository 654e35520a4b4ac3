// DynamicLibrary: dlopen with RTLD_LOCAL, so the CUDA libraries' symbols never interpose on ours.
#include "engine/compile/DynamicLibrary.h"

#include <dlfcn.h>

namespace fathom {

void* openFirstLibrary(const std::vector<std::string>& candidates, std::string* loaded, std::string* why) {
  for (const auto& name : candidates) {
    if (name.empty()) continue;
    if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      *loaded = name;
      return handle;
    }
    const char* error = dlerror();
    *why += (why->empty() ? "" : "; ") + std::string(error ? error : name + ": not loaded");
  }
  return nullptr;
}

void* lookUpSymbolAddress(void* library, const char* name) { return library ? dlsym(library, name) : nullptr; }

}  // namespace fathom
