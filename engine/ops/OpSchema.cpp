#include "engine/ops/OpSchema.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace fathom {
namespace {

struct KindName {
  ArgKind kind;
  std::string_view name;
};
constexpr KindName kKinds[] = {
    {ArgKind::Tensor, "Tensor"}, {ArgKind::Int, "int"}, {ArgKind::SymInt, "SymInt"},
    {ArgKind::Float, "float"}, {ArgKind::Bool, "bool"}, {ArgKind::Scalar, "Scalar"},
    {ArgKind::ScalarType, "ScalarType"}, {ArgKind::MemoryFormat, "MemoryFormat"},
    {ArgKind::Layout, "Layout"}, {ArgKind::Device, "Device"}, {ArgKind::Str, "str"},
    {ArgKind::Generator, "Generator"}, {ArgKind::Any, "Any"},
};

std::string_view kindName(ArgKind k) {
  for (const auto& e : kKinds) if (e.kind == k) return e.name;
  return "?";
}

// A tiny recursive-descent parser over the schema text.
class SchemaParser {
 public:
  explicit SchemaParser(std::string_view text) : s_(text) {}

  Result<FunctionSchema> parse() {
    FunctionSchema schema;
    std::string full = ident();
    if (consume("::")) {
      schema.ns = full;
      full = ident();
    }
    schema.name = full;
    if (consume(".")) schema.overload = ident();
    if (!consume("(")) return fail("expected '(' after the op name");
    bool kwargOnly = false;
    while (!consume(")")) {
      if (!schema.args.empty() || kwargOnly) {
        if (!consume(",")) return fail("expected ',' or ')' in the argument list");
      }
      if (consume("*")) { kwargOnly = true; continue; }
      auto arg = argument(/*needName=*/true);
      FATHOM_TRY(arg);
      arg->kwargOnly = kwargOnly;
      schema.args.push_back(std::move(*arg));
    }
    if (!consume("->")) return fail("expected '->' before the return types");
    if (consume("(")) {
      while (!consume(")")) {
        if (!schema.returns.empty() && !consume(",")) return fail("expected ',' between return types");
        auto ret = argument(/*needName=*/false);
        FATHOM_TRY(ret);
        schema.returns.push_back(std::move(*ret));
      }
    } else {
      auto ret = argument(/*needName=*/false);
      FATHOM_TRY(ret);
      schema.returns.push_back(std::move(*ret));
    }
    skipSpace();
    if (pos_ != s_.size()) return fail("unexpected text after the return types");
    return schema;
  }

 private:
  Error fail(const std::string& what) {
    return invalidInput(what + " at column " + std::to_string(pos_ + 1) + " of schema '" +
                        std::string(s_) + "'");
  }
  void skipSpace() { while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_; }
  bool consume(std::string_view tok) {
    skipSpace();
    if (s_.substr(pos_, tok.size()) != tok) return false;
    pos_ += tok.size();
    return true;
  }
  std::string ident() {
    skipSpace();
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  Result<SchemaArg> argument(bool needName) {
    SchemaArg arg;
    std::string base = ident();
    bool found = false;
    for (const auto& e : kKinds) {
      if (e.name == base) { arg.type.kind = e.kind; found = true; }
    }
    if (!found) return fail("unknown type '" + base + "'");
    if (consume("(")) {  // alias annotation: Tensor(a!), Tensor(a -> *)
      size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] != ')') ++pos_;
      arg.alias = std::string(s_.substr(start, pos_ - start));
      if (!consume(")")) return fail("unterminated alias annotation");
    }
    if (consume("?")) {  // Tensor?[]: optional elements
      arg.type.elementOptional = true;
    }
    if (consume("[")) {
      arg.type.isList = true;
      skipSpace();
      if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
        arg.type.fixedLength = std::strtoll(s_.data() + pos_, nullptr, 10);
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (!consume("]")) return fail("expected ']'");
      if (consume("?")) arg.type.optional = true;
    } else if (arg.type.elementOptional) {
      arg.type.elementOptional = false;
      arg.type.optional = true;
    }
    skipSpace();
    if (pos_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      arg.name = ident();
    else if (needName)
      return fail("argument without a name");
    if (consume("=")) {
      auto def = defaultValue();
      FATHOM_TRY(def);
      arg.defaultValue = std::move(*def);
    }
    return arg;
  }

