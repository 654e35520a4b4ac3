#include "samples/models/Models.h"

namespace fathom::models {
namespace {

ModelOptions withDefaults(const ModelInfo& info, ModelOptions o) {
  if (o.layers == 0) o.layers = info.defaults.layers;
  if (o.batch == 0) o.batch = info.defaults.batch;
  if (o.seq == 0) o.seq = info.defaults.seq;
  if (o.vocab == 0) o.vocab = info.defaults.vocab;
  return o;
}

}  // namespace

const std::vector<ModelInfo>& allModels() {
  static const std::vector<ModelInfo> kModels = {
      {"mlp", "MLP classifier, 784 -> 256 -> 128 -> 10 (layers = linear layers, halving widths)", {3, 32, 0, 0},
       createMlp},
      {"bert", "BERT-base (hidden 768, 12 heads, ff 3072): embeddings, encoder with attention mask, pooler",
       {2, 2, 16, 1024}, createBert},
      {"resnet18", "torchvision ResNet-18 (1000 classes) on seq x seq RGB images", {18, 1, 32, 0}, createResNet18},
      {"gpt2", "GPT-2 small (hidden 768, 12 heads): decoder blocks with a causal mask", {2, 2, 16, 1024}, createGpt2},
  };
  return kModels;
}

const ModelInfo* findModel(std::string_view name) {
  for (const auto& m : allModels())
    if (m.name == name) return &m;
  return nullptr;
}

Result<std::unique_ptr<frontend::Model>> buildModel(std::string_view name, const ModelOptions& options) {
  const ModelInfo* info = findModel(name);
  if (!info) return invalidInput("unknown model '" + std::string(name) + "'");
  const ModelOptions o = withDefaults(*info, options);
  if (o.layers < 1 || o.batch < 1 || o.seq < 0 || o.vocab < 0)
    return invalidInput("model " + info->name + ": layers and batch must be positive");
  auto model = info->create(o);
  FATHOM_TRY(model);
  (*model)->train(o.training);
  return model;
}

Result<frontend::EagerRun> runModel(std::string_view name, const ModelOptions& options) {
  auto model = buildModel(name, options);
  FATHOM_TRY(model);
  return frontend::runEager(**model);
}

Result<Dump> traceModel(std::string_view name, const ModelOptions& options, const frontend::TraceHooks& hooks) {
  auto model = buildModel(name, options);
  FATHOM_TRY(model);
  auto dump = frontend::trace(**model, hooks);
  FATHOM_TRY(dump);
  const ModelOptions o = withDefaults(*findModel(name), options);
  dump->producer.emplace_back("model", std::string(name));
  dump->producer.emplace_back("options", "layers=" + std::to_string(o.layers) + " batch=" + std::to_string(o.batch) +
                                             " seq=" + std::to_string(o.seq) + " vocab=" + std::to_string(o.vocab) +
                                             (o.training ? " train" : " eval"));
  return dump;
}

}  // namespace fathom::models
