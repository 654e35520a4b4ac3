// Shared by the oracle tests (OracleTest.cpp, GradOracleTest.cpp): where the fixtures are, a
// case as the one-op dump it stands for, torch.testing's default tolerances, and a result compared
// with the fixture's.
#pragma once

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>

#include "engine/core/DType.h"
#include "engine/tensor/Tensor.h"
#include "tests/TestDataDir.h"

namespace fathom::oracle {

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

inline fs::path fixtureDir() { return fs::path(FATHOM_TEST_DATA_DIR) / "tests" / "oracle" / "fixtures"; }

// (rtol, atol) per dtype.
inline std::pair<double, double> defaultTolerance(DType t) {
  switch (t) {
    case DType::Float16: return {1e-3, 1e-5};
    case DType::BFloat16: return {1.6e-2, 1e-5};
    case DType::Float64: return {1e-7, 1e-7};
    case DType::Float32: return {1.3e-6, 1e-5};
    default: return {0, 0};
  }
}

// A fixture number: plain, a bool, or {"float": "nan" | "inf" | "-inf"}.
inline double expectedNumber(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_object()) {
    const std::string s = v.at("float");
    return s == "nan" ? NAN : s == "inf" ? INFINITY : -INFINITY;
  }
  return v.get<double>();
}

// The one-op dump a case stands for: placeholders a0, a1, ... with the inputs' exact layouts and
// inline data, the call "out", getitems for tuple results, an output node also returning inputs
// the op mutates.
inline json caseDump(const json& c) {
  json nodes = json::array(), inputs = json::array();
  for (size_t i = 0; i < c.at("inputs").size(); ++i) {
    json in = c["inputs"][i];
    const std::string name = "a" + std::to_string(i);
    json val = in;
    val.erase("data");
    nodes.push_back({{"name", name}, {"kind", "placeholder"}, {"meta", {{"val", val}}}});
    in["name"] = name;
    inputs.push_back(in);
  }
  json call = {{"name", "out"}, {"kind", "call"}, {"op", c.at("op")}, {"args", c.at("args")}};
  if (c.contains("kwargs")) call["kwargs"] = c["kwargs"];
  nodes.push_back(call);
  json results = json::array();
  if (c.value("multi", false)) {
    for (size_t i = 0; i < c.at("outputs").size(); ++i) {
      const std::string name = "out_" + std::to_string(i);
      nodes.push_back({{"name", name}, {"kind", "call"}, {"op", "getitem"}, {"args", {{{"node", "out"}}, i}}});
      results.push_back({{"node", name}});
    }
  } else {
    results.push_back({{"node", "out"}});
  }
  if (c.contains("mutated"))
    for (auto& [index, _] : c["mutated"].items()) results.push_back({{"node", "a" + index}});
  nodes.push_back({{"name", "output"}, {"kind", "output"}, {"args", {results}}});
  return {{"format", "fathom-dump"}, {"version", 1}, {"graphs", {{"case", {{"nodes", nodes}}}}},
          {"inputs", {{"case", inputs}}}};
}

// "" when `t` matches the expected result `want`, else what differs.
inline std::string compareTensor(const Tensor& t, const json& want, const json& tol) {
  std::ostringstream why;
  const std::string dtype = want.at("dtype");
  if (dtypeName(t.dtype()) != dtype) why << "dtype " << dtypeName(t.dtype()) << " != " << dtype << "; ";
  const auto sizes = want.at("sizes").get<IntList>();
  const auto strides = want.at("strides").get<IntList>();
  if (t.sizes() != sizes) why << "sizes " << json(t.sizes()).dump() << " != " << json(sizes).dump() << "; ";
  else if (t.strides() != strides)
    why << "strides " << json(t.strides()).dump() << " != " << json(strides).dump() << "; ";
  if (t.storageOffset() != want.at("offset").get<int64_t>())
    why << "offset " << t.storageOffset() << " != " << want.at("offset") << "; ";
  if (!why.str().empty() || !want.contains("data")) return why.str();
  const json& data = want.at("data");
  auto [rtol, atol] = defaultTolerance(t.dtype());
  if (tol.is_array()) rtol = tol[0], atol = tol[1];
  int shown = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double got = t.atLinear(i), exp = expectedNumber(data.at(static_cast<size_t>(i)));
    // (an infinite expected value is matched exactly: its relative tolerance would be infinite)
    const bool same = (std::isnan(got) && std::isnan(exp)) || got == exp ||
                      (!std::isinf(exp) && std::fabs(got - exp) <= atol + rtol * std::fabs(exp));
    if (!same && shown++ < 3) why << "value[" << i << "] " << got << " != " << exp << "; ";
  }
  return why.str();
}

}  // namespace fathom::oracle