  Result<Value> defaultValue() {
    skipSpace();
    if (consume("[")) {
      ValueList items;
      while (!consume("]")) {
        if (!items.empty() && !consume(",")) return fail("expected ',' in a default list");
        auto item = defaultValue();
        FATHOM_TRY(item);
        items.push_back(std::move(*item));
      }
      return Value(std::move(items));
    }
    if (pos_ < s_.size() && (s_[pos_] == '"' || s_[pos_] == '\'')) {
      char quote = s_[pos_++];
      size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] != quote) ++pos_;
      if (pos_ >= s_.size()) return fail("unterminated string default");
      std::string text(s_.substr(start, pos_ - start));
      ++pos_;
      return Value(std::move(text));
    }
    size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != ',' && s_[pos_] != ')' && s_[pos_] != ']' &&
           !std::isspace(static_cast<unsigned char>(s_[pos_])))
      ++pos_;
    std::string tok(s_.substr(start, pos_ - start));
    if (tok == "None") return Value(None{});
    if (tok == "True") return Value(true);
    if (tok == "False") return Value(false);
    if (tok == "Mean") return Value(int64_t{1});  // at::Reduction
    if (tok == "Sum") return Value(int64_t{2});
    MemoryFormat mf;
    if (parseMemoryFormat(tok, &mf)) return Value(mf);
    if (auto dt = parseDType(tok)) return Value(*dt);
    if (tok.empty()) return fail("missing default value");
    char* end = nullptr;
    if (tok.find_first_of(".eE") == std::string::npos || tok == "inf") {
      long long v = std::strtoll(tok.c_str(), &end, 10);
      if (*end == 0) return Value(static_cast<int64_t>(v));
    }
    double d = std::strtod(tok.c_str(), &end);
    if (*end == 0) return Value(d);
    return fail("cannot read default value '" + tok + "'");
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

std::string SchemaType::str() const {
  std::string out(kindName(kind));
  if (isList) {
    if (elementOptional) out += "?";
    out += "[";
    if (fixedLength) out += std::to_string(fixedLength);
    out += "]";
  }
  if (optional) out += "?";
  return out;
}

std::string FunctionSchema::qualifiedName() const {
  if (ns.empty()) return name;
  // FX records symbolic size arithmetic as Python's operator.mul etc. (and torch 2.x's
  // torch.sym_sum): plain functions, not OpOverloads, so their names have no overload part.
  if (ns == "operator" || ns == "torch") return ns + "." + name;
  return ns + "." + name + "." + (overload.empty() ? "default" : overload);
}

std::string FunctionSchema::str() const {
  std::ostringstream os;
  if (!ns.empty()) os << ns << "::";
  os << name;
  if (!overload.empty()) os << "." << overload;
  os << "(";
  bool kw = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) os << ", ";
    if (args[i].kwargOnly && !kw) { os << "*, "; kw = true; }
    os << args[i].type.str() << " " << args[i].name;
  }
  os << ") -> ";
  if (returns.size() != 1) os << "(";
  for (size_t i = 0; i < returns.size(); ++i) os << (i ? ", " : "") << returns[i].type.str();
  if (returns.size() != 1) os << ")";
  return os.str();
}

Result<FunctionSchema> parseSchema(std::string_view text) { return SchemaParser(text).parse(); }

