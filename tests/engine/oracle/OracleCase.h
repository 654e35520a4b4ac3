// Shared by the oracle tests (OracleTest.cpp, GradOracleTest.cpp): where the fixtures are, a
// case as the one-op dump it stands for, and torch.testing's default tolerances.
#pragma once

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <utility>

#include "engine/core/DType.h"
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

}  // namespace fathom::oracle
