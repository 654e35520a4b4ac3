// The sample models' training steps the AOT and jit tests run: every model, static and dynamic,
// small, with dropout and batch-norm statistics on where the model has them.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "samples/models/Models.h"

namespace fathom::testing {

struct TrainingCase {
  std::string model;
  models::ModelOptions options;
  bool dynamic;
};

inline std::vector<TrainingCase> sampleTrainingCases() {
  std::vector<TrainingCase> cases;
  for (bool dynamic : {false, true}) {
    cases.push_back({"mlp", {.layers = 3, .batch = 4}, dynamic});
    cases.push_back({"bert", {.layers = 1, .batch = 2, .seq = 8, .training = true}, dynamic});
    cases.push_back({"gpt2", {.layers = 1, .batch = 2, .seq = 8, .training = true}, dynamic});
    cases.push_back({"resnet18", {.batch = 2, .seq = 32, .training = true}, dynamic});
  }
  return cases;
}

inline std::string trainingCaseName(const ::testing::TestParamInfo<TrainingCase>& info) {
  return info.param.model + (info.param.dynamic ? "_dynamic" : "_static");
}

}  // namespace fathom::testing
