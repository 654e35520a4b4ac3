// Meta functions settled on the first call (see the header).
#include "engine/ops/infer/FirstCall.h"

#include <map>
#include <memory>
#include <mutex>

#include "engine/core/Error.h"
#include "engine/ops/infer/InferMeta.h"
#include "engine/ops/infer/MetaCheck.h"

namespace fathom::infer {
namespace {

SymIntList hints(const SymIntList& list) {
  SymIntList out;
  for (const auto& s : list) out.push_back(SymInt(s.hint()));
  return out;
}

// The call's arguments with every symbolic size, stride, offset and int at its hint: an example.
Value atHints(const Value& v) {
  if (const auto* m = v.tryAs<TensorMeta>()) {
    TensorMeta c = *m;
    c.sizes = hints(m->sizes);
    c.strides = hints(m->strides);
    c.storageOffset = SymInt(m->storageOffset.hint());
    return Value(std::move(c));
  }
  if (const auto* i = v.tryAs<SymInt>()) return Value(SymInt(i->hint()));
  if (const auto* l = v.tryAs<ValueList>()) {
    ValueList out;
    for (const auto& x : *l) out.push_back(atHints(x));
    return Value(std::move(out));
  }
  return v;
}

// The constant arguments (tensors left out), at their hints: one rule or check per distinct key.
std::string constantsKey(const ValueList& example) {
  std::string key;
  for (const auto& v : example) {
    if (v.is<TensorMeta>()) key += "T(" + std::to_string(v.as<TensorMeta>().dim()) + ")|";
    else if (const auto* i = v.tryAs<SymInt>()) key += std::to_string(i->hint()) + "|";
    else if (const auto* d = v.tryAs<double>()) key += std::to_string(*d) + "|";
    else key += v.kindName() + "|";
  }
  return key;
}

struct Settled {
  std::mutex lock;
  std::map<std::string, OpFn> byConstants;  // inferred rules
  std::map<std::string, bool> checked;      // declared meta: checked for these constants
};

const OpDef& opNamed(const std::string& name) {
  const OpDef* op = OpRegistry::global().find(name);
  FATHOM_CHECK(op, "no op ", name);
  return *op;
}

}  // namespace

OpFn inferredOnFirstCall(std::string opName) {
  auto settled = std::make_shared<Settled>();
  return [opName, settled](const ValueList& args) -> ValueList {
    ValueList example;
    for (const auto& a : args) example.push_back(atHints(a));
    OpFn rule;
    {
      std::lock_guard<std::mutex> hold(settled->lock);
      auto& slot = settled->byConstants[constantsKey(example)];
      if (!slot) {
        auto inferred = inferMeta(opNamed(opName), example);
        FATHOM_CHECK(inferred.ok(), inferred.ok() ? "" : inferred.error().message);
        slot = inferred->asMetaFn();
      }
      rule = slot;
    }
    return rule(args);
  };
}

OpFn checkedOnFirstCall(std::string opName, OpFn declared) {
  auto settled = std::make_shared<Settled>();
  return [opName, declared, settled](const ValueList& args) -> ValueList {
    ValueList example;
    for (const auto& a : args) example.push_back(atHints(a));
    {
      std::lock_guard<std::mutex> hold(settled->lock);
      if (bool& done = settled->checked[constantsKey(example)]; !done) {
        OpDef withDeclared = opNamed(opName);
        withDeclared.meta = declared;
        auto report = checkDeclaredMeta(withDeclared, example);
        FATHOM_CHECK(!report.ok() || report->agrees(), "its declared meta function disagrees with its kernel: ", report->disagreement);
        done = true;
      }
    }
    return declared(args);
  };
}

}  // namespace fathom::infer
