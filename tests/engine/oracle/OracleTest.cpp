// Replays every PyTorch oracle case (tests/oracle/fixtures/*.jsonl, written by
// tests/oracle/generate.py from PyTorch 1.13) through Fathom: each case becomes a one-op dump
// (placeholders with the inputs' exact sizes/strides/offset and inline data, the call, getitems
// for tuple results, an output node also returning inputs the op mutates), which the dump reader
// loads and the interpreter runs. Checked per case:
//   - sizes, strides, storage offset and dtype of every result exactly as PyTorch's (a result
//     PyTorch leaves out, null in the fixture, must be None);
//   - values within a per-dtype tolerance (torch.testing's defaults; a case may widen it);
//   - the op's meta function agrees with its kernel on every result's layout;
//   - a case PyTorch rejects is rejected by Fathom too (InvalidInput, never a crash).
// One test per fixture file; each prints "FAMILY: N/N cases match PyTorch".
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "engine/dump/Dump.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "engine/ops/OpArgs.h"
#include "engine/ops/OpRegistry.h"
#include "tests/TestDataDir.h"
#include "tests/engine/oracle/OracleCase.h"

namespace fathom {
namespace {

using oracle::caseDump;
using oracle::compareTensor;
using oracle::defaultTolerance;
using oracle::expectedNumber;
using oracle::fixtureDir;
using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// Runs each op's meta function next to its kernel and remembers where they disagree.
class MetaCheckingInterpreter : public Interpreter {
 public:
  using Interpreter::Interpreter;
  std::string metaMismatch;

