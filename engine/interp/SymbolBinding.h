// SymbolBinding: the values of a graph's size symbols, bound from the real inputs (the first
// dimension, stride or offset that is exactly a symbol binds it), and recorded sizes evaluated
// under them. The debug interpreter and the jit runtime bind their symbols with it.
#pragma once

#include <optional>
#include <unordered_map>

#include "engine/core/SymInt.h"
#include "engine/ops/Value.h"

namespace fathom {

class SymbolBinding {
 public:
  // Binds the symbols `recorded` (a placeholder's TensorMeta or SymInt) names from `real`.
  void bindFrom(const Value& recorded, const Value& real);
  std::optional<int64_t> eval(const SymInt& s) const;
  std::optional<int64_t> value(int32_t symbol) const;

 private:
  std::unordered_map<int32_t, int64_t> values_;
};

}  // namespace fathom
