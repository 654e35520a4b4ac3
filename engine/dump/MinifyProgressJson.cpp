// The minify progress stream (see the header): encoder and decoder side by side, key for key.
#include "engine/dump/MinifyProgressJson.h"

#include <nlohmann/json.hpp>

#include <array>

#include "engine/dump/JsonText.h"

namespace fathom {
namespace {

using OJson = nlohmann::ordered_json;
using Json = nlohmann::json;

constexpr std::array<const char*, 5> kNames = {"start", "query", "improve", "end", "waiting"};

OJson nullable(const std::string& s) { return s.empty() ? OJson(nullptr) : OJson(s); }

OJson encode(const MinifyEvent& e) {
  OJson j = {{"event", minifyEventKindName(e.kind)}};
  switch (e.kind) {
    case MinifyEventKind::Start:
      j.update({{"file", e.file}, {"graph", e.graph}, {"predicate", e.predicate}, {"backend", e.backend},
                {"output", e.output}, {"start_nodes", e.startNodes}, {"nodes", e.nodes}, {"passes", e.passes},
                {"jobs", e.jobs}, {"isolated", e.isolated}, {"resumed", e.resumed}});
      break;
    case MinifyEventKind::Query:
      j.update({{"queries", e.queries}, {"cache_hits", e.cacheHits}, {"pass", e.pass}, {"nodes", e.nodes}, {"seconds", e.seconds}});
      break;
    case MinifyEventKind::Improve:
      j.update({{"nodes", e.nodes}, {"queries", e.queries}, {"seconds", e.seconds}, {"checkpoint", nullable(e.checkpoint)}});
      if (!e.checkpointError.empty()) j["checkpoint_error"] = e.checkpointError;
      j.update({{"inputs", e.inputs}, {"calls", e.calls}});
      break;
    case MinifyEventKind::End:
      j.update({{"result", e.result}, {"start_nodes", e.startNodes}, {"end_nodes", e.nodes}, {"queries", e.queries},
                {"cache_hits", e.cacheHits}, {"verifications", e.verifications}, {"flaky", e.flaky}, {"invalid", e.invalid},
                {"passes", e.passes}, {"seconds", e.seconds}, {"output", nullable(e.output)}});
      if (!e.what.empty()) j["what"] = e.what;
      break;
    case MinifyEventKind::Waiting:
      j.update({{"queries", e.queries}, {"pass", e.pass}, {"nodes", e.nodes}, {"seconds", e.seconds}, {"running", e.running},
                {"longest", e.longestSeconds}});
      break;
  }
  return j;
}

// Readers of one key each: absent keys leave the field as it is; a key of the wrong type is an
// error naming it.
struct Reader {
  const Json& j;
  std::string error;

  void count(const char* key, size_t& out) {
    auto it = j.find(key);
    if (it == j.end()) return;
    if (it->is_number_unsigned() || (it->is_number_integer() && it->get<int64_t>() >= 0)) out = it->get<size_t>();
    else fail(key, "a count");
  }
  void number(const char* key, double& out) {
    auto it = j.find(key);
    if (it == j.end()) return;
    if (it->is_number()) out = it->get<double>();
    else fail(key, "a number");
  }
  void text(const char* key, std::string& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return;
    if (it->is_string()) out = it->get<std::string>();
    else fail(key, "a string");
  }
  void flag(const char* key, bool& out) {
    auto it = j.find(key);
    if (it == j.end()) return;
    if (it->is_boolean()) out = it->get<bool>();
    else fail(key, "true or false");
  }
  void texts(const char* key, std::vector<std::string>& out) {
    auto it = j.find(key);
    if (it == j.end()) return;
    if (!it->is_array()) return fail(key, "a list of strings");
    for (const auto& s : *it) {
      if (!s.is_string()) return fail(key, "a list of strings");
      out.push_back(s.get<std::string>());
    }
  }
  void fail(const char* key, const char* what) {
    if (error.empty()) error = std::string("\"") + key + "\" is not " + what;
  }
};

void decodeFields(Reader& r, MinifyEvent& e) {
  r.text("file", e.file);
  r.text("graph", e.graph);
  r.text("predicate", e.predicate);
  r.text("backend", e.backend);
  r.text("output", e.output);
  r.texts("passes", e.passes);
  r.count("jobs", e.jobs);
  r.flag("isolated", e.isolated);
  r.flag("resumed", e.resumed);
  r.count("start_nodes", e.startNodes);
  r.count(e.kind == MinifyEventKind::End ? "end_nodes" : "nodes", e.nodes);
  r.count("queries", e.queries);
  r.count("cache_hits", e.cacheHits);
  r.count("verifications", e.verifications);
  r.count("flaky", e.flaky);
  r.count("invalid", e.invalid);
  r.text("pass", e.pass);
  r.count("running", e.running);
  r.number("longest", e.longestSeconds);
  r.number("seconds", e.seconds);
  r.text("checkpoint", e.checkpoint);
  r.text("checkpoint_error", e.checkpointError);
  r.texts("inputs", e.inputs);
  r.texts("calls", e.calls);
  r.text("result", e.result);
  r.text("what", e.what);
}

}  // namespace

const char* minifyEventKindName(MinifyEventKind kind) { return kNames[static_cast<size_t>(kind)]; }

std::string minifyEventLine(const MinifyEvent& event) {
  // Replace, not throw, on bytes that are not UTF-8 (a node name from someone else's dump).
  return encode(event).dump(-1, ' ', false, OJson::error_handler_t::replace);
}

Result<MinifyEvent> parseMinifyEvent(std::string_view line) {
  if (auto depth = checkJsonDepth(line, 8); !depth.ok()) return depth.error();
  const Json j = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return invalidInput("not a JSON object");
  auto kind = j.find("event");
  if (kind == j.end() || !kind->is_string()) return invalidInput("no \"event\" key");
  MinifyEvent e;
  const std::string name = kind->get<std::string>();
  size_t k = 0;
  while (k < kNames.size() && name != kNames[k]) ++k;
  if (k == kNames.size()) return invalidInput("unknown event '" + sanitizeForTerminal(name) + "'");
  e.kind = static_cast<MinifyEventKind>(k);
  Reader r{j, {}};
  decodeFields(r, e);
  if (!r.error.empty()) return invalidInput(r.error + " (event '" + name + "')");
  return e;
}

}  // namespace fathom
