// Argument accessors for op meta functions and kernels (see OpArgs.h). A wrong kind of value
// here means the graph bound something the schema check let through (a NodeRef that resolved
// to the wrong kind), so it is reported as an op error, never asserted.
#include "engine/ops/OpArgs.h"

namespace fathom {

ScalarArg scalarArg(const Value& v) {
  ScalarArg s;
  if (auto* b = v.tryAs<bool>()) {
    s.dtype = DType::Bool;
    s.integer = *b ? 1 : 0;
    s.real = static_cast<double>(s.integer);
  } else if (auto* i = v.tryAs<SymInt>()) {
    s.dtype = DType::Int64;
    s.integer = i->hint();
    s.real = static_cast<double>(s.integer);
  } else if (auto* d = v.tryAs<double>()) {
    s.dtype = DType::Float64;
    s.real = *d;
  } else {
    throwOpError("expected a number but got " + v.kindName());
  }
  return s;
}

const TensorMeta& metaArg(const ValueList& args, size_t i) {
  FATHOM_CHECK(args.at(i).is<TensorMeta>(), "expected a fake tensor but got ", args[i].kindName());
  return args[i].as<TensorMeta>();
}

const Tensor& tensorArg(const ValueList& args, size_t i) {
  FATHOM_CHECK(args.at(i).is<Tensor>(), "expected a tensor but got ", args[i].kindName());
  FATHOM_CHECK(args[i].as<Tensor>().defined(), "expected a defined tensor");
  return args[i].as<Tensor>();
}

SymInt symIntArg(const ValueList& args, size_t i) {
  FATHOM_CHECK(args.at(i).is<SymInt>(), "expected an int but got ", args[i].kindName());
  return args[i].as<SymInt>();
}

int64_t intArg(const ValueList& args, size_t i) {
  SymInt v = symIntArg(args, i);
  FATHOM_CHECK(!v.isSymbolic(), "expected a concrete int but got ", v.str());
  return v.hint();
}

bool boolArg(const ValueList& args, size_t i) {
  FATHOM_CHECK(args.at(i).is<bool>(), "expected a bool but got ", args[i].kindName());
  return args[i].as<bool>();
}

std::optional<SymInt> optionalSymIntArg(const ValueList& args, size_t i) {
  if (args.at(i).isNone()) return std::nullopt;
  return symIntArg(args, i);
}

std::optional<DType> optionalDTypeArg(const ValueList& args, size_t i) {
  if (args.at(i).isNone()) return std::nullopt;
  FATHOM_CHECK(args[i].is<DType>(), "expected a dtype but got ", args[i].kindName());
  return args[i].as<DType>();
}

std::optional<MemoryFormat> optionalMemoryFormatArg(const ValueList& args, size_t i) {
  if (args.at(i).isNone()) return std::nullopt;
  FATHOM_CHECK(args[i].is<MemoryFormat>(), "expected a memory format but got ", args[i].kindName());
  return args[i].as<MemoryFormat>();
}

std::optional<IntList> optionalIntListArg(const ValueList& args, size_t i) {
  if (args.at(i).isNone()) return std::nullopt;
  return toIntList(args[i]);
}

ValueList metaArgs(const ValueList& args) {
  ValueList out;
  out.reserve(args.size());
  for (const auto& a : args) {
    if (auto* t = a.tryAs<Tensor>()) {
      FATHOM_CHECK(t->defined(), "expected a defined tensor");
      out.emplace_back(t->meta());
    } else if (auto* l = a.tryAs<ValueList>()) {
      out.emplace_back(metaArgs(*l));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

const char* scalarTypeName(DType t) {
  switch (t) {
    case DType::Bool: return "Bool";
    case DType::UInt8: return "Byte";
    case DType::Int8: return "Char";
    case DType::Int16: return "Short";
    case DType::Int32: return "Int";
    case DType::Int64: return "Long";
    case DType::Float16: return "Half";
    case DType::BFloat16: return "BFloat16";
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
  }
  return "?";
}

}  // namespace fathom
