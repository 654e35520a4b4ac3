// Reading a `fathom check --json` report back (see CheckReportJson.h).
#include "engine/dump/CheckReportJson.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "engine/dump/Dump.h"
#include "engine/dump/JsonText.h"

namespace fathom {
namespace {

using json = nlohmann::json;

constexpr int kMaxDepth = 16;  // a report nests 3 deep

struct BadReport {
  std::string pointer, message;
};

const json& member(const json& object, const std::string& pointer, const char* key) {
  if (!object.is_object()) throw BadReport{pointer.empty() ? "/" : pointer, "expected an object"};
  auto it = object.find(key);
  if (it == object.end()) throw BadReport{pointer.empty() ? "/" : pointer, std::string("missing \"") + key + "\""};
  return *it;
}

std::string text(const json& object, const std::string& pointer, const char* key, bool required = true) {
  if (!required && (!object.is_object() || !object.contains(key))) return {};
  const json& v = member(object, pointer, key);
  if (!v.is_string()) throw BadReport{pointer + "/" + key, "expected a string"};
  return v.get<std::string>();
}

Mismatch readMismatch(const json& j, const std::string& pointer) {
  Mismatch m;
  m.graph = text(j, pointer, "graph");
  m.node = text(j, pointer, "node");
  m.op = text(j, pointer, "op", false);
  m.field = text(j, pointer, "field");
  m.expected = text(j, pointer, "expected", false);
  m.actual = text(j, pointer, "actual", false);
  const json& origin = member(j, pointer, "origin");
  if (!origin.is_boolean()) throw BadReport{pointer + "/origin", "expected true or false"};
  m.origin = origin.get<bool>();
  m.source = text(j, pointer, "source", false);
  m.module = text(j, pointer, "module", false);
  return m;
}

CheckReport readReport(const json& doc) {
  CheckReport r;
  r.file = text(doc, "", "file", false);
  const json& list = member(doc, "", "mismatches");
  if (!list.is_array()) throw BadReport{"/mismatches", "expected an array"};
  for (size_t i = 0; i < list.size(); ++i) r.mismatches.push_back(readMismatch(list[i], "/mismatches/" + std::to_string(i)));
  if (doc.contains("graphs")) {
    const json& graphs = doc["graphs"];
    if (!graphs.is_array()) throw BadReport{"/graphs", "expected an array"};
    for (size_t i = 0; i < graphs.size(); ++i) r.graphs.push_back(text(graphs[i], "/graphs/" + std::to_string(i), "graph"));
  } else {
    for (const Mismatch& m : r.mismatches)
      if (std::find(r.graphs.begin(), r.graphs.end(), m.graph) == r.graphs.end()) r.graphs.push_back(m.graph);
  }
  return r;
}

}  // namespace

Result<CheckReport> parseCheckReport(std::string_view text, const std::string& label) {
  if (auto depth = checkJsonDepth(text, kMaxDepth); !depth.ok()) return invalidInput(depth.error().message, label);
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    return invalidInput(describeJsonParseError(text, e.byte, e.what()), label);
  } catch (const json::exception& e) {
    return invalidInput(sanitizeForTerminal(e.what()), label);
  }
  try {
    return readReport(doc);
  } catch (const BadReport& e) {
    return invalidInput(sanitizeForTerminal(e.message) + " (is this `fathom check --json` output?)",
                        label + ": " + sanitizeForTerminal(e.pointer));
  }
}

Result<CheckReport> loadCheckReport(const std::string& path) {
  auto text = readFile(path);
  FATHOM_TRY(text);
  return parseCheckReport(*text, path);
}

}  // namespace fathom