 protected:
  Result<Value> callOp(const Node& node, const ValueList& args) override {
    auto meta = callMeta(*node.op, metaArgs(args));
    auto real = Interpreter::callOp(node, args);
    if (real.ok()) {
      // A result whose size depends on values (index with a boolean mask) has no meta function,
      // as PyTorch's fake tensors have none: that refusal is expected.
      if (!meta.ok()) {
        if (meta.error().message.find("(data-dependent)") == std::string::npos)
          metaMismatch = "meta failed where the kernel ran: " + meta.error().message;
      } else {
        ValueList outs = real->is<ValueList>() ? real->as<ValueList>() : ValueList{*real};
        for (size_t i = 0; i < outs.size() && i < meta->size(); ++i) {
          if (!outs[i].is<Tensor>() || !(*meta)[i].is<TensorMeta>()) continue;
          const TensorMeta& m = (*meta)[i].as<TensorMeta>();
          const Tensor& t = outs[i].as<Tensor>();
          const std::string a = m.str(), b = t.meta().str();
          if (a != b) metaMismatch += "result " + std::to_string(i) + ": meta " + a + ", kernel " + b + "; ";
        }
      }
    }
    return real;
  }
};

// A case PyTorch computes: Fathom must give the same results.
std::string checkValueCase(const json& c, const std::string& label) {
  auto dump = parseDump(caseDump(c).dump(), label);
  if (!dump.ok()) return "dump refused: " + dump.error().str();
  auto inputs = materializeInputs(dump->inputs.at(0).second);
  if (!inputs.ok()) return "inputs: " + inputs.error().str();
  MetaCheckingInterpreter interp(dump->graphs.at(0).graph);
  auto outs = interp.run(*inputs);
  if (!outs.ok()) return "Fathom failed: " + outs.error().str();
  std::string why = interp.metaMismatch;
  std::vector<const json*> wanted;
  for (const auto& o : c.at("outputs")) wanted.push_back(&o);
  if (c.contains("mutated"))
    for (auto& [_, v] : c["mutated"].items()) wanted.push_back(&v);
  if (outs->size() != wanted.size())
    return why + "returned " + std::to_string(outs->size()) + " values, PyTorch " + std::to_string(wanted.size());
  const json tol = c.value("tol", json());
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (wanted[i]->is_null()) {  // PyTorch returned None there
      if (!(*outs)[i].isNone()) why += "result " + std::to_string(i) + " is not None; ";
      continue;
    }
    if (!(*outs)[i].is<Tensor>()) {
      why += "result " + std::to_string(i) + " is not a tensor; ";
      continue;
    }
    const std::string d = compareTensor((*outs)[i].as<Tensor>(), *wanted[i], tol);
    if (!d.empty()) why += "result " + std::to_string(i) + ": " + d;
  }
  return why;
}

// Does Fathom's error say what PyTorch's says? PyTorch's first line, up to its first
// punctuation that ends a clause, must appear in Fathom's message.
bool sameErrorText(const std::string& fathom, std::string torch) {
  const size_t cut = torch.find_first_of(".;(\n");
  if (cut != std::string::npos && cut > 20) torch.resize(cut);
  return fathom.find(torch) != std::string::npos;
}

struct CaseResult {
  std::string mismatch;        // "" when Fathom agrees with PyTorch
  bool errorCase = false;      // PyTorch raised
  bool sameErrorText = false;  // ... and Fathom's message says the same
};

// A case PyTorch rejects: Fathom must refuse it as bad input, when loading or running.
std::string checkErrorCase(const json& c, const std::string& label, bool* sameText) {
  const std::string torch = c.at("error");
  auto dump = parseDump(caseDump(c).dump(), label);
  Error err;
  if (!dump.ok()) {
    err = dump.error();
  } else {
    auto inputs = materializeInputs(dump->inputs.at(0).second);
    if (!inputs.ok()) return "inputs: " + inputs.error().str();
    Interpreter interp(dump->graphs.at(0).graph);
    auto outs = interp.run(*inputs);
    if (outs.ok()) return "PyTorch raised \"" + torch + "\" but Fathom ran";
    err = outs.error();
  }
  if (err.code != ErrorCode::InvalidInput) return "wrong error kind: " + err.str();
  *sameText = sameErrorText(err.message, torch);
  return "";
}

CaseResult checkCase(const json& c, const std::string& label) {
  CaseResult r;
  r.errorCase = c.contains("error");
  if (r.errorCase) {
    r.mismatch = checkErrorCase(c, label, &r.sameErrorText);
    return r;
  }
  r.mismatch = checkValueCase(c, label);
  return r;
}

class OracleFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(OracleFixture, EveryCaseMatchesPyTorch) {
  const fs::path path = fixtureDir() / (GetParam() + ".jsonl");
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::string line;
  int lineNo = 0, total = 0, matched = 0, errors = 0, sameText = 0;
  std::vector<std::string> failures;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty()) continue;
    ++total;
    const json c = json::parse(line);
    const std::string label = path.filename().string() + ":" + std::to_string(lineNo);
    const CaseResult r = checkCase(c, label);
    if (r.mismatch.empty()) ++matched;
    else failures.push_back(label + " " + c.value("case", "?") + ": " + r.mismatch);
    errors += r.errorCase;
    sameText += r.sameErrorText;
  }
  std::printf("%s: %d/%d cases match PyTorch (%d of them errors, %d with PyTorch's message text)\n",
              GetParam().c_str(), matched, total, errors, sameText);
  for (size_t i = 0; i < failures.size() && i < 40; ++i) ADD_FAILURE() << failures[i];
  EXPECT_EQ(matched, total) << failures.size() << " cases differ from PyTorch";
  EXPECT_GT(total, 0);
}

std::vector<std::string> families() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fixtureDir()))
    if (e.path().extension() == ".jsonl") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Oracle, OracleFixture, ::testing::ValuesIn(families()),
                         [](const auto& info) { return info.param; });

// Every op the ATen op library promises (tests/oracle/required_ops.txt) has oracle cases, and each
// of them is registered.
TEST(OracleCoverage, EveryRequiredOpHasCases) {
  std::set<std::string> covered;
  for (const auto& family : families()) {
    std::ifstream in(fixtureDir() / (family + ".jsonl"));
    std::string line;
    while (std::getline(in, line))
      if (!line.empty()) covered.insert(json::parse(line).at("op").get<std::string>());
  }
  std::ifstream req(fs::path(FATHOM_TEST_DATA_DIR) / "tests" / "oracle" / "required_ops.txt");
  ASSERT_TRUE(req);
  std::string op;
  int n = 0;
  while (req >> op) {
    if (op.starts_with("#")) {
      std::getline(req, op);
      continue;
    }
    ++n;
    EXPECT_TRUE(OpRegistry::global().find(op)) << op << " is not registered";
    EXPECT_TRUE(covered.count(op)) << op << " has no oracle case";
  }
  EXPECT_GT(n, 0);
}

}  // namespace
}  // namespace fathom
