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

// A BERT-base encoder layer (hidden 768, 12 heads, feed-forward 3072) as make_fx records it.
struct BertConfig {
  int64_t batch, seq, hidden, heads, intermediate;
  static BertConfig sample();     // batch 2, seq 16: the bundled sample
  static BertConfig benchmark();  // batch 8, seq 128: tests/bench
};
Result<Dump> buildBertLayer(const BertConfig& config);
Result<Dump> buildBert();  // buildBertLayer(BertConfig::sample())

}  // namespace fathom::samples
