// Fathom's side of the bench predicates (MinifyBenchPredicates.h): an interpreter that remembers
// what a candidate executed, raises where a culprit or the shape rule says so, and computes one
// node wrongly on request - the counterpart of minify_predicates_torch.py's Recorder.
#include "tests/bench/MinifyBenchPredicates.h"

#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

#include "engine/core/Random.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"

namespace fathom::bench {
namespace {

const char* const kKeys[] = {"one", "two-nodes", "two-ops", "shape", "accuracy"};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

class Recorder : public Interpreter {
 public:
  Recorder(const Graph& g, const PredicateSpec& spec, bool perturb) : Interpreter(g), spec_(spec), perturb_(perturb) {}
  std::set<std::string> names, ops;
  bool injected = false;  // stopped at the culprit or at a call the shape rule catches

 protected:
  Result<Value> callOp(const Node& node, const ValueList& args) override {
    names.insert(node.name);
    ops.insert(node.target);
    if (spec_.key == "one" && node.name == spec_.culprits.front()) return inject("culprit executed");
    if (spec_.shape && node.target == spec_.shape->op && spec_.shape->arg < args.size())
      if (const auto* t = args[spec_.shape->arg].tryAs<Tensor>(); t && t->dim() > spec_.shape->dim)
        if (t->size(spec_.shape->dim) >= spec_.shape->least) return inject("large " + node.target);
    auto out = Interpreter::callOp(node, args);
    if (!perturb_ || !out.ok() || node.name != spec_.perturbed) return out;
    const auto* t = out->tryAs<Tensor>();
    if (!t || t->numel() == 0) return out;
    auto wrong = t->contiguous();
    FATHOM_TRY(wrong);
    wrong->setLinear(0, wrong->atLinear(0) + spec_.delta);
    return Value(std::move(*wrong));
  }

 private:
  Error inject(const std::string& what) {
    injected = true;
    return invalidInput("injected failure: " + what);
  }
  const PredicateSpec& spec_;
  bool perturb_;
};

struct Ran {
  bool cleanly = false, injected = false;
  std::set<std::string> names, ops;
  ValueList outputs;
  std::string what;
};

Ran runCandidate(const PredicateSpec& spec, const minify::Candidate& c, bool perturb) {
  Ran ran;
  auto values = materializeInputs(c.inputs);
  if (!values.ok()) return ran.what = "inputs: " + values.error().str(), ran;
  manualSeed(0);  // random ops draw alike in the plain and the perturbed run
  Recorder r(c.graph, spec, perturb);
  auto out = r.run(std::move(*values));
  ran.cleanly = out.ok();
  ran.injected = r.injected;
  ran.names = std::move(r.names);
  ran.ops = std::move(r.ops);
  if (out.ok()) ran.outputs = std::move(*out);
  ran.what = out.ok() ? "ran cleanly" : "raised: " + out.error().str();
  return ran;
}

// torch.allclose(a, b, rtol = atol = tol, equal_nan = True) fails somewhere.
bool tensorsDiffer(const Tensor& a, const Tensor& b, double tol) {
  if (a.sizes() != b.sizes()) return true;
  auto ca = a.contiguous(), cb = b.contiguous();
  if (!ca.ok() || !cb.ok()) return true;
  const size_t es = elementSize(a.dtype());
  const auto* pa = static_cast<const char*>(ca->data());
  const auto* pb = static_cast<const char*>(cb->data());
  for (int64_t i = 0, n = a.numel(); i < n; ++i) {
    const double x = loadAsDouble(pa + i * es, a.dtype()), y = loadAsDouble(pb + i * es, b.dtype());
    if (x == y || (std::isnan(x) && std::isnan(y))) continue;
    if (!(std::fabs(x - y) <= tol + tol * std::fabs(y))) return true;
  }
  return false;
}

bool outputsDiffer(const ValueList& got, const ValueList& want, double tol) {
  for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
    const auto* a = got[i].tryAs<Tensor>();
    const auto* b = want[i].tryAs<Tensor>();
    if (a && b && isFloating(a->dtype()) && tensorsDiffer(*a, *b, tol)) return true;
    const auto* la = got[i].tryAs<ValueList>();
    const auto* lb = want[i].tryAs<ValueList>();
    if (la && lb && outputsDiffer(*la, *lb, tol)) return true;
  }
  return false;
}

bool containsAll(const std::set<std::string>& seen, const std::vector<std::string>& wanted) {
  for (const auto& w : wanted)
    if (!seen.count(w)) return false;
  return true;
}

}  // namespace

bool isPredicateKey(const std::string& key) {
  for (const char* k : kKeys)
    if (key == k) return true;
  return false;
}

std::string predicateKeyList() {
  std::string out;
  for (const char* k : kKeys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

Result<PredicateSpec> predicateSpec(const std::string& key, const std::map<std::string, std::string>& lines) {
  auto line = [&](const char* what) -> Result<std::vector<std::string>> {
    const auto it = lines.find(key + "." + what);
    if (it == lines.end()) return invalidInput("the PyTorch side printed no line '" + key + "." + what + "'");
    return split(it->second);
  };
  PredicateSpec spec;
  spec.key = key;
  if (key == "one" || key == "two-nodes") {
    auto v = line("culprits");
    FATHOM_TRY(v);
    spec.culprits = *v;
  } else if (key == "two-ops") {
    auto v = line("ops");
    FATHOM_TRY(v);
    spec.ops = *v;
  } else if (key == "shape") {
    auto v = line("shape");
    FATHOM_TRY(v);
    if (v->size() != 4) return invalidInput("'shape.shape' is not op,arg,dim,least");
    spec.shape = ShapeRule{(*v)[0], std::stoul((*v)[1]), std::stoll((*v)[2]), std::stoll((*v)[3])};
  } else if (key == "accuracy") {
    auto v = line("accuracy");
    FATHOM_TRY(v);
    if (v->size() != 3) return invalidInput("'accuracy.accuracy' is not node,delta,tol");
    spec.perturbed = (*v)[0];
    spec.delta = std::strtod((*v)[1].c_str(), nullptr);
    spec.tol = std::strtod((*v)[2].c_str(), nullptr);
  } else {
    return invalidInput("unknown predicate '" + key + "'; the predicates are " + predicateKeyList());
  }
  if (key == "one" && spec.culprits.size() != 1) return invalidInput("'one.culprits' names more than one node");
  return spec;
}

std::string missingNode(const PredicateSpec& spec, const Graph& graph) {
  std::vector<std::string> named = spec.culprits;
  if (!spec.perturbed.empty()) named.push_back(spec.perturbed);
  for (const auto& name : named) {
    const auto at = graph.find(name);
    if (!at || graph.node(*at).kind != NodeKind::Call) return name;
  }
  return "";
}

minify::Verdict probe(const PredicateSpec& spec, const minify::Candidate& c) {
  Ran ran = runCandidate(spec, c, false);
  if (spec.key == "one" || spec.key == "shape") return {ran.injected, ran.what};
  if (spec.key == "two-nodes") return {ran.cleanly && containsAll(ran.names, spec.culprits), ran.what};
  if (spec.key == "two-ops") return {ran.cleanly && containsAll(ran.ops, spec.ops), ran.what};
  if (!ran.cleanly) return {false, ran.what};
  Ran wrong = runCandidate(spec, c, true);
  if (!wrong.cleanly) return {false, "perturbed run " + wrong.what};
  const bool differ = outputsDiffer(wrong.outputs, ran.outputs, spec.tol);
  return {differ, differ ? "outputs differ" : "outputs agree"};
}

}  // namespace fathom::bench
