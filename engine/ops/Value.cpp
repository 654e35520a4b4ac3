#include "engine/ops/Value.h"

#include "engine/core/Error.h"

namespace fathom {

double Value::toDouble() const {
  if (auto* i = tryAs<SymInt>()) return static_cast<double>(i->hint());
  if (auto* d = tryAs<double>()) return *d;
  if (auto* b = tryAs<bool>()) return *b ? 1.0 : 0.0;
  throwOpError("expected a number but got " + kindName());
}

std::string Value::kindName() const {
  static const char* kNames[] = {"None", "bool", "int", "float", "str", "dtype", "memory_format",
                                 "layout", "device", "node", "Tensor", "FakeTensor", "list"};
  return kNames[v.index()];
}

SymIntList toSymIntList(const Value& v) {
  if (auto* i = v.tryAs<SymInt>()) return {*i};
  FATHOM_CHECK(v.is<ValueList>(), "expected a list of ints but got ", v.kindName());
  SymIntList out;
  for (const auto& e : v.as<ValueList>()) {
    FATHOM_CHECK(e.is<SymInt>(), "expected a list of ints but an element is ", e.kindName());
    out.push_back(e.as<SymInt>());
  }
  return out;
}

IntList toIntList(const Value& v) {
  IntList out;
  for (const auto& s : toSymIntList(v)) {
    FATHOM_CHECK(!s.isSymbolic(), "expected concrete ints but got ", s.str());
    out.push_back(s.hint());
  }
  return out;
}

}  // namespace fathom
