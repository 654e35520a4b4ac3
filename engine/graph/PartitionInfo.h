// How AOT autograd split the joint graph into a forward and
// a backward graph, and what crosses between them.
//
//   forward(primals...)          -> [new values of mutated inputs..., outputs..., saved...]
//   backward(saved..., tangents...) -> [gradient per entry of gradInputs]
//
// Saved values are tensors and SymInts; bytes are counted under the symbols' hints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/SymInt.h"
#include "engine/tensor/TensorMeta.h"

namespace fathom {

struct SavedValueInfo {
  std::string name;      // the forward node, and the backward placeholder of the same name
  bool isSymInt = false;
  TensorMeta meta;       // tensors
  SymInt value;          // SymInts
  int64_t bytes = 0;     // under the hints (a SymInt counts 8)
};

struct PartitionInfo {
  std::string partitioner;  // "default" or "min-cut"
  std::string joint = "joint", forward = "forward", backward = "backward";  // graph names
  std::vector<std::string> mutatedInputs;  // primals whose new values lead the forward's outputs
  int64_t numForwardOutputs = 0;           // the model's outputs, after those
  std::vector<SavedValueInfo> saved;       // tensors first, then SymInts
  std::vector<std::string> gradInputs;     // per backward output: the primal it is the gradient of ("" = none)

  int64_t savedBytes() const {
    int64_t n = 0;
    for (const auto& s : saved) n += s.bytes;
    return n;
  }
  size_t numSavedTensors() const {
    size_t n = 0;
    for (const auto& s : saved) n += s.isSymInt ? 0 : 1;
    return n;
  }
};

}  // namespace fathom
