// FunctionSchema: an op's signature in ATen's own syntax, parsed, e.g.
//   aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//   aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight,
//                           Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)
// bindArguments() turns a call's positional and keyword arguments into one value per schema
// argument (defaults filled in), checking arity and types; its errors name the argument.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/Result.h"
#include "engine/ops/Value.h"

namespace fathom {

enum class ArgKind {
  Tensor, Int, SymInt, Float, Bool, Scalar, ScalarType, MemoryFormat, Layout, Device, Str,
  Generator, Any,
};

struct SchemaType {
  ArgKind kind = ArgKind::Any;
  bool isList = false;
  int64_t fixedLength = 0;    // int[2]: a single int is broadcast to this length
  bool optional = false;      // T? or T[]?
  bool elementOptional = false;  // Tensor?[]
  std::string str() const;
};

struct SchemaArg {
  std::string name;
  SchemaType type;
  std::optional<Value> defaultValue;
  bool kwargOnly = false;
  std::string alias;   // "a" in Tensor(a), "a!" in Tensor(a!)
  bool isMutated() const { return !alias.empty() && alias.back() == '!'; }
};

struct FunctionSchema {
  std::string ns;        // "aten"; empty for Fathom's builtins such as getitem
  std::string name;      // "add"
  std::string overload;  // "Tensor"; empty means "default"
  std::vector<SchemaArg> args;
  std::vector<SchemaArg> returns;

  // "aten.add.Tensor", "aten.relu.default", "getitem", "operator.mul" (no overload part).
  std::string qualifiedName() const;
  std::string str() const;
};

Result<FunctionSchema> parseSchema(std::string_view text);

using Kwargs = std::vector<std::pair<std::string, Value>>;

// One value per schema argument, in schema order. Node references are accepted wherever a
// tensor or number may stand (their kind is checked by Graph::verify and at run time).
Result<ValueList> bindArguments(const FunctionSchema& schema, const ValueList& args,
                                const Kwargs& kwargs);

// Does `v` fit `type`? Fills `why` when not.
bool valueFitsType(const Value& v, const SchemaType& type, std::string* why);

}  // namespace fathom
