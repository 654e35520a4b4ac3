#include "samples/Samples.h"

namespace fathom::samples {

const std::vector<SampleInfo>& allSamples() {
  static const std::vector<SampleInfo> kSamples = {
      {"mlp", "3-layer MLP classifier, 784 -> 256 -> 128 -> 10, batch 32", buildMlp},
      {"bert", "BERT-base encoder layer (hidden 768, 12 heads), batch 2, seq 16, eval mode", buildBert},
  };
  return kSamples;
}

const SampleInfo* findSample(std::string_view name) {
  for (const auto& s : allSamples())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace fathom::samples
