// `fathom trace MODEL --compiled-autograd`: see CompiledAutogradTrace.cpp.
#pragma once

#include <string>

#include "samples/models/Models.h"

namespace fathom::cli {

struct CompiledAutogradRequest {
  std::string model;
  models::ModelOptions options;
  std::string out;
  bool force = false;
  bool json = false;
  int steps = 3;
};

int runCompiledAutogradTrace(const CompiledAutogradRequest& r);

}  // namespace fathom::cli
