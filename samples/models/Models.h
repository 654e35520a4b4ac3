// The sample models written with the C++ frontend (engine/frontend): each one runs eagerly or
// traces into a Graph, from the same model code. The registry lists them with their default
// options; buildModel / runModel / traceModel take a name and options (0 = the default).
//
//   auto dump = models::traceModel("bert", {.layers = 12, .batch = 8, .seq = 128});
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/dump/Dump.h"
#include "engine/frontend/Model.h"

namespace fathom::models {

struct ModelOptions {
  int64_t layers = 0;  // encoder / decoder layers, linear layers (mlp); resnet18 has its 18
  int64_t batch = 0;
  int64_t seq = 0;     // sequence length; the image's height and width for resnet18
  // Vocabulary size of bert and gpt2. The defaults are small (drawing a 30522 x 768 table takes
  // longer than running the model); 30522 / 50257 give the real tables. The encoder and decoder
  // compute does not depend on it.
  int64_t vocab = 0;
  bool training = false;  // train mode: dropout active, batch norm on batch statistics
};

struct ModelInfo {
  std::string name;         // "bert"
  std::string description;  // one line
  ModelOptions defaults;    // small: an eager run takes well under a second
  // Builds the model for fully specified options; errors name the bad option.
  Result<std::unique_ptr<frontend::Model>> (*create)(const ModelOptions& options);
};

const std::vector<ModelInfo>& allModels();
const ModelInfo* findModel(std::string_view name);

// (a) The model with `options` (zeros taken from the defaults), in eval mode unless training.
Result<std::unique_ptr<frontend::Model>> buildModel(std::string_view name, const ModelOptions& options = {});
// (b) Builds it and runs it eagerly on its example inputs.
Result<frontend::EagerRun> runModel(std::string_view name, const ModelOptions& options = {});
// (c) Builds it and traces it into a dump (graph "forward" + example inputs); the producer
// records the model and its options.
Result<Dump> traceModel(std::string_view name, const ModelOptions& options = {},
                        const frontend::TraceHooks& hooks = {});

// The models (one file each).
Result<std::unique_ptr<frontend::Model>> createMlp(const ModelOptions& options);
Result<std::unique_ptr<frontend::Model>> createBert(const ModelOptions& options);
Result<std::unique_ptr<frontend::Model>> createResNet18(const ModelOptions& options);
Result<std::unique_ptr<frontend::Model>> createGpt2(const ModelOptions& options);

}  // namespace fathom::models
