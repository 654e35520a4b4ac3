// Replays PyTorch 1.13's gradients (the "grad" record of oracle cases, written by
// tests/oracle/oracle.py for small float32/float64 cases of differentiable ops) through Fathom's
// eager autograd: the case's inputs become eager frontend tensors with their exact layouts, the
// floating ones PyTorch differentiated require grad, the op runs through frontend::callOp, and
// autograd::grad with the recorded grad_outputs must give PyTorch's gradients - sizes exactly,
// values within the dtype's tolerance. An input PyTorch returns no gradient for (unused) must get
// none or zeros; one PyTorch has no derivative for ("unsupported") is not asked.
#include <algorithm>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "engine/autograd/Autograd.h"
#include "engine/autograd/Formula.h"
#include "engine/dump/Dump.h"
#include "engine/frontend/OpCall.h"
#include "engine/interp/ExampleInputs.h"
#include "tests/engine/oracle/OracleCase.h"

namespace fathom {
namespace {

using oracle::json;
using FTensor = frontend::Tensor;

// Ops PyTorch differentiates that Fathom has no formula for (see BackwardDerivatives.cpp and
// ShapeDerivatives.cpp): their gradient records are counted as skipped, any other op without a
// formula fails.
const std::set<std::string> kNoFormula = {
    "aten.native_layer_norm_backward.default", "aten.native_batch_norm_backward.default",
    "aten.native_group_norm_backward.default",
    "aten.convolution_backward.default", "aten.as_strided.default"};

// Cases where PyTorch 1.13's gradient is not the derivative of its own op, so Fathom (checked
// against finite differences in GradCheckTest) deliberately differs: the reason, or "".
std::string knownPyTorchDeviation(const json& c) {
  // embedding_dense_double_backward ignores scale_grad_by_freq, though the backward scaled the rows.
  if (c.at("op") == "aten.embedding_dense_backward.default" && c.at("args").size() > 4 && c["args"][4] == true)
    return "scale_grad_by_freq";
  // PyTorch 1.13 has no derivative at all (silu_backward, hardsigmoid_backward): nothing to
  // compare, Fathom's formula is checked against finite differences only (GradCheckTest).
  bool any = false;
  for (const auto& [index, grad] : c.at("grad").at("inputs").items()) any = any || !grad.is_string();
  if (!any) return "no derivative in PyTorch";
  return "";
}

// A contiguous eager tensor holding a fixture tensor's values.
FTensor fixtureTensor(const json& t) {
  auto dtype = parseDType(t.at("dtype").get<std::string>());
  if (!dtype) throw OpError("unknown dtype in fixture", ErrorCode::Internal);
  auto real = Tensor::empty(t.at("sizes").get<IntList>(), *dtype);
  if (!real.ok()) throw OpError(real.error().message, ErrorCode::Internal);
  const json& data = t.at("data");
  for (size_t i = 0; i < data.size(); ++i) real->setLinear(static_cast<int64_t>(i), oracle::expectedNumber(data[i]));
  return FTensor::eager(*real);
}

// A graph argument with its placeholders replaced by the case's eager tensors.
frontend::Arg toArg(const Value& v, const std::map<int32_t, FTensor>& byNode) {
  if (v.is<NodeRef>()) return byNode.at(v.as<NodeRef>().index);
  if (v.is<ValueList>()) {
    const auto& list = v.as<ValueList>();
    // A Tensor[] or Tensor?[] (None elements as undefined tensors).
    const auto isRef = [](const Value& e) { return e.is<NodeRef>(); };
    if (std::any_of(list.begin(), list.end(), isRef)) {
      std::vector<FTensor> tensors;
      for (const auto& e : list) tensors.push_back(e.isNone() ? FTensor() : byNode.at(e.as<NodeRef>().index));
      return tensors;
    }
  }
  return v;
}

// "" when the gradient matches PyTorch's record `want` (null: no gradient, or zeros).
std::string compareGrad(const FTensor& got, const json& want, const json& tol) {
  std::ostringstream why;
  if (want.is_null()) {
    if (got.defined())
      for (int64_t i = 0; i < got.real().numel(); ++i)
        if (got.real().atLinear(i) != 0) return "PyTorch has no gradient, Fathom's is nonzero";
    return "";
  }
  if (!got.defined()) return "Fathom gave no gradient";
  const fathom::Tensor& t = got.real();
  if (t.sizes() != want.at("sizes").get<IntList>()) return "sizes " + json(t.sizes()).dump() + " != " + want.at("sizes").dump();
  if (dtypeName(t.dtype()) != want.at("dtype").get<std::string>()) why << "dtype " << dtypeName(t.dtype()) << "; ";
  auto [rtol, atol] = oracle::defaultTolerance(t.dtype());
  if (tol.is_array()) rtol = std::max(rtol, tol[0].get<double>()), atol = std::max(atol, tol[1].get<double>());
  const json& data = want.at("data");
  int shown = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double a = t.atLinear(i), e = oracle::expectedNumber(data.at(static_cast<size_t>(i)));
    const bool same = (std::isnan(a) && std::isnan(e)) || a == e ||  // an infinite e only exactly
                      (!std::isinf(e) && std::fabs(a - e) <= atol + rtol * std::fabs(e));
    if (!same && shown++ < 3) why << "value[" << i << "] " << a << " != " << e << "; ";
  }
  return why.str();
}

std::string checkGradients(const json& c, const std::string& label) {
  const json& rec = c.at("grad");
  auto dump = parseDump(oracle::caseDump(c).dump(), label);
  if (!dump.ok()) return "dump refused: " + dump.error().str();
  auto reals = materializeInputs(dump->inputs.at(0).second);
  if (!reals.ok()) return "inputs: " + reals.error().str();
  const Graph& graph = dump->graphs.at(0).graph;
  std::map<int32_t, FTensor> byNode;
  std::vector<FTensor> inputs;
  const auto placeholders = graph.placeholders();
  for (size_t i = 0; i < placeholders.size(); ++i) {
    inputs.push_back(FTensor::eager((*reals)[i].as<Tensor>()));
  }
  std::vector<size_t> wrt;
  std::vector<FTensor> leaves;
  for (auto& [index, grad] : rec.at("inputs").items()) {
    if (grad.is_string()) continue;  // "unsupported": PyTorch has no derivative for it
    const size_t i = std::stoul(index);
    autograd::setRequiresGrad(inputs[i], true, "a" + index);
    wrt.push_back(i);
    leaves.push_back(inputs[i]);
  }
  for (size_t i = 0; i < placeholders.size(); ++i) byNode[placeholders[i].index] = inputs[i];
  const Node& call = graph.node(*graph.find("out"));
  frontend::Args args;
  for (const auto& a : call.args) args.push_back(toArg(a, byNode));
  frontend::KwArgs kwargs;
  for (const auto& [name, a] : call.kwargs) kwargs.emplace_back(name, toArg(a, byNode));
  const std::vector<FTensor> outs = frontend::callOp(c.at("op").get<std::string>(), args, kwargs);
  std::vector<FTensor> picked, gradOutputs;
  for (size_t k = 0; k < rec.at("outputs").size(); ++k) {
    picked.push_back(outs.at(rec["outputs"][k].get<size_t>()));
    gradOutputs.push_back(fixtureTensor(rec.at("grad_outputs").at(k)));
  }
  const auto grads = autograd::grad(picked, leaves, gradOutputs, {.allowUnused = true});
  std::string why;
  for (size_t k = 0; k < wrt.size(); ++k) {
    const std::string d = compareGrad(grads.at(k), rec["inputs"][std::to_string(wrt[k])], c.value("tol", json()));
    if (!d.empty()) why += "gradient of a" + std::to_string(wrt[k]) + ": " + d;
  }
  return why;
}

class GradOracleFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(GradOracleFixture, GradientsMatchPyTorch) {
  const oracle::fs::path path = oracle::fixtureDir() / (GetParam() + ".jsonl");
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::string line;
  int lineNo = 0, total = 0, matched = 0, skipped = 0;
  std::vector<std::string> failures;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.find("\"grad\":") == std::string::npos) continue;
    const json c = json::parse(line);
    if (!c.contains("grad")) continue;
    const std::string op = c.at("op");
    const std::string label = path.filename().string() + ":" + std::to_string(lineNo);
    if ((!autograd::findDerivative(op) && kNoFormula.count(op)) || !knownPyTorchDeviation(c).empty()) {
      ++skipped;
      continue;
    }
    ++total;
    auto r = frontend::catchErrors([&] { return checkGradients(c, label); });
    const std::string why = r.ok() ? *r : "Fathom failed: " + r.error().message;
    if (why.empty()) ++matched;
    else failures.push_back(label + " " + c.value("case", "?") + ": " + why);
  }
  std::printf("%s: %d/%d gradient cases match PyTorch (%d skipped: no formula, or PyTorch's gradient is not its op's derivative)\n", GetParam().c_str(), matched, total,
              skipped);
  for (size_t i = 0; i < failures.size() && i < 40; ++i) ADD_FAILURE() << failures[i];
  EXPECT_EQ(matched, total) << failures.size() << " cases differ from PyTorch";
  EXPECT_GT(total, 0);
}

std::vector<std::string> families() {
  std::vector<std::string> out;
  for (const auto& e : oracle::fs::directory_iterator(oracle::fixtureDir()))
    if (e.path().extension() == ".jsonl") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(GradOracle, GradOracleFixture, ::testing::ValuesIn(families()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace fathom
