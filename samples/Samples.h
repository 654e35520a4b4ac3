// The bundled sample graphs, built with the GraphBuilder API.
#pragma once

#include <string>
#include <vector>

#include "engine/dump/Dump.h"

namespace fathom::samples {

struct SampleInfo {
  std::string name;         // "mlp"
  std::string description;  // one line for `fathom sample --list`
  Result<Dump> (*build)();
};

const std::vector<SampleInfo>& allSamples();
const SampleInfo* findSample(std::string_view name);

// A 3-layer MLP classifier (784 -> 256 -> 128 -> 10) on a batch of 32, with seeded example inputs.
Result<Dump> buildMlp();

}  // namespace fathom::samples