namespace {
bool scalarFits(const Value& v, ArgKind kind) {
  if (v.is<NodeRef>()) return kind != ArgKind::Str && kind != ArgKind::ScalarType;
  switch (kind) {
    case ArgKind::Tensor: return v.is<Tensor>() || v.is<TensorMeta>() || v.isNumber();  // a wrapped number (callKernel)
    case ArgKind::Int: case ArgKind::SymInt: return v.is<SymInt>();
    case ArgKind::Float: return v.is<double>() || v.is<SymInt>();
    case ArgKind::Bool: return v.is<bool>();
    case ArgKind::Scalar: return v.isNumber();
    case ArgKind::ScalarType: return v.is<DType>();
    case ArgKind::MemoryFormat: return v.is<MemoryFormat>();
    case ArgKind::Layout: return v.is<Layout>();
    case ArgKind::Device: return v.is<Device>() || v.is<std::string>();
    case ArgKind::Str: return v.is<std::string>();
    case ArgKind::Generator: return v.isNone();
    case ArgKind::Any: return true;
  }
  return false;
}
}  // namespace

bool valueFitsType(const Value& v, const SchemaType& type, std::string* why) {
  if (v.isNone() && (type.optional || type.kind == ArgKind::Any)) return true;
  if (type.isList) {
    // int[2] accepts a single int (broadcast), as ATen does.
    if (type.fixedLength && v.is<SymInt>() && (type.kind == ArgKind::Int || type.kind == ArgKind::SymInt))
      return true;
    if (!v.is<ValueList>()) {
      if (why) *why = "expected " + type.str() + " but got " + v.kindName();
      return false;
    }
    const auto& list = v.as<ValueList>();
    // int[N] takes a list of any length, as ATen's schemas do: N only says how a single int is
    // broadcast, and the op checks the length itself (pooling reads stride=[] as the kernel size,
    // which make_fx records for F.max_pool2d(x, 2)). Other fixed lengths (bool[3]) must match.
    const bool intList = type.kind == ArgKind::Int || type.kind == ArgKind::SymInt;
    if (type.fixedLength > 1 && static_cast<int64_t>(list.size()) != type.fixedLength && !intList &&
        type.kind != ArgKind::Tensor) {
      if (why) *why = "expected " + std::to_string(type.fixedLength) + " elements but got " + std::to_string(list.size());
      return false;
    }
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].isNone() && type.elementOptional) continue;
      if (!scalarFits(list[i], type.kind)) {
        if (why) *why = "element " + std::to_string(i) + " should be " + std::string(kindName(type.kind)) +
                        " but is " + list[i].kindName();
        return false;
      }
    }
    return true;
  }
  if (scalarFits(v, type.kind)) return true;
  if (why) *why = "expected " + type.str() + " but got " + v.kindName();
  return false;
}

Result<ValueList> bindArguments(const FunctionSchema& schema, const ValueList& args, const Kwargs& kwargs) {
  const std::string op = schema.qualifiedName();
  size_t positional = 0;
  for (const auto& a : schema.args) positional += a.kwargOnly ? 0 : 1;
  if (args.size() > positional)
    return invalidInput(op + " takes " + std::to_string(positional) + " positional arguments but " +
                        std::to_string(args.size()) + " were given");
  std::vector<std::optional<Value>> bound(schema.args.size());
  for (size_t i = 0; i < args.size(); ++i) bound[i] = args[i];
  for (const auto& [name, value] : kwargs) {
    size_t i = 0;
    while (i < schema.args.size() && schema.args[i].name != name) ++i;
    if (i == schema.args.size())
      return invalidInput(op + " got an unexpected keyword argument '" + name + "'");
    if (bound[i]) return invalidInput(op + " got multiple values for argument '" + name + "'");
    bound[i] = value;
  }
  ValueList out;
  out.reserve(schema.args.size());
  for (size_t i = 0; i < schema.args.size(); ++i) {
    const auto& arg = schema.args[i];
    if (!bound[i]) {
      if (!arg.defaultValue) {
        if (!arg.type.optional) return invalidInput(op + " missing required argument '" + arg.name + "'");
        bound[i] = Value(None{});
      } else {
        bound[i] = *arg.defaultValue;
      }
    }
    std::string why;
    if (!valueFitsType(*bound[i], arg.type, &why))
      return invalidInput(op + " argument '" + arg.name + "': " + why);
    out.push_back(std::move(*bound[i]));
  }
  return out;
}

}  // namespace fathom
