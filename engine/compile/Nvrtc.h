// Nvrtc: CUDA C to PTX through NVRTC, loaded with dlopen on first use (no CUDA header or library
// at build time). The library is the first of: $FATHOM_NVRTC, libnvrtc.so, libnvrtc.so.13,
// libnvrtc.so.12, then the same names under /usr/local/cuda/lib64 and /usr/local/cuda-13.0/lib64.
// Compiling needs no GPU: PTX is the driver's input, turned into machine code when loaded.
#pragma once

#include <string>

#include "engine/core/Result.h"

namespace fathom {

// Whether NVRTC loaded with every entry point Fathom uses; if not, *why says what was tried.
bool nvrtcAvailable(std::string* why);

// "libnvrtc.so.13 (NVRTC 13.0)", or "" when not available: for logs and test output.
std::string nvrtcDescription();

// The PTX of `source` for `arch` (a virtual architecture: "compute_75"), `name` naming the program
// in messages. A compile error carries NVRTC's log; NVRTC missing is an InvalidInput error that
// says what was tried and how to point Fathom at it.
Result<std::string> compileToPtx(const std::string& source, const std::string& name, const std::string& arch);

}  // namespace fathom
